"""The officer's reads and writes: what a period contains, the summaries shown before close,
calculate and publish, the review totals, the draft of a new player, and a game
corrected from the officer's pages (audit trail, recalculation flag). The desk: tests/desk/."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from pghistory.models import Context

from core.errors import Refused
from core.roles import ARBITER, RATING_OFFICER
from periods.models import PeriodStatus
from ratings.calculation import selectors as calculation_selectors
from ratings.models import DraftResult
from ratings.office import selectors, services
from ratings.publication import services as publication
from ratings.views import office as office_views
from tests.factories import (
    build,
    calculate,
    make_game,
    make_player,
    make_tournament,
    make_user,
)
from tournaments.models import Game, GameKind, TournamentPlayer, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def calc(django_capture_on_commit_callbacks):
    """calc(period): close (if open) and calculate, the eager task run on commit."""

    def _calc(period):
        with django_capture_on_commit_callbacks(execute=True):
            run = calculate(period)
        run.refresh_from_db()
        return run

    return _calc


def _forfeit_only_tournament(system, period, players):
    """A validated tournament whose one game is a forfeit: left out, no rated line."""
    t = make_tournament(system, make_user(), status="validated", period=period)
    a, b = (
        TournamentPlayer.objects.create(tournament=t, player=p, start_rank=i + 1, name=str(p))
        for i, p in enumerate(players[:2])
    )
    make_game(t, a, b, "-+", kind="forfeit")
    return t


def test_period_contents_groups_by_status_and_counts_games_and_players() -> None:
    system, period, players, validated = build()
    waiting = make_tournament(system, make_user(), status="report_received", period=period)
    make_tournament(system, make_user(), status="registered", period=period)
    contents = selectors.period_contents(period=period)
    assert [g.status for g in contents.groups] == ["registered", "report_received", "validated"]
    assert [line.tournament for line in contents.included] == [validated]
    assert contents.included_games == 3 and contents.included_players == 4
    assert waiting in [line.tournament for line in contents.left_out]
    assert len(contents.left_out) == 2 and contents.games == 3


def test_period_contents_kept_for_every_language_names_each_status_in_the_pages_language() -> None:
    """The contents are cached for every language: a group's status is named when shown."""
    system, period, _players, _validated = build()
    make_tournament(system, make_user(), status="registered", period=period)
    with translation.override("en"):
        contents = selectors.period_contents(period=period)
        assert contents.groups[0].label == "Registered"
    with translation.override("es"):
        assert contents.groups[0].label == "Inscrito"
        assert contents.groups[0].label == str(TournamentStatus.REGISTERED.label)


def test_close_summary_says_how_early_and_lists_what_is_left_out() -> None:
    system, period, _players, _validated = build()  # November 2026, closing on the 27th
    waiting = make_tournament(
        system,
        make_user(),
        status="report_received",
        period=period,
        start_date=dt.date(2026, 11, 10),
        end_date=dt.date(2026, 11, 12),
    )
    running = make_tournament(
        system,
        make_user(),
        status="registered",
        period=period,
        start_date=dt.date(2026, 11, 22),
        end_date=dt.date(2026, 11, 26),
    )
    summary = selectors.period_close_summary(period=period, today=dt.date(2026, 11, 23))
    assert summary.days_early == (period.closing_date - dt.date(2026, 11, 23)).days > 0
    assert [x.tournament for x in summary.waiting] == [waiting]
    assert [x.tournament for x in summary.unreported] == [running]
    assert running in [x.tournament for x in summary.running]
    assert waiting not in [x.tournament for x in summary.running]
    late = selectors.period_close_summary(period=period, today=period.closing_date)
    assert late.days_early == 0


