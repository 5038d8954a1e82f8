"""The rating officer's pages: close / calculate / publish with a summary to confirm, the draft
list before publishing, and game corrections (the desk is desk/views.py). Thin: reads come from
ratings.office.selectors, writes from the services."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import F, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from core.errors import Refused
from core.pagination import EstimatedCountPaginator
from core.permissions import objectgetter, permission_required
from periods import services as period_services
from periods.models import RatingPeriod
from players.models import Player
from ratings.calculation import runs
from ratings.calculation import selectors as calculation_selectors
from ratings.forms import PublishForm
from ratings.lists.filters import name_condition, name_words
from ratings.models import DraftResult
from ratings.office import selectors
from ratings.office import services as office_services
from ratings.office.forms import DraftListFilter, GameCorrectionForm
from ratings.office.selectors import PeriodContents
from ratings.publication import services as publication
from tournaments.models import Game, Tournament

_period_object = objectgetter(RatingPeriod)

DRAFT_PAGE_SIZE = 50


def _period(pk: int) -> RatingPeriod:
    return get_object_or_404(RatingPeriod.objects.select_related("system"), pk=pk)


#: A status group of more tournaments shows its totals on the close and calculate pages, with a
#: link to its tournaments GROUP_PAGE_SIZE a page (?group=<status>): the open month of a
#: 500,000-player federation has 1,123 tournaments, a page of 426 KB (issue 29 item 4).
CONTENTS_LINES_MAX = 50
GROUP_PAGE_SIZE = 100


def _group_lines(request: HttpRequest, contents: PeriodContents) -> dict[str, Any]:
    """The status group asked for (?group=<status>) and the page of its tournaments asked for
    (?page=), for _period_group_lines.html; nothing when no group of the period has it."""
    status = request.GET.get("group")
    for group in contents.groups:
        if group.status == status:
            page = Paginator(group.lines, GROUP_PAGE_SIZE).get_page(request.GET.get("page"))
            return {"group": group, "group_page": page}
    return {}


def _confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


@permission_required("periods.manage_period", fn=_period_object)
def period_close(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what closing now includes and leaves out; POST with confirm=1: close."""
    period = _period(pk)
    if _confirmed(request):
        try:
            period_services.period_close(period=period)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("The period is closed."))
        return redirect("ratings:period", pk=period.pk)
    summary = selectors.period_close_summary(period=period)
    return render(
        request,
        "ratings/confirm_close.html",
        {
            "period": period,
            "summary": summary,
            "contents_ttl": selectors.CONTENTS_TTL,
            "lines_max": CONTENTS_LINES_MAX,
            **_group_lines(request, summary.contents),
        },
    )


