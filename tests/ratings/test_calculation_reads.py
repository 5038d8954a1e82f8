"""The bulk path reads only the players a period can change (issue 27 item 2): those of its
games, those its calendar changes (fide-2024 7.2.2 a inactivity, 7.2.1 the floor, a status the
regulation does not keep) and, on a re-run, those its published run touched. The list it
publishes is the engine path's, which reads every player."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings

from core.pg.copy import copy_out_ints
from periods import services as period_services
from rating_engine.registry import get_regulation
from ratings.calculation import runs
from ratings.calculation.bulk_path import players_sql_build
from ratings.calculation.rulesets import period_ruleset_in_force
from ratings.models import DraftResult, ListEntry, PlayerRating
from ratings.publication import services as publication
from tests.factories import (
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import Game, TournamentPlayer

pytestmark = pytest.mark.django_db

ENTRY_FIELDS = (
    "player_id",
    "rating",
    "change",
    "games",
    "total_games",
    "status",
    "inactive",
    "provisional",
)


def _world():
    """A period with two games between rated players and one against an unrated player, and
    players without a game in every state the calendar may or may not change."""
    system = make_system()
    period = make_period(system)
    arbiter = make_user()

    def rated(rating, **state):
        p = make_player(birth_year=1980)
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=rating,
            games=state.pop("games", 100),
            kind=state.pop("kind", "effective"),
            **state,
        )
        return p

    playing = [rated(1900), rated(2000), rated(2100)]
    newcomer = make_player(birth_year=2000)
    idle = {
        # 7.2.2 a: no rated game since more than a year: becomes inactive (read).
        "stale": rated(1800, last_game_date=dt.date(2025, 6, 1)),
        # Already inactive: stays so, nothing changes (not read).
        "inactive": rated(1850, activity="inactive", last_game_date=dt.date(2024, 3, 1)),
        # Played in the year: nothing changes (not read).
        "recent": rated(1950, last_game_date=dt.date(2026, 9, 20)),
        # 7.2.1: under the floor, leaves the list (read).
        "low": rated(1350, last_game_date=dt.date(2026, 9, 20)),
        # A status fide-2024 does not give: decided again (read).
        "provisional": rated(1700, kind="provisional", last_game_date=dt.date(2026, 9, 20)),
    }
    unrated_idle = make_player(birth_year=1995)
    PlayerRating.objects.create(player=unrated_idle, system=system, rating=None, games=0)
    t = make_tournament(system, arbiter, status="validated", period=period)
    tp = [
        TournamentPlayer.objects.create(tournament=t, player=p, start_rank=n + 1, name=str(p))
        for n, p in enumerate([*playing, newcomer])
    ]
    make_game(t, tp[0], tp[1], "1-0")
    make_game(t, tp[1], tp[2], "1/2-1/2", round=2)
    make_game(t, tp[2], tp[3], "0-1", round=3)
    return system, period, t, playing, newcomer, idle, unrated_idle


def _read_ids(period) -> set[int]:
    in_force = period_ruleset_in_force(period=period)
    changes = get_regulation(in_force.ruleset).calendar_changes(period.end, in_force.parameters)
    return set(copy_out_ints(players_sql_build(period=period, changes=changes), 10)[:, 0].tolist())


def _calculate(period, capture, *, bulk):
    with (
        override_settings(RATINGS_BULK_MIN_GAMES=0 if bulk else 10**9),
        capture(execute=True),
    ):
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.method == ("bulk" if bulk else "engine"), run.error
    return run


def _entries(published):
    return {
        e[0]: e
        for e in ListEntry.objects.filter(published_list=published).values_list(*ENTRY_FIELDS)
    }


def test_the_bulk_path_reads_the_players_of_the_games_and_of_the_calendar() -> None:
    system, period, _t, playing, newcomer, idle, unrated_idle = _world()
    ids = _read_ids(period)
    expected = {p.pk for p in playing} | {newcomer.pk}
    expected |= {idle[k].pk for k in ("stale", "low", "provisional")}
    assert ids == expected
    # The regulation the registry names for the period decides it, with its articles.
    changes = get_regulation(system.ruleset).calendar_changes(period.end, {})
    assert changes is not None
    assert changes.inactive_on_or_before is not None
    assert changes.inactive_on_or_before.article == "fide-2024 7.2.2 a"
    assert changes.inactive_on_or_before.value == dt.date(2025, 11, 30)
    assert changes.below_floor is not None and changes.below_floor.value == 1400


def test_a_regulation_that_cannot_say_has_every_player_read() -> None:
    system, period, _t, playing, newcomer, idle, unrated_idle = _world()
    everyone = {p.pk for p in playing} | {p.pk for p in idle.values()}
    everyone |= {newcomer.pk, unrated_idle.pk}
    assert set(copy_out_ints(players_sql_build(period=period), 10)[:, 0].tolist()) == everyone


def test_the_list_published_from_the_narrow_read_is_the_engine_paths(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, t, playing, newcomer, idle, unrated_idle = _world()
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
    first_run = _calculate(period, django_capture_on_commit_callbacks, bulk=True)
    v1 = publication.list_publish(period=period)
    # A correction, calculated again on the bulk path from the state before the period (a
    # re-run also reads the players the first run touched); then again on the engine path.
    Game.objects.filter(tournament=t, round=1).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    bulk_run = _calculate(period, django_capture_on_commit_callbacks, bulk=True)
    v2 = publication.list_publish(period=period, note="correction, bulk")
    engine_run = _calculate(period, django_capture_on_commit_callbacks, bulk=False)
    v3 = publication.list_publish(period=period, note="correction, engine")
    e1, e2, e3 = _entries(v1), _entries(v2), _entries(v3)
    # The one difference between the paths, older than the narrow read: the engine path lists
    # an unrated player without a game (a draft row for every player), the bulk path not.
    assert e3.pop(unrated_idle.pk)[1] is None and unrated_idle.pk not in e2
    assert unrated_idle.pk not in e1
    assert e2 == e3
    assert e1.keys() == e2.keys()
    assert e1[playing[0].pk][1] != e2[playing[0].pk][1]  # the correction changed him
    assert e2[idle["stale"].pk][5:7] == ("inactive", True)
    assert e2[idle["low"].pk][5] == "out_of_list"
    assert e2[idle["recent"].pk] == e1[idle["recent"].pk]
    # Only the changed players have a row in the bulk draft; the engine writes everyone's.
    for run in (first_run, bulk_run):
        rows = set(DraftResult.objects.filter(run=run).values_list("player_id", flat=True))
        assert idle["recent"].pk not in rows and idle["inactive"].pk not in rows
        assert {idle["stale"].pk, idle["low"].pk, idle["provisional"].pk} <= rows
    # K too where the bulk path wrote the entry (a carried entry has none; the engine path
    # writes every player's K).
    k = {
        v: dict(ListEntry.objects.filter(published_list=v).values_list("player_id", "k"))
        for v in (v2, v3)
    }
    assert {p: k[v2][p] for p in rows} == {p: k[v3][p] for p in rows}
    assert DraftResult.objects.filter(run=engine_run, player=idle["recent"]).exists()
