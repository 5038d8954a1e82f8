"""Tournaments rated in parts (issue 23 item 1; docs/periods.md "Tournaments in parts"): a
fide-2024 round robin of 32 days (4.1: over 30 days, intermediate results monthly) across two
monthly periods ("October" and "November": the two months before this one, so the reports sent
today are within 9.1's deadline), uploaded as it stands at each closing date; worked by hand
from the text.

Four players rated 2000 (K 20, fide-2024 8.3.3). Part 1 (October): round 1, A–B 1-0, C–D ½.
Rated in October with the list in force at its start (2000 each): A +10, B −10, C and D 0, so
October's list has A 2010, B 1990, C 2000, D 2000. Part 2 (November): round 2, A–C 1-0,
B–D 0-1, rated with October's list (8.1, table: a difference of 10 gives 0.51 / 0.49): A
+20 × 0.49 = +9.8 → 2020, C −9.8 → 1990, B 1990 − 9.8 → 1980, D 2000 + 9.8 → 2010. The
round-1 games are not rated again in November."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from core import roles
from periods.models import PeriodStatus
from ratings.calculation import runs
from ratings.models import DraftTournament, ListEntry, PlayerRating
from ratings.office.selectors import period_contents
from ratings.publication import services as publication
from tests.factories import make_period, make_player, make_system, make_tournament, make_user
from tests.tournaments.test_flow import trf_line
from tournaments import part_selectors
from tournaments.models import Game, Tournament, TournamentPart
from tournaments.services import report_upload

pytestmark = pytest.mark.django_db

NAMES = ["Alba, Ana", "Bosch, Berta", "Coll, Carla", "Duran, Dora"]
FIDE_IDS = ["2400001", "2400002", "2400003", "2400004"]
#: Each player's cells by round (opponent rank, colour, result).
ROUNDS = [
    ["   2 w 1", "   1 b 0", "   4 w =", "   3 b ="],  # round 1: A–B 1-0, C–D ½
    ["   3 w 1", "   4 b 0", "   1 b 0", "   2 w 1"],  # round 2: A–C 1-0, B–D 0-1 (D White)
]


def trf(rounds: int, *, change_round_1: bool = False) -> bytes:
    """The report as it stands after ``rounds`` rounds (``change_round_1``: C–D 1-0 instead of
    the draw published in part 1)."""
    cells = [[ROUNDS[r][i] for r in range(rounds)] for i in range(4)]
    if change_round_1:
        cells[2][0], cells[3][0] = "   4 w 1", "   3 b 0"
    lines = ["012 Liga de otoño", "022 Girona", "032 ESP", "102 A. Arbiter", "XXR 2"]
    lines += [
        trf_line(i + 1, NAMES[i], cells[i], rating=2000, fide_id=FIDE_IDS[i]) for i in range(4)
    ]
    return ("\n".join(lines) + "\n").encode()


def month_start(day: dt.date, months_back: int) -> dt.date:
    """The first day of the month ``months_back`` months before ``day``'s."""
    y, m = day.year, day.month - months_back
    while m < 1:
        y, m = y - 1, m + 12
    return dt.date(y, m, 1)


@pytest.fixture
def league(django_capture_on_commit_callbacks):
    system = make_system(ruleset="fide-2024", rate_of_play="standard", cycle="monthly")
    first = month_start(timezone.localdate(), 2)
    october = make_period(system, start=first)
    november = make_period(system, start=month_start(first + dt.timedelta(days=40), 0))
    arbiter = make_user("parts-arbiter", role=roles.ARBITER)
    officer = make_user("parts-officer", role=roles.RATING_OFFICER)
    players = [
        make_player(
            surname=n.split(", ")[0], given_name=n.split(", ")[1], fide_id=int(f), birth_year=1990
        )
        for n, f in zip(NAMES, FIDE_IDS, strict=True)
    ]
    for p in players:
        PlayerRating.objects.create(
            player=p, system=system, rating=2000, games=50, kind="effective"
        )
    tournament = make_tournament(
        system,
        arbiter,
        name="Liga de otoño",
        rounds=2,
        start_date=first + dt.timedelta(days=19),
        end_date=first + dt.timedelta(days=50),  # 32 days
        base_minutes=90,
        increment_seconds=30,
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin",
        registered_at=timezone.now() - dt.timedelta(days=120),
    )
    tournament.refresh_from_db()
    return {
        "system": system,
        "october": october,
        "november": november,
        "arbiter": arbiter,
        "officer": officer,
        "players": players,
        "tournament": tournament,
        "capture": django_capture_on_commit_callbacks,
    }