@permission_required("periods.manage_period", fn=_period_object)
def period_calculate(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the tournaments the calculation takes and those it leaves out; POST with
    confirm=1: queue it."""
    period = _period(pk)
    if _confirmed(request):
        try:
            run = runs.calculation_request(period=period, user=request.user)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            run.refresh_from_db()
            # Eagerly run (no worker), it is already over: say so, not "queued".
            if not run.done:
                messages.success(request, _("The calculation has been queued."))
        return redirect("ratings:period", pk=period.pk)
    summary = selectors.period_calculate_summary(period=period)
    return render(
        request,
        "ratings/confirm_calculate.html",
        {
            "period": period,
            "summary": summary,
            "contents_ttl": selectors.CONTENTS_TTL,
            "lines_max": CONTENTS_LINES_MAX,
            **_group_lines(request, summary.contents),
        },
    )


@permission_required("ratings.publish_list", fn=_period_object)
def period_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what the list will contain; POST with confirm=1: publish it."""
    period = _period(pk)
    form = PublishForm(request.POST or None)
    if _confirmed(request):
        note = form.cleaned_data["note"] if form.is_valid() else ""
        try:
            published = publication.list_publish(period=period, user=request.user, note=note)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("ratings:period", pk=period.pk)
        messages.success(
            request, _("Version %(v)s of the list is published.") % {"v": published.version}
        )
        return redirect("ratings:list", pk=published.pk)
    return render(
        request,
        "ratings/confirm_publish.html",
        {
            "period": period,
            "summary": selectors.period_publish_summary(period=period),
            "published_already": publication.list_published_already(period=period),
            "form": form,
        },
    )


@permission_required("periods.manage_period", fn=_period_object)
def draft_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The list as it would be published: every player of the draft, filtered, a page at a
    time."""
    period = _period(pk)
    run = calculation_selectors.run_draft(period=period)
    form = DraftListFilter(request.GET or None)
    rows = DraftResult.objects.none()
    if run is not None:
        # The page's players are read apart (prefetch): the page's rows come from the run's
        # rating index alone (DraftResult.Meta.indexes) however far the page is.
        rows = DraftResult.objects.filter(run=run).prefetch_related("player")
        if form.is_valid():
            data = form.cleaned_data
            if data["q"]:
                rows = rows.filter(_draft_search(data["q"]))
            if data["status"]:
                rows = rows.filter(status=data["status"])
            if data["changed"]:
                rows = rows.exclude(change=0)
            if data["flagged"]:
                rows = rows.exclude(flags=[])
        # By rating, then federation order, as the published list shows them.
        rows = rows.order_by(F("rating_after").desc(nulls_last=True), "player_id")
    page = EstimatedCountPaginator(
        rows, DRAFT_PAGE_SIZE, exact_below=selectors.DRAFT_EXACT_COUNT_BELOW
    ).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "ratings/draft_list.html",
        {"period": period, "run": run, "form": form, "page": page, "query": query.urlencode()},
    )


#: A draft search finds its players first, then their drafts, when it finds at most this
#: many players; more, and the run's rating index finds a page of them soon enough.
DRAFT_SEARCH_PLAYERS_MAX = 5_000


def _draft_search(text: str) -> Q:
    """The drafts of a draft search: the federation ID typed, or every word of the name, in
    any order, accents and case ignored, as the list page's name filter reads it (the folded
    name, looked up in the registry's trigram index instead of scanning every player's
    surname and given name: issue 29 item 4). The players are found first: joined to the
    drafts, PostgreSQL walked the run's rating index row by row looking for them (0.5 s for
    "garcia" in a run of 100,000)."""
    by_id = Q(fed_id=text.strip())
    players = Player.objects.filter(
        name_condition(text=text, field="name_key") | by_id if name_words(text) else by_id
    )
    ids = list(players.order_by().values_list("id", flat=True)[: DRAFT_SEARCH_PLAYERS_MAX + 1])
    if len(ids) <= DRAFT_SEARCH_PLAYERS_MAX:
        return Q(player_id__in=ids)
    return Q(player__in=players)


def _tournament_period(request: HttpRequest, pk: int) -> RatingPeriod | None:
    tournament = get_object_or_404(Tournament, pk=pk)
    return tournament.period


def _game_period(request: HttpRequest, pk: int) -> RatingPeriod | None:
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=pk)
    return game.tournament.period


@permission_required("periods.manage_period", fn=_tournament_period)
def tournament_games(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament's games, each with a link to correct it (officers), a page at a time."""
    tournament = get_object_or_404(Tournament.objects.select_related("period__system"), pk=pk)
    games = selectors.tournament_games(tournament=tournament)
    page = Paginator(games, selectors.GAMES_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request, "ratings/tournament_games.html", {"tournament": tournament, "page": page}
    )


@permission_required("periods.manage_period", fn=_game_period)
def game_correct(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related("tournament__period", "white__player", "black__player"),
        pk=pk,
    )
    form = GameCorrectionForm(request.POST or None, initial={"result": game.result})
    if request.method == "POST" and form.is_valid():
        try:
            office_services.game_correct(
                game=game,
                result=form.cleaned_data["result"],
                reason=form.cleaned_data["reason"],
                user=request.user,
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _(
                    "The result is corrected and recorded in the history; the period is "
                    "marked for recalculation."
                ),
            )
            # Back to the page showing the game.
            games = reverse("ratings:tournament_games", args=[game.tournament_id])
            page = selectors.tournament_game_page(game=game)
            return redirect(f"{games}?page={page}" if page > 1 else games)
    return render(request, "ratings/game_correct.html", {"game": game, "form": form})
