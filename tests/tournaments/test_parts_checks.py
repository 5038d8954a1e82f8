"""Which tournaments are rated in parts, article by article, worked from the texts (issue 23
item 1; /work/shared/RULESETS.md and the seeds), and the check of an intermediate report
against its published parts. Pure: no database."""

from __future__ import annotations

import datetime as dt

import pytest

from formats.reports.records import ParsedReport, ReportGame, ReportHeader, ReportPlayer
from rating_engine.registry import get_regulation
from tests.tournaments.test_checks import START, codes, facts, report
from tournaments.checks import (
    PublishedPart,
    part_problems,
    parts_rule,
    received_checks,
    rounds_checks,
    schedule_checks,
)


def days(n: int) -> dict[str, dt.date]:
    """A tournament of ``n`` days, first and last counted."""
    return {"end_date": START + dt.timedelta(days=n - 1)}


def test_fide_2024_4_1_over_30_days_is_rated_month_by_month() -> None:
    # "Para los torneos que duren más de 30 días, los resultados intermedios deben informarse
    # mensualmente": 31 days is over 30, whatever the pairing system; 30 is not.
    for system in ("swiss", "round_robin", "team"):
        f = facts(pairing_system=system, **days(31))
        assert parts_rule(f) is not None and parts_rule(f).article == "fide-2024 4.1"
        assert codes(schedule_checks(f, report([2000], rounds=1))) == [
            ("warning", "rated_in_parts", "fide-2024 4.1")
        ]
    assert parts_rule(facts(**days(30))) is None
    assert schedule_checks(facts(**days(30)), report([2000], rounds=1)) == []


def test_fide_2024_4_1_an_intermediate_report_is_neither_early_nor_unfinished() -> None:
    long, short = facts(**days(45)), facts(**days(30))
    before = START + dt.timedelta(days=20)
    assert received_checks(long, received_on=before) == []
    assert codes(received_checks(short, received_on=before)) == [
        ("error", "report_before_end", "fide-2024 (office rule)")
    ]
    half = report([2000, 2000], rounds=6, games=(ReportGame(1, 1, 2, "1", 1.0, 0.0, "played"),))
    assert codes(rounds_checks(long, half)) == [
        ("warning", "unfinished_intermediate", "fide-2024 4.1")
    ]
    assert codes(rounds_checks(short, half)) == [("error", "unfinished", "fide-2024 (office rule)")]


def test_fide_2000_4_11_only_a_league_over_90_days_goes_in_parts() -> None:
    # 4.1: "No podrá extenderse por un período mayor de 90 días." 4.11: "Respecto a las
    # competencias de liga que se extiendan por más de 90 días, las listas efectivas de rating
    # se aplicarán a las partidas jugadas dentro de sus respectivos períodos de rating."
    for league in ("round_robin", "double_round_robin", "team"):
        f = facts(ruleset="fide-2000", pairing_system=league, **days(91))
        assert parts_rule(f) is not None and parts_rule(f).article == "fide-2000 4.11"
        assert codes(schedule_checks(f, report([2000], rounds=1))) == [
            ("warning", "rated_in_parts", "fide-2000 4.11")
        ]
        assert received_checks(f, received_on=START + dt.timedelta(days=40)) == []
    swiss = facts(ruleset="fide-2000", pairing_system="swiss", **days(91))
    assert parts_rule(swiss) is None
    assert codes(schedule_checks(swiss, report([2000], rounds=1))) == [
        ("error", "duration", "fide-2000 4.1")
    ]
    # 90 days: within 4.1, a league is rated whole.
    assert parts_rule(facts(ruleset="fide-2000", pairing_system="round_robin", **days(90))) is None


@pytest.mark.parametrize(
    ("ruleset", "system", "expected"),
    [
        # feda-1996 5.1 "Un periodo inferior a 90 días", 5.11 longer with FEDA's authorisation;
        # no intermediate report, and 8.11 rates with the one list of the start date: whole.
        ("feda-1996", "round_robin", [("warning", "duration_authorised", "feda-1996 5.1")]),
        # fce 6.2 "no pot ésser superior a 90 dies, excepte en les competicions per equips":
        # a team league may be longer, with no intermediate report: whole.
        ("fce", "team", []),
        ("fce", "round_robin", [("error", "duration", "fce 6.2")]),
        # cnxc-2000 4.1 counts "as competições terminadas" in each half year: whole, when ended.
        ("cnxc-2000", "round_robin", []),
    ],
)
def test_the_other_regulations_rate_a_long_event_whole(ruleset, system, expected) -> None:
    f = facts(ruleset=ruleset, pairing_system=system, rate_of_play="standard", **days(200))
    assert get_regulation(ruleset).facts.play.rated_in_parts is None
    assert parts_rule(f) is None
    found = [c for c in codes(schedule_checks(f, report([2000], rounds=1))) if "duration" in c[1]]
    assert found == expected
    assert [p.code for p in received_checks(f, received_on=START + dt.timedelta(days=9))] == [
        "report_before_end"
    ]


def _part() -> PublishedPart:
    return PublishedPart(
        number=1,
        period="1/10/26 – 31/10/26",
        article="fide-2024 4.1",
        players={1: ("Alba, Ana", "2400001"), 2: ("Bosch, Berta", ""), 3: ("Coll, Carla", "")},
        games={(1, 1, 2): "1", (1, 3, None): ""},
    )


def _report(*, players: list[str], games: list[ReportGame]) -> ParsedReport:
    fide = {"Alba, Ana": "2400001"}
    return ParsedReport(
        header=ReportHeader(rounds=3),
        players=tuple(
            ReportPlayer(start_rank=i, name=n, fide_id=fide.get(n, ""), line=i)
            for i, n in enumerate(players, 1)
        ),
        games=tuple(games),
    )


R1 = [
    ReportGame(1, 1, 2, "1", 1.0, 0.0, "played", 1),
    ReportGame(1, 3, None, "", 1.0, None, "bye_pab", 3),
]
R2 = [ReportGame(2, 2, 3, "=", 0.5, 0.5, "played", 2)]
NAMES = ["Alba, Ana", "Bosch, Berta", "Coll, Carla"]


def test_a_report_keeping_the_published_part_passes() -> None:
    assert part_problems([_part()], _report(players=NAMES, games=R1 + R2)) == []


def test_a_changed_result_a_missing_game_and_a_renamed_player_are_named() -> None:
    changed = [ReportGame(1, 1, 2, "0", 0.0, 1.0, "played", 1)] + R2
    found = part_problems([_part()], _report(players=[*NAMES[:2], "Cano, Clara"], games=changed))
    by_code = {p.code: p for p in found}
    assert sorted(by_code) == ["part_game_changed", "part_game_missing", "part_player_changed"]
    assert all(p.severity == "error" for p in found)
    game = by_code["part_game_changed"]
    assert (game.params["round"], game.params["white"], game.params["black"]) == (
        1,
        "1. Alba, Ana",
        "2. Bosch, Berta",
    )
    assert (game.params["before"], game.params["now"], game.line) == ("1-0", "0-1", 1)
    assert by_code["part_game_missing"].params["black"] == "bye"  # round 1's bye of player 3
    player = by_code["part_player_changed"]
    assert (player.params["rank"], player.params["before"], player.params["now"]) == (
        3,
        "Coll, Carla",
        "Cano, Clara",
    )
    assert player.line == 3 and player.params["period"] == "1/10/26 – 31/10/26"