def test_the_close_page_shows_the_summary_and_closes_only_when_confirmed(client) -> None:
    system, period, _players, _validated = build()
    make_tournament(system, make_user(), status="report_received", period=period, name="Late")
    client.force_login(make_user("officer", role=RATING_OFFICER))
    url = reverse("ratings:period_close", args=[period.pk])
    page = client.get(url).content.decode()
    assert "Late" in page and 'id="left-out"' in page
    client.post(url, {})  # no confirmation: nothing happens
    period.refresh_from_db()
    assert period.status == PeriodStatus.OPEN
    client.post(url, {"confirm": "1"})
    period.refresh_from_db()
    assert period.status == PeriodStatus.CLOSED


def test_the_close_page_says_a_tournament_without_report_has_none(client) -> None:
    system, period, _players, _validated = build()
    make_tournament(system, make_user(), status="registered", period=period, name="Unreported")
    client.force_login(make_user("officer", role=RATING_OFFICER))
    page = client.get(reverse("ratings:period_close", args=[period.pk])).content.decode()
    assert "Unreported" in page and "no report yet" in page
    assert "in the report, not validated" not in page


def test_a_large_status_group_shows_its_totals_and_its_tournaments_a_page_at_a_time(
    client, monkeypatch
) -> None:
    """The close and calculate pages of a month of a thousand tournaments list a large status
    group's tournaments on pages of their own (?group=), not all at once; the names of the
    reports waiting are cut after 20."""
    monkeypatch.setattr(office_views, "CONTENTS_LINES_MAX", 2)
    monkeypatch.setattr(office_views, "GROUP_PAGE_SIZE", 2)
    system, period, _players, _validated = build()
    waiting = [
        make_tournament(
            system, make_user(), status="report_received", period=period, name=f"Waiting {n:02d}"
        )
        for n in range(22)
    ]
    client.force_login(make_user("officer", role=RATING_OFFICER))
    url = reverse("ratings:period_close", args=[period.pk])
    page = client.get(url).content.decode()
    group = page[page.index('data-status="report_received"') :]
    group = group[: group.index("</tbody>")]
    assert "Waiting" not in group and f'href="{url}?group=report_received#group-lines"' in group
    assert "List its 22 tournaments" in group
    assert 'id="group-lines"' not in page
    assert "and 2 more (in the table below)." in page  # the left-out names: 20 shown
    # The validated group (one tournament) is listed as before.
    assert _validated.name in page
    second = client.get(url, {"group": "report_received", "page": "2"})
    shown = [line.tournament for line in second.context["group_page"]]
    assert shown == sorted(waiting, key=lambda t: (t.end_date, t.name, t.pk))[2:4]
    assert 'id="group-lines"' in second.content.decode()
    assert "Page 2 of 11" in second.content.decode()
    assert client.get(url, {"group": "nonsense"}).context.get("group_page") is None
    calculate = reverse("ratings:period_calculate", args=[period.pk])
    assert (
        f'href="{calculate}?group=report_received#group-lines"'
        in client.get(calculate).content.decode()
    )


def test_review_totals_add_up_with_a_tournament_whose_games_are_all_left_out(calc) -> None:
    system, period, players, validated = build()
    forfeits = _forfeit_only_tournament(system, period, players)
    run = calc(period)
    rows = calculation_selectors.draft_changes_by_tournament(run=run)
    by_id = {r["tournament_id"]: r for r in rows}
    assert set(by_id) == {validated.pk, forfeits.pk}
    assert by_id[forfeits.pk]["lines"] == 0 and by_id[forfeits.pk]["excluded"] == 1
    assert sum(r["excluded"] for r in rows) == run.excluded_count == 2
    assert sum(r["lines"] for r in rows) == run.game_count
    reasons = calculation_selectors.draft_excluded_reasons(run=run)
    assert sum(x["n"] for x in reasons) == 2


