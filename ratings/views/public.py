"""Public pages that show ratings: the home page, a player's card and his calculation in one
list, and a rated tournament's page (crosstable, standings, rating changes)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject

from core import history as record_history
from core.caching import page_cached, page_private, public_page
from core.permissions import permission_required
from core.release import release
from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from players import selectors as player_selectors
from players.models import Player
from players.selectors import licence_current
from ratings.cards import report as card_report
from ratings.cards import selectors as card_selectors
from ratings.lists import selectors as list_selectors
from ratings.live import selectors as live_selectors
from ratings.models import PublishedList
from tournaments import part_selectors
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.substitution_selectors import competition_records

#: Seconds a rendered card (page or fragment) is kept in Django's cache. Its key holds the
#: card's state (the newest list, the player's and his rating states' last change), so a
#: publication, a correction or an edit makes a new key; the time only bounds memory.
CARD_TTL = 7 * 24 * 3600


@permission_required("ratings.browse_lists")
@public_page
def home(request: HttpRequest) -> HttpResponse:
    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    latest = list_selectors.lists_current()[:5]
    return render(
        request,
        "home.html",
        {
            "systems": systems,
            "latest_lists": latest,
            "player_count": player_selectors.player_count(),
        },
    )


@permission_required("players.browse_players")
def player_detail(request: HttpRequest, fed_id: str) -> HttpResponseBase:
    """A player's card. Anonymous visitors get the whole page from the cache, kept by what the
    card depends on (card_selectors.card_state: one statement per request); the card's
    ratings, ranks, chart and history are a fragment kept by the same state
    (players/detail.html), which the logged-in users' pages use too."""
    state = card_selectors.card_state(fed_id=fed_id)
    if state is None:
        raise Http404
    if request.GET:  # the card takes no parameter: an address with any is not kept
        return page_private(_player_detail(request, fed_id, state))
    return page_cached(
        request,
        kind="card",
        state=state,
        timeout=CARD_TTL,
        render=lambda: _player_detail(request, fed_id, state),
    )


def _player_detail(request: HttpRequest, fed_id: str, state: str) -> HttpResponse:
    player = get_object_or_404(Player, fed_id=fed_id)
    if player.merged_into_id is not None:
        # A duplicate merged into another record (desk.merges): his card is the kept one's.
        # Not cached (page_cached keeps only a 200), and the merge changed his state.
        kept = player
        while kept.merged_into_id is not None:
            kept = Player.objects.only("fed_id", "merged_into").get(pk=kept.merged_into_id)
        return redirect("players:detail", fed_id=kept.fed_id)
    events = (
        record_history.object_history(obj=player)
        if record_history.history_visible(user=request.user)
        else None
    )
    return render(
        request,
        "players/detail.html",
        {
            "player": player,
            "licence": licence_current(player=player),
            "card_state": state,
            "card_ttl": CARD_TTL,
            "release": release(),
            # Read only when the fragment is not kept.
            "cards": SimpleLazyObject(
                lambda: card_selectors.player_card(
                    player=player, live=card_selectors.card_state_live(state)
                )
            ),
            "history_events": events,
        },
    )


@permission_required("players.browse_players")
def player_calculation(request: HttpRequest, fed_id: str, list_id: int) -> HttpResponse:
    """A player's calculation in one published list, game by game (public, as FIDE's)."""
    player = get_object_or_404(Player, fed_id=fed_id)
    published = get_object_or_404(
        PublishedList.objects.select_related("system", "period"), pk=list_id
    )
    calculation = card_selectors.player_list_calculation(published=published, player_id=player.pk)
    if calculation.entry is None and calculation.result is None:
        raise Http404
    return render(
        request,
        "players/calculation.html",
        {
            "player": player,
            "list": published,
            "current": list_selectors.list_current_version(published=published),
            "calc": calculation,
        },
    )


@permission_required("players.browse_players")
def player_live(request: HttpRequest, fed_id: str, period_id: int) -> HttpResponse:
    """A player's live rating in a period not yet published, game by game (provisional)."""
    player = get_object_or_404(Player, fed_id=fed_id)
    period = get_object_or_404(
        RatingPeriod.objects.select_related("system").exclude(status=PeriodStatus.PUBLISHED),
        pk=period_id,
    )
    calculation = live_selectors.live_calculation(player=player, period=period)
    return render(
        request,
        "players/live_calculation.html",
        {"player": player, "period": period, "calc": calculation},
    )


@permission_required("tournaments.browse_tournaments")
@public_page
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament's public page: facts, crosstable, standings, the rating changes of its
    players in the current list of its period, and the report's download."""
    try:
        tournament = tournament_selectors.tournament_get_public(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    crosstable = tournament_selectors.tournament_crosstable(tournament=tournament)
    changes = card_selectors.tournament_rating_changes(tournament=tournament)
    events = (
        record_history.object_history(obj=tournament, related=True)
        if record_history.history_visible(user=request.user)
        else None
    )
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "crosstable": crosstable,
            "changes": changes,
            # fide-2000 11.31: Rc, n, W, W - We; Ru of the unrated players.
            "rating_report": card_report.tournament_rating_report(tournament=tournament),
            "report": tournament_selectors.report_public(tournament=tournament),
            "history_events": events,
            "records": competition_records(tournament=tournament),
            # fide-2024 4.1, fide-2000 4.11: a tournament rated in parts, each with its period.
            "parts_rule": part_selectors.tournament_parts_rule(tournament=tournament),
            "parts": part_selectors.tournament_parts(tournament=tournament),
        },
    )