def calculate_and_publish(w, period) -> None:
    with w["capture"](execute=True):
        from periods.services import period_close

        period_close(period=period)
        runs.calculation_request(period=period)
    publication.list_publish(period=period)


def ratings_in(period) -> dict[str, int]:
    return {
        e.player.surname: e.rating
        for e in ListEntry.objects.filter(published_list__period=period).select_related("player")
    }


def test_the_regulation_says_which_tournaments_go_in_parts(league) -> None:
    t = league["tournament"]
    rule = part_selectors.tournament_parts_rule(tournament=t)
    assert rule is not None and rule.article == "fide-2024 4.1"
    t.end_date = t.start_date + dt.timedelta(days=30)  # 31 days: still over 30
    assert part_selectors.tournament_parts_rule(tournament=t) is not None
    t.end_date = t.start_date + dt.timedelta(days=29)  # 30 days: rated whole
    assert part_selectors.tournament_parts_rule(tournament=t) is None


def test_long_round_robin_is_rated_month_by_month_each_game_once(league) -> None:
    w, t = league, league["tournament"]
    october, november = w["october"], w["november"]

    # Part 1: the report as it stands at October's closing date. Not refused for being sent
    # before the last day (report_before_end), only told it is rated in parts.
    report = report_upload(tournament=t, user=w["arbiter"], data=trf(1), filename="r1.trf")
    t.refresh_from_db()
    codes = {p["code"] for p in report.problems}
    assert report.status == "accepted" and "report_before_end" not in codes
    assert {"rated_in_parts", "unfinished_intermediate"} <= codes
    assert t.status == "validated" and t.period == october
    assert set(Game.objects.filter(tournament=t).values_list("period_id", flat=True)) == {
        october.pk
    }
    calculate_and_publish(w, october)
    assert ratings_in(october) == {"Alba": 2010, "Bosch": 1990, "Coll": 2000, "Duran": 2000}
    t.refresh_from_db()
    assert t.status == "published" and part_selectors.tournament_awaits_part(tournament=t)

    # Part 2: the whole report so far; its arbiter may send it though the tournament is
    # "published" (its part 1 is), and it is no correction of October.
    report = report_upload(tournament=t, user=w["arbiter"], data=trf(2), filename="r2.trf")
    t.refresh_from_db()
    october.refresh_from_db()
    assert report.status == "accepted", report.problems
    assert t.status == "validated" and t.period == november
    assert not october.needs_recalculation
    by_period = {
        (g.round, g.period_id) for g in Game.objects.filter(tournament=t, black__isnull=False)
    }
    assert by_period == {(1, october.pk), (2, november.pk)}
    parts = part_selectors.tournament_parts(tournament=t)
    assert [(p.number, p.period, p.published, p.played_games) for p in parts] == [
        (1, october, True, 2),
        (2, november, False, 2),
    ]

    # The period pages count each period's part only (ratings.office.counts).
    for period in (october, november):
        (line,) = [x for x in period_contents(period=period).included if x.tournament.pk == t.pk]
        assert (line.counts.played, line.counts.byes) == (2, 0)

    calculate_and_publish(w, november)
    assert ratings_in(november) == {"Alba": 2020, "Bosch": 1980, "Coll": 1990, "Duran": 2010}
    # Each game once: two games (four lines) in each period's draft.
    lines = {
        d.run.period_id: d.line_count
        for d in DraftTournament.objects.filter(tournament=t).select_related("run")
    }
    assert lines == {october.pk: 4, november.pk: 4}
    assert TournamentPart.objects.filter(tournament=t).count() == 2
    assert october.status == PeriodStatus.PUBLISHED


def test_an_intermediate_report_changing_a_published_part_is_refused_naming_it(league) -> None:
    w, t = league, league["tournament"]
    report_upload(tournament=t, user=w["arbiter"], data=trf(1), filename="r1.trf")
    calculate_and_publish(w, w["october"])
    t.refresh_from_db()
    report = report_upload(
        tournament=t, user=w["arbiter"], data=trf(2, change_round_1=True), filename="r2.trf"
    )
    t.refresh_from_db()
    changed = [p for p in report.problems if p["code"] == "part_game_changed"]
    assert t.status == "report_received"
    assert len(changed) == 1 and changed[0]["severity"] == "error"
    params = changed[0]["params"]
    assert params["round"] == 1 and params["white"] == "3. Coll, Carla"
    assert params["before"] == "½-½" and params["now"] == "1-0" and params["part"] == 1
    assert params["article"] == "fide-2024 4.1" and changed[0]["line"] is not None
    # A player of the published part renamed: named by rank.
    renamed = trf(2).replace(b"Duran, Dora ", b"Durand, Dora")
    report = report_upload(tournament=t, user=w["arbiter"], data=renamed, filename="r3.trf")
    players = [p for p in report.problems if p["code"] == "part_player_changed"]
    assert [p["params"]["rank"] for p in players] == [4]