@pytest.mark.django_db(transaction=True)
def test_calculate_summary_and_queued_message_not_shown_for_a_finished_run(client) -> None:
    system, period, _players, _validated = build()
    make_tournament(system, make_user(), status="report_received", period=period)
    summary = selectors.period_calculate_summary(period=period)
    assert len(summary.contents.included) == 1 and len(summary.contents.left_out) == 1
    assert summary.draft is None and summary.active is None
    client.force_login(make_user("officer", role=RATING_OFFICER))
    client.post(reverse("ratings:period_close", args=[period.pk]), {"confirm": "1"})
    response = client.post(
        reverse("ratings:period_calculate", args=[period.pk]), {"confirm": "1"}, follow=True
    )
    page = response.content.decode()
    assert 'data-status="succeeded"' in page  # eager: the run is over when the page shows
    assert "The calculation has been queued." not in page


def test_publish_summary_counts_the_draft(calc) -> None:
    _system, period, players, _validated = build()
    run = calc(period)
    summary = selectors.period_publish_summary(period=period)
    assert summary.run == run and summary.version == 1
    assert summary.players == 4  # three rated players and the unrated one
    # Only the win moves ratings: an unrated opponent does not count for the rated player, and a
    # forfeit is not rated.
    assert summary.changed == 2
    assert summary.games_left_out == 1  # the forfeit
    publication.list_publish(period=period)
    assert selectors.period_publish_summary(period=period).run is None  # nothing new to publish


def test_an_unrated_players_games_are_listed_not_contradicted(client, calc) -> None:
    _system, period, players, _validated = build()
    calc(period)
    client.force_login(make_user("officer", role=RATING_OFFICER))
    page = client.get(
        reverse("ratings:review_player", args=[period.pk, players[3].pk])
    ).content.decode()
    assert 'id="pooled"' in page and 'id="unrated-explained"' in page
    assert "No rated games." not in page and "Expected" not in page
    assert str(players[2]) in page  # his opponent, rated 2200
    assert "2200" in page


def test_game_correction_is_audited_and_marks_the_period(calc) -> None:
    _system, period, _players, tournament = build()
    calc(period)
    publication.list_publish(period=period)
    officer = make_user("officer", role=RATING_OFFICER)
    game = tournament.games.get(result="1-0")
    services.game_correct(game=game, result="1/2-1/2", reason="Scoresheet says draw", user=officer)
    game.refresh_from_db()
    assert (game.result, game.kind) == ("1/2-1/2", GameKind.PLAYED)
    assert (game.white_score, game.black_score) == (Decimal("0.5"), Decimal("0.5"))
    period.refresh_from_db()
    assert period.needs_recalculation
    [event] = Game.pgh_event_model.objects.filter(pgh_obj_id=game.pk)  # type: ignore[attr-defined]
    metadata = Context.objects.get(pk=event.pgh_context_id).metadata
    assert metadata["user"] == officer.pk and metadata["reason"] == "Scoresheet says draw"
    # The next calculation takes the corrected game and clears the mark.
    calc(period)
    period.refresh_from_db()
    assert not period.needs_recalculation


def test_game_correction_refusals() -> None:
    _system, period, _players, tournament = build()
    officer = make_user("officer", role=RATING_OFFICER)
    game = tournament.games.get(result="1-0")
    with pytest.raises(PermissionDenied):
        services.game_correct(
            game=game, result="0-1", reason="x", user=make_user("arb", role=ARBITER)
        )
    with pytest.raises(Refused):
        services.game_correct(game=game, result="1-0", reason="same", user=officer)
    with pytest.raises(Refused):
        services.game_correct(game=game, result="0-1", reason="  ", user=officer)
    with pytest.raises(Refused):
        services.game_correct(game=game, result="bye", reason="x", user=officer)
    period.refresh_from_db()
    assert not period.needs_recalculation
    assert tournament.games.get(pk=game.pk).result == "1-0"


def test_draft_list_of_a_period_never_calculated_is_an_empty_page(client) -> None:
    """No run: an empty list (the estimated-count paginator counts Django's empty queryset)."""
    _system, period, _players, _validated = build()
    client.force_login(make_user("officer", role=RATING_OFFICER))
    response = client.get(reverse("ratings:draft_list", args=[period.pk]))
    assert response.status_code == 200
    assert response.context["page"].paginator.count == 0


