"""A re-run of a published period with no changed input gives the same draft and the same list
(issue 17 item 6): the state at the start of the period is read as it was then (the published
run's before-values, the after-state of the list in force), not from PlayerRating, which the
publication moved on. Both calculation paths."""

from __future__ import annotations

import datetime as dt

import pytest
from django.forms.models import model_to_dict
from django.test import override_settings

from periods import services as period_services
from periods.models import PeriodStatus
from ratings.calculation import runs
from ratings.models import (
    DraftExcluded,
    DraftResult,
    DraftTournament,
    PlayerRating,
)
from ratings.publication import services as publication
from tests import factories
from tournaments.models import Game, TournamentPlayer

pytestmark = pytest.mark.django_db

DECEMBER = {"start_date": dt.date(2026, 12, 5), "end_date": dt.date(2026, 12, 10)}


def game(t, white, black, result="1-0"):
    tps = []
    for p in (white, black):
        tp = TournamentPlayer.objects.filter(tournament=t, player=p).first()
        if tp is None:
            tp = TournamentPlayer.objects.create(
                tournament=t,
                player=p,
                name=str(p),
                start_rank=TournamentPlayer.objects.filter(tournament=t).count() + 1,
            )
        tps.append(tp)
    rnd = Game.objects.filter(tournament=t).count() + 1
    return factories.make_game(t, tps[0], tps[1], result, round=rnd)


def build():
    """November 2026: C (2390, never 2400) beats X (2390) and reaches 2400 (K 20, +10); the
    newcomer N draws five rated players and gets his first rating (8.2.2)."""
    system = factories.make_system()
    period = factories.make_period(system)
    arbiter = factories.make_user()
    c, x, n = (factories.make_player(birth_year=1980) for _ in range(3))
    rated = [factories.make_player(birth_year=1980) for _ in range(5)]
    for p, r in [(c, 2390), (x, 2390)] + [(p, 1900 + 20 * i) for i, p in enumerate(rated)]:
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=r,
            games=50,
            kind="effective",
            last_game_date=dt.date(2026, 6, 1),
        )
    t = factories.make_tournament(system, arbiter, status="validated", period=period)
    game(t, c, x)
    for p in rated:
        game(t, n, p, "1/2-1/2")
    return system, period, arbiter, (c, x, n, rated), t


def draft_rows(run):
    return {
        r.player_id: {k: v for k, v in model_to_dict(r).items() if k not in ("id", "run")}
        for r in DraftResult.objects.filter(run=run)
    }


def draft_lines(run):
    return {
        t.tournament_id: (
            bytes(t.lines),
            t.line_count,
            t.player_count,
            t.change_sum,
            t.change_max,
            t.change_min,
        )
        for t in DraftTournament.objects.filter(run=run)
    }


def excluded(run):
    return sorted(
        (e.tournament_id, e.white_key, e.black_key, e.round, e.code, e.article)
        for e in DraftExcluded.objects.filter(run=run)
    )


def entries(published):
    return {
        e.player_id: {
            k: v for k, v in model_to_dict(e).items() if k not in ("id", "published_list")
        }
        for e in published.entries.all()
    }


def calc(period, bulk, capture):
    """Calculate on the engine path or the bulk path; the run once the task has run."""
    with override_settings(RATINGS_BULK_MIN_GAMES=0 if bulk else 10**9), capture(execute=True):
        if period.status == PeriodStatus.OPEN:
            period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    return run


@pytest.mark.parametrize("bulk", [False, True])
def test_rerun_of_a_published_period_changes_nothing(
    django_capture_on_commit_callbacks, bulk
) -> None:
    system, period, _arbiter, (c, x, n, rated), _t = build()
    first = calc(period, bulk, django_capture_on_commit_callbacks)
    assert first.method == ("bulk" if bulk else "engine")
    v1 = publication.list_publish(period=period)
    row_c = DraftResult.objects.get(run=first, player=c)
    assert (row_c.rating_after, row_c.k, row_c.reached_2400, row_c.reached_2400_before) == (
        2400,
        20,
        True,
        False,
    )
    row_n = DraftResult.objects.get(run=first, player=n)
    assert row_n.rating_before is None and row_n.rating_after is not None  # his first rating
    # PlayerRating moved on: C has reached 2400, N is rated since this list.
    assert PlayerRating.objects.get(player=c, system=system).reached_2400
    assert PlayerRating.objects.get(player=n, system=system).rated_since == period.list_date

    again = calc(period, bulk, django_capture_on_commit_callbacks)
    assert again.status == "succeeded", again.error
    assert again.method == first.method
    assert draft_rows(again) == draft_rows(first)
    assert draft_lines(again) == draft_lines(first)
    assert excluded(again) == excluded(first)
    v2 = publication.list_publish(period=period, note="rerun")
    assert v2.version == 2
    assert entries(v2) == entries(v1)
    assert v2.entry_count == v1.entry_count


@pytest.mark.parametrize("bulk", [False, True])
def test_rerating_a_later_period_starts_from_the_corrected_one(
    django_capture_on_commit_callbacks, bulk
) -> None:
    """November is corrected after December was published: C's win becomes a draw, so he
    never reached 2400. December re-run starts from the corrected November: 2390 and K 20 (not
    PlayerRating's 2405 and K 10, nor the before-values of December's first run)."""
    system, nov, arbiter, (c, x, n, rated), t = build()
    calc(nov, bulk, django_capture_on_commit_callbacks)
    publication.list_publish(period=nov)
    dec = system.periods.get(start=dt.date(2026, 12, 1))
    t2 = factories.make_tournament(system, arbiter, status="validated", period=dec, **DECEMBER)
    game(t2, c, x)
    game(t2, n, rated[0], "1/2-1/2")
    dec_first = calc(dec, bulk, django_capture_on_commit_callbacks)
    publication.list_publish(period=dec)
    row = DraftResult.objects.get(run=dec_first, player=c)
    assert (row.rating_before, row.k, row.rating_after) == (2400, 10, 2405)  # 8.3.3: K 10 once 2400

    # The correction of November.
    Game.objects.filter(tournament=t, white__player=c).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    calc(nov, bulk, django_capture_on_commit_callbacks)
    publication.list_publish(period=nov, note="correction")
    dec.refresh_from_db()
    assert dec.needs_recalculation and dec.status == PeriodStatus.PUBLISHED
    assert PlayerRating.objects.get(
        player=c, system=system
    ).reached_2400  # untouched: December is later

    dec_again = calc(dec, bulk, django_capture_on_commit_callbacks)
    assert dec_again.status == "succeeded", dec_again.error
    row = DraftResult.objects.get(run=dec_again, player=c)
    assert (row.rating_before, row.reached_2400_before, row.k, row.rating_after) == (
        2390,
        False,
        20,
        2400,
    )
    # N's state as November left it (rated since its list), not changed by the correction.
    row_n = DraftResult.objects.get(run=dec_again, player=n)
    assert row_n.rating_before is not None and row_n.rated_since_before == nov.list_date
