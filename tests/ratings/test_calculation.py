"""Calculation and publication through the services (PostgreSQL, eager Celery)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings

from core.errors import Refused
from core.jobs import JobStatus
from core.roles import RATING_OFFICER
from periods import services as period_services
from periods.models import PeriodStatus
from rating_engine import ENGINE_VERSION
from ratings.calculation import bulk_rows, draft, runs
from ratings.calculation import selectors as calculation_selectors
from ratings.lists import selectors as list_selectors
from ratings.models import (
    CalculationRun,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    ListEntry,
    PlayerRating,
)
from ratings.publication import services as publication
from tests.factories import (
    build,
    make_game,
    make_period,
    make_player,
    make_published,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import Game, TournamentPlayer

pytestmark = pytest.mark.django_db


def test_calculate_writes_a_draft_with_ruleset_and_engine_version(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, tournament = build()
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert (run.ruleset, run.engine_version, run.progress) == ("fide-2024", ENGINE_VERSION, 100)
    rows = {r.player_id: r for r in DraftResult.objects.filter(run=run)}
    assert set(rows) == {p.pk for p in players}
    a, b = rows[players[0].pk], rows[players[1].pk]
    # fide-2024: 2000 beats 2100, D = -100 -> expected 0.36 (table 8.1.2), K = 20 -> +12.8 -> +13.
    assert (a.rating_before, a.rating_after, a.change, a.k, a.games) == (2000, 2013, 13, 20, 1)
    assert (b.rating_after, b.change) == (2087, -13)
    assert {r.ruleset for r in rows.values()} == {"fide-2024"}
    assert {r.engine_version for r in rows.values()} == {ENGINE_VERSION}
    lines = calculation_selectors.draft_player(run=run, player_id=players[0].pk)["lines"]
    assert [(g.opponent, g.opponent_rating, g.score, g.expected, g.change, g.k) for g in lines] == [
        (players[1], 2100, 1.0, 0.36, 12.8, 20)
    ]
    (packed,) = DraftTournament.objects.filter(run=run)
    assert (packed.line_count, packed.player_count, packed.ruleset) == (2, 2, "fide-2024")
    assert (
        DraftExcluded.objects.filter(run=run, code="forfeit", article="fide-2024 5.1").count() == 1
    )
    period.refresh_from_db()
    assert period.status == PeriodStatus.CALCULATED
    tournament.refresh_from_db()
    assert tournament.status == "rated"


def test_recalculate_replaces_the_draft_and_publish_makes_an_immutable_version(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, tournament = build()
    officer = make_user(role=RATING_OFFICER)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        first = runs.calculation_request(period=period, user=officer)
    with django_capture_on_commit_callbacks(execute=True):
        second = runs.calculation_request(period=period, user=officer)
    assert not DraftResult.objects.filter(run=first).exists()
    assert DraftResult.objects.filter(run=second).count() == 4
    published = publication.list_publish(period=period, user=officer)
    assert published.version == 1 and published.entry_count == 4
    entries = {e.player_id: e for e in ListEntry.objects.filter(published_list=published)}
    assert entries[players[0].pk].rating == 2013
    state = PlayerRating.objects.get(player=players[0], system=system)
    assert (state.rating, state.games, state.engine_version) == (2013, 51, ENGINE_VERSION)
    period.refresh_from_db()
    tournament.refresh_from_db()
    assert period.status == PeriodStatus.PUBLISHED and tournament.status == "published"
    nxt = system.periods.get(start=dt.date(2026, 12, 1))
    assert nxt.status == PeriodStatus.OPEN and nxt.end == dt.date(2026, 12, 31)
    # A correction: the game becomes a draw; recalculate and publish version 2 with a diff.
    Game.objects.filter(tournament=tournament, round=1, white__player=players[0]).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    with django_capture_on_commit_callbacks(execute=True):
        runs.calculation_request(period=period, user=officer)
    v2 = publication.list_publish(period=period, user=officer, note="correction")
    assert v2.version == 2
    assert ListEntry.objects.get(published_list=published, player=players[0]).rating == 2013
    previous, diff = list_selectors.list_diff(published=v2)
    assert previous == published
    changed = {d["player"].pk: (d["old_rating"], d["new_rating"]) for d in diff}
    # draw: 0.5 - 0.36 = 0.14 x 20 = 2.8 -> +3
    assert changed == {players[0].pk: (2013, 2003), players[1].pk: (2087, 2097)}
    # The correction opened no period: still exactly one open period, the one v1 opened.
    assert list(system.periods.filter(status=PeriodStatus.OPEN)) == [nxt]


def test_second_request_is_refused_while_a_run_is_active() -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    runs.calculation_request(period=period, enqueue=False)
    with pytest.raises(Refused, match="already"):
        runs.calculation_request(period=period, enqueue=False)
    assert CalculationRun.objects.filter(period=period).count() == 1


def test_an_open_period_cannot_be_calculated() -> None:
    system, period, players, tournament = build()
    with pytest.raises(Refused):
        runs.calculation_request(period=period, enqueue=False)


@pytest.mark.parametrize("ruleset", ["fide-2000", "feda-1996", "fce", "cnxc-2000"])
def test_other_regulations_go_through_rate_period(
    ruleset, django_capture_on_commit_callbacks
) -> None:
    cycle = {"fide-2000": "quarterly", "feda-1996": "semestral", "cnxc-2000": "semestral"}.get(
        ruleset, "monthly"
    )
    system, period, players, tournament = build(ruleset, cycle=cycle)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert run.method == "engine" and run.ruleset == ruleset
    assert DraftResult.objects.filter(run=run).count() == 4


def test_bulk_path_agrees_with_rate_period(django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament = build()
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        engine = runs.calculation_request(period=period)
    with (
        override_settings(RATINGS_BULK_MIN_GAMES=0),
        django_capture_on_commit_callbacks(execute=True),
    ):
        bulk = runs.calculation_request(period=period)
    bulk.refresh_from_db()
    assert bulk.method == "bulk", bulk.error
    got = set(
        DraftResult.objects.filter(run=bulk).values_list(
            "player_id", "rating_after", "change", "k", "games", "status"
        )
    )
    assert (players[0].pk, 2013, 13, 20, 1, "rated") in got
    assert (players[1].pk, 2087, -13, 20, 1, "rated") in got
    # The 2200 player's only game was against an unrated player: untouched, no draft row (the
    # publication carries his entry over unchanged).
    assert len(got) == 3 and (players[3].pk, None, 0, None, 1, "unrated") in got
    published = publication.list_publish(period=period)
    entries = dict(
        ListEntry.objects.filter(published_list=published).values_list("player_id", "rating")
    )
    assert entries == {
        players[0].pk: 2013,
        players[1].pk: 2087,
        players[2].pk: 2200,
        players[3].pk: None,
    }
    assert published.entry_count == 4
    assert DraftTournament.objects.get(run=bulk).line_count == 2
    lines = calculation_selectors.draft_player(run=bulk, player_id=players[1].pk)["lines"]
    assert [(g.opponent, g.opponent_rating, g.score, g.expected, g.change, g.k) for g in lines] == [
        (players[0], 2000, 0.0, 0.64, -12.8, 20)
    ]
    assert DraftExcluded.objects.filter(run=bulk, code="forfeit").count() == 1
    del engine


def test_bulk_path_correction_restarts_from_the_state_before_the_period(
    django_capture_on_commit_callbacks,
) -> None:
    with override_settings(RATINGS_BULK_MIN_GAMES=0):
        _bulk_correction(django_capture_on_commit_callbacks)


def _bulk_correction(django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament, v1 = make_published(django_capture_on_commit_callbacks)
    assert PlayerRating.objects.get(player=players[0], system=system).rating == 2013
    Game.objects.filter(tournament=tournament, round=1, white__player=players[0]).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    with django_capture_on_commit_callbacks(execute=True):
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.method == "bulk"
    v2 = publication.list_publish(period=period, note="correction")
    entries = dict(ListEntry.objects.filter(published_list=v2).values_list("player_id", "rating"))
    # From 2000 and 2100 again (not from 2013/2087): a draw, +3 / -3; the 2200 player carried over.
    assert entries == {
        players[0].pk: 2003,
        players[1].pk: 2097,
        players[2].pk: 2200,
        players[3].pk: None,
    }
    assert (v1.entry_count, v2.entry_count) == (4, 4)
    assert PlayerRating.objects.get(player=players[0], system=system).rating == 2003


@pytest.mark.parametrize(
    "value",
    [
        "x",
        3,
        2.5,
        True,
        None,
        dt.date(2026, 3, 1),
        [1, dt.date(2026, 1, 2), ("a", 2)],
        {"k": dt.date(2026, 1, 1), 3: [None]},
        ("t1", "t2"),
    ],
)
def test_notes_params_stored_as_json_would_write_them(value) -> None:
    """Decision parameters go into a JSON column as json.dumps(default=str) writes them
    (without the text round trip)."""
    import json

    from core.messages import json_ready

    assert json_ready(value) == json.loads(json.dumps(value, default=str))


def test_bulk_game_lines_packed_like_the_engine_paths_lines() -> None:
    """The bulk path writes both sides of each game straight into the packed per-tournament
    array; the result equals packing the white lines then the black lines of every game with
    the general packer (several tournaments, games out of tournament order)."""
    from types import SimpleNamespace

    import numpy as np

    rng = np.random.default_rng(7)
    n, players = 400, 60
    pid = np.arange(1, players + 1, dtype=np.int64) * 10
    rating = rng.integers(1400, 2700, players)
    w = rng.integers(0, players, n)
    b = (w + rng.integers(1, players, n)) % players
    ws2 = rng.integers(0, 3, n)
    t = rng.choice(np.array([900, 5, 77, 31, 400]), n)
    out = SimpleNamespace(
        white_expected_milli=rng.integers(0, 1001, n), k=rng.choice(np.array([10, 20, 40]), players)
    )
    e, kw, kb = out.white_expected_milli, out.k[w], out.k[b]
    reference = draft.tournament_rows(
        t=np.concatenate([t, t]),
        player=np.concatenate([pid[w], pid[b]]),
        opponent=np.concatenate([pid[b], pid[w]]),
        opponent_rating=np.concatenate([rating[b], rating[w]]),
        score2=np.concatenate([ws2, 2 - ws2]),
        k=np.concatenate([kw, kb]),
        expected=np.concatenate([e, 1000 - e]) / 1000,
        change=np.concatenate([kw * (ws2 * 500 - e), kb * (e - ws2 * 500)]) / 1000,
    )
    got = bulk_rows.bulk_tournament_rows(w=w, b=b, ws2=ws2, t=t, pid=pid, rating=rating, out=out)
    assert [r[0] for r in got] == [5, 31, 77, 400, 900]
    assert sum(r[2] for r in got) == 2 * n
    for mine, ref in zip(got, reference, strict=True):
        assert bytes(mine[1]) == bytes(ref[1])
        assert mine[0] == ref[0] and mine[2:] == pytest.approx(ref[2:])
    # Distinct players per tournament, counted directly.
    for row in got:
        in_t = t == row[0]
        assert row[3] == len(set(pid[w[in_t]].tolist()) | set(pid[b[in_t]].tolist()))


def _late_report_after_first_list():
    """December 2026 (list of 1 January 2027). U (1800) was first rated in the list of
    1 December 2026. A late report of a tournament that ended on 20 November (before that
    list) has U beating A; a December tournament has U beating B."""
    system = make_system()
    period = make_period(system, dt.date(2026, 12, 1))
    arbiter = make_user()
    a, b, u = (make_player(birth_year=1980) for _ in range(3))
    for p, r in ((a, 2000), (b, 2100)):
        PlayerRating.objects.create(player=p, system=system, rating=r, games=50, kind="effective")
    PlayerRating.objects.create(
        player=u,
        system=system,
        rating=1800,
        games=50,
        kind="effective",
        rated_since=dt.date(2026, 12, 1),
    )
    late = make_tournament(
        system,
        arbiter,
        status="validated",
        period=period,
        start_date=dt.date(2026, 11, 14),
        end_date=dt.date(2026, 11, 20),
    )
    december = make_tournament(
        system,
        arbiter,
        status="validated",
        period=period,
        start_date=dt.date(2026, 12, 5),
        end_date=dt.date(2026, 12, 10),
    )
    for t, opponent in ((late, a), (december, b)):
        tu = TournamentPlayer.objects.create(tournament=t, player=u, start_rank=1, name=str(u))
        to = TournamentPlayer.objects.create(
            tournament=t, player=opponent, start_rank=2, name=str(opponent)
        )
        make_game(t, tu, to)
    return system, period, (a, b, u), late


@pytest.mark.parametrize("bulk", [False, True])
def test_8_2_4_rated_for_himself_unrated_for_his_opponents(
    django_capture_on_commit_callbacks, bulk
) -> None:
    """fide-2024 8.2.4: U's game of the tournament that ended before his first list counts for
    him but not for his opponent A; the December game counts for both. The engine path and
    the PostgreSQL bulk path apply it alike."""
    system, period, (a, b, u), late = _late_report_after_first_list()
    with (
        override_settings(RATINGS_BULK_MIN_GAMES=0 if bulk else 10**9),
        django_capture_on_commit_callbacks(execute=True),
    ):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert run.method == ("bulk" if bulk else "engine")
    rows = {r.player_id: r for r in DraftResult.objects.filter(run=run)}
    assert rows[u.pk].games == 2  # both his games count for him
    assert rows[b.pk].games == 1
    assert a.pk not in rows or (rows[a.pk].games, rows[a.pk].change) == (
        0,
        0,
    )  # U was unrated for A
    assert "rated_after_first_list" in rows[u.pk].flags
    note = next(n for n in rows[u.pk].notes if n["code"] == "rated_after_first_list")
    assert note["article"] == "fide-2024 8.2.4" and note["params"] == {"tournament": str(late.pk)}
    # U's game lines: two; A has none.
    lines = calculation_selectors.draft_player(run=run, player_id=u.pk)["lines"]
    assert sorted(g.opponent_rating for g in lines) == [2000, 2100]
    assert calculation_selectors.draft_player(run=run, player_id=a.pk)["lines"] == []


def test_first_rating_publication_records_rated_since(django_capture_on_commit_callbacks) -> None:
    """A first rating published in a list is "rated since" that list's date; a rating that
    stays keeps its date (none, for one that came before the records)."""
    system = make_system()
    period = make_period(system)
    arbiter = make_user()
    rated = [make_player(birth_year=1980) for _ in range(5)]
    for i, p in enumerate(rated):
        PlayerRating.objects.create(
            player=p, system=system, rating=1900 + 20 * i, games=50, kind="effective"
        )
    newcomer = make_player(birth_year=1990)
    t = make_tournament(system, arbiter, status="validated", period=period)
    tn = TournamentPlayer.objects.create(
        tournament=t, player=newcomer, start_rank=1, name=str(newcomer)
    )
    for r, p in enumerate(rated, start=1):
        tp = TournamentPlayer.objects.create(tournament=t, player=p, start_rank=r + 1, name=str(p))
        make_game(t, tn, tp, "1/2-1/2", round=r)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    publication.list_publish(period=period)
    state = PlayerRating.objects.get(player=newcomer, system=system)
    assert state.rating is not None  # five draws against 1900-1980: a first rating (8.2.2)
    assert state.rated_since == period.list_date
    assert PlayerRating.objects.get(player=rated[0], system=system).rated_since is None


def test_bulk_path_explains_its_decisions_as_the_engine_does(
    django_capture_on_commit_callbacks,
) -> None:
    """The bulk path words its decisions with the engine's notes: the same flags, articles,
    templates and parameters as the engine path, for K lowered by the 700 rule (8.3.3), a
    rating below the floor (7.2.1), a player going inactive and one active again (7.2.2)."""
    system = make_system()
    period = make_period(system)
    arbiter = make_user()

    def rated(rating, games, **state):
        p = make_player(birth_year=1980)
        PlayerRating.objects.create(
            player=p, system=system, rating=rating, games=games, kind="effective", **state
        )
        return p

    opponents = [rated(1500, 100) for _ in range(18)]
    busy = rated(1600, 5)  # K 40 (under 30 games) x 18 games > 700
    sinking = rated(1410, 10)  # two losses at K 40: below 1400
    back = rated(1700, 100, activity="inactive", last_game_date=dt.date(2025, 1, 10))
    idle = rated(1800, 100, last_game_date=dt.date(2025, 6, 1))  # no game for over a year
    t = make_tournament(system, arbiter, status="validated", period=period)
    tp = {
        p.pk: TournamentPlayer.objects.create(tournament=t, player=p, start_rank=n + 1, name=str(p))
        for n, p in enumerate([*opponents, busy, sinking, back])
    }
    pairs = [(busy, o, "1/2-1/2") for o in opponents] + [
        (sinking, opponents[0], "0-1"),
        (sinking, opponents[1], "0-1"),
        (back, opponents[2], "1-0"),
    ]
    for r, (w, b, res) in enumerate(pairs, start=1):
        make_game(t, tp[w.pk], tp[b.pk], res, round=r)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
    drafts = {}
    for bulk in (False, True):
        with (
            override_settings(RATINGS_BULK_MIN_GAMES=0 if bulk else 10**9),
            django_capture_on_commit_callbacks(execute=True),
        ):
            run = runs.calculation_request(period=period)
        run.refresh_from_db()
        assert run.method == ("bulk" if bulk else "engine"), run.error
        drafts[bulk] = {d.player_id: d for d in DraftResult.objects.filter(run=run)}
    expected_flags = {
        busy.pk: ["k_700"],
        sinking.pk: ["below_floor"],
        back.pk: ["reactivated"],
        idle.pk: ["inactive"],
    }
    for pk, flags in expected_flags.items():
        engine, bulk_draft = drafts[False][pk], drafts[True][pk]
        assert engine.flags == flags and bulk_draft.flags == flags
        assert [n for n in engine.notes if n["code"] != "k"] == bulk_draft.notes
        assert (engine.rating_after, engine.change, engine.k, engine.status) == (
            bulk_draft.rating_after,
            bulk_draft.change,
            bulk_draft.k,
            bulk_draft.status,
        )
    assert drafts[True][busy.pk].k == 700 // 18
    assert drafts[True][idle.pk].notes[0]["params"] == {"last": "2025-06-01"}