def test_draft_list_filters_and_pages(client, calc) -> None:
    _system, period, players, _validated = build()
    calc(period)
    client.force_login(make_user("officer", role=RATING_OFFICER))
    url = reverse("ratings:draft_list", args=[period.pk])
    page = client.get(url).content.decode()
    assert all(p.fed_id in page for p in players)
    only = client.get(url, {"q": players[0].fed_id}).content.decode()
    assert players[0].fed_id in only and players[1].fed_id not in only
    changed = client.get(url, {"changed": "on"}).context["page"]
    assert {r.player_id for r in changed} == {players[0].pk, players[1].pk}
    make_player()  # not in the draft: never listed
    assert client.get(url, {"page": "9"}).context["page"].number == 1


def test_draft_list_finds_a_name_as_the_list_page_does(client, calc) -> None:
    """The name's words in any order, accents and case ignored (the folded name, which the
    registry's trigram index serves), or the federation ID exactly."""
    _system, period, players, _validated = build()
    players[0].surname, players[0].given_name = "García Núñez", "José"
    players[0].save()
    players[1].surname = "Garcés"
    players[1].save()
    calc(period)
    client.force_login(make_user("officer", role=RATING_OFFICER))
    url = reverse("ratings:draft_list", args=[period.pk])

    def found(q):
        return {r.player_id for r in client.get(url, {"q": q}).context["page"]}

    assert found("jose garcia") == {players[0].pk}
    assert found("NUNEZ") == {players[0].pk}
    assert found("garc") == {players[0].pk, players[1].pk}
    assert found(players[1].fed_id) == {players[1].pk}
    assert found("nobody") == set()


def test_a_tournaments_games_a_page_at_a_time_and_a_correction_returns_to_its_page(
    client, calc, monkeypatch
) -> None:
    """The officer's games page shows GAMES_PAGE_SIZE games a page (a Swiss open has
    thousands), in round order; after a correction the officer is back on the game's page."""
    monkeypatch.setattr(selectors, "GAMES_PAGE_SIZE", 1)
    _system, period, _players, tournament = build()
    calc(period)
    publication.list_publish(period=period)
    client.force_login(make_user("officer", role=RATING_OFFICER))
    url = reverse("ratings:tournament_games", args=[tournament.pk])
    in_order = list(tournament.games.order_by("round", "id"))
    shown = [[g.pk for g in client.get(url, {"page": n}).context["page"]] for n in (1, 2, 3)]
    assert shown == [[g.pk] for g in in_order]
    page = client.get(url, {"page": 2}).content.decode()
    assert "3 games" in page and 'rel="next" href="?page=3"' in page
    draw = tournament.games.get(result="1/2-1/2")
    response = client.post(
        reverse("ratings:game_correct", args=[draw.pk]),
        {"result": "1-0", "reason": "Scoresheet says white won"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{url}?page={in_order.index(draw) + 1}"


def test_the_draft_pages_read_a_run_by_rating(client, calc) -> None:
    """The draft list and the review of statuses by rating, highest first, unrated last, then
    federation order, as the published list (served by the run's rating index,
    DraftResult.Meta.indexes)."""
    _system, period, _players, _validated = build()
    run = calc(period)
    client.force_login(make_user("officer", role=RATING_OFFICER))

    def key(r):
        return (r.rating_after is None, -(r.rating_after or 0), r.player_id)

    rows = list(client.get(reverse("ratings:draft_list", args=[period.pk])).context["page"])
    assert len(rows) == DraftResult.objects.filter(run=run).count() > 2
    assert rows == sorted(rows, key=key)
    # Every player's status "changes" (each had another before): all are on the review.
    DraftResult.objects.filter(run=run).update(previous_status="inactive")
    statuses = client.get(reverse("ratings:review_statuses", args=[period.pk])).context["page"]
    assert len(statuses) == len(rows) and list(statuses) == sorted(statuses, key=key)