def test_the_officer_changing_a_published_part_corrects_that_period(league) -> None:
    w, t = league, league["tournament"]
    report_upload(tournament=t, user=w["arbiter"], data=trf(1), filename="r1.trf")
    calculate_and_publish(w, w["october"])
    t.refresh_from_db()
    report = report_upload(
        tournament=t, user=w["officer"], data=trf(2, change_round_1=True), filename="r2.trf"
    )
    t.refresh_from_db()
    w["october"].refresh_from_db()
    assert [p["code"] for p in report.problems if p["code"].startswith("part_")] == [
        "part_corrected"
    ]
    assert t.status == "validated" and w["october"].needs_recalculation
    game = Game.objects.get(tournament=t, round=1, white__start_rank=3)
    assert game.result == "1-0" and game.period_id == w["october"].pk


def test_the_next_part_waits_for_an_open_period(league) -> None:
    """Part 1 published and no later period open: the new games have nowhere to go, so the
    report is held back (an error), never added to the published part."""
    w, t = league, league["tournament"]
    report_upload(tournament=t, user=w["arbiter"], data=trf(1), filename="r1.trf")
    calculate_and_publish(w, w["october"])
    w["november"].status = PeriodStatus.CLOSED
    w["november"].save(update_fields=["status"])
    t.refresh_from_db()
    report = report_upload(tournament=t, user=w["arbiter"], data=trf(2), filename="r2.trf")
    t.refresh_from_db()
    waiting = [p for p in report.problems if p["code"] == "part_no_open_period"]
    assert len(waiting) == 1 and waiting[0]["severity"] == "error"
    assert t.status == "report_received" and t.period == w["october"]
    assert TournamentPart.objects.get(tournament=t).games == [[1, 1, 2, "1"], [1, 3, 4, "="]]

    w["november"].status = PeriodStatus.OPEN
    w["november"].save(update_fields=["status"])
    report = report_upload(tournament=t, user=w["arbiter"], data=trf(2), filename="r3.trf")
    t.refresh_from_db()
    assert t.status == "validated" and t.period == w["november"]


@pytest.mark.parametrize(("pairing", "in_parts"), [("round_robin", True), ("swiss", False)])
def test_fide_2000_4_11_a_league_over_90_days_reports_in_parts(pairing, in_parts) -> None:
    """fide-2000 4.1: at most 90 days; 4.11: a league over 90 days has each game rated with the
    list of its own period. A 100-day round robin sends its report as it stands and is
    validated in the first period; a 100-day Swiss is 4.1's error, and its early report
    is refused as any other (report_before_end)."""
    system = make_system(ruleset="fide-2000", rate_of_play="standard", cycle="monthly")
    first = month_start(timezone.localdate(), 2)
    period = make_period(system, start=first)
    arbiter = make_user(role=roles.ARBITER)
    for name, fide_id in zip(NAMES, FIDE_IDS, strict=True):
        surname, given = name.split(", ")
        p = make_player(surname=surname, given_name=given, fide_id=int(fide_id), birth_year=1990)
        PlayerRating.objects.create(
            player=p, system=system, rating=2000, games=50, kind="effective"
        )
    start = first + dt.timedelta(days=19)
    t = make_tournament(
        system, arbiter, rounds=2, start_date=start, end_date=start + dt.timedelta(days=99)
    )
    Tournament.objects.filter(pk=t.pk).update(
        system=pairing, registered_at=timezone.now() - dt.timedelta(days=120)
    )
    t.refresh_from_db()
    report = report_upload(tournament=t, user=arbiter, data=trf(1), filename="r1.trf")
    t.refresh_from_db()
    found = {(p["code"], p["params"].get("article")) for p in report.problems}
    if in_parts:
        assert ("rated_in_parts", "fide-2000 4.11") in found
        assert not {c for c, _a in found} & {"duration", "report_before_end"}
        assert t.status == "validated" and t.period == period
        assert TournamentPart.objects.get(tournament=t).period == period
    else:
        assert ("duration", "fide-2000 4.1") in found
        assert "report_before_end" in {c for c, _a in found}
        assert t.status == "report_received" and not t.parts.exists()
