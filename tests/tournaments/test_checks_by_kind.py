"""The checks that follow the engine's facts, one test per article, worked by hand from the
texts (seeds/, RULESETS.md): the kinds of championship (fide-2000 6.33, feda-1996 7.33), the
minimum time per game (fide-2024 1.1), the increment (feda-1996 2.3) and the scope
(cnxc-2000 3.1). Pure: no database."""

from __future__ import annotations

import pytest

from tests.tournaments.test_checks import _rr_games, codes, facts, played, report
from tournaments.checks import (
    composition_checks,
    games_below_minimum_time,
    rate_of_play_checks,
    scope_checks,
    tournament_checks,
)


def _errors(found) -> list[tuple[str, str, str]]:
    return [c for c in codes(found) if c[0] == "error"]


# --------------------------------------------------------------------------- feda-1996 7.33


@pytest.mark.parametrize(
    "kind", ["national_championship", "regional_championship", "provincial_championship"]
)
def test_feda_championships_rated_with_3_rated_players_7_33(kind: str) -> None:
    # 7.33: "Los campeonatos Nacionales, Autonómicos y Provinciales, jugados por sistema liga,
    # deberán ser computados si al menos 3 participantes tienen Rating". 6 players, 3 rated:
    # 7.31 (fewer than 10 players) would ask 4; the championship is rated with 3.
    rr = facts(ruleset="feda-1996", pairing_system="round_robin", kind=kind)
    three = report([2000, 2100, 2200, None, None, None], games=_rr_games(6))
    assert _errors(composition_checks(rr, three)) == []
    # With 2 rated, 7.33's 3 are missing: refused citing 7.33.
    two = report([2000, 2100, None, None, None, None], games=_rr_games(6))
    assert _errors(composition_checks(rr, two)) == [
        ("error", "rr_championship_rated", "feda-1996 7.33")
    ]


def test_feda_round_robin_without_a_kind_follows_7_31() -> None:
    # The same 6 players with 3 rated, no championship: 7.31 asks 4.
    rr = facts(ruleset="feda-1996", pairing_system="round_robin")
    three = report([2000, 2100, 2200, None, None, None], games=_rr_games(6))
    assert _errors(composition_checks(rr, three)) == [("error", "rr_rated_share", "feda-1996 7.31")]


# --------------------------------------------------------------------------- fide-2000 6.33


def test_fide_2000_womens_championship_rated_with_2_rated_players_6_33() -> None:
    # 6.33: "si por lo menos 3 hombres (o 2 mujeres en torneos femeninos) tienen ranking".
    # 5 players, 2 rated: 6.31 would ask 4, a national championship 3, a women's one 2.
    players = [2000, 2100, None, None, None]
    women = facts(
        ruleset="fide-2000", pairing_system="round_robin", kind="womens_national_championship"
    )
    assert _errors(composition_checks(women, report(players, games=_rr_games(5)))) == []
    one = report([2000, None, None, None, None], games=_rr_games(5))
    assert _errors(composition_checks(women, one)) == [
        ("error", "rr_championship_rated", "fide-2000 6.33")
    ]
    national = facts(
        ruleset="fide-2000", pairing_system="round_robin", kind="national_championship"
    )
    assert _errors(composition_checks(national, report(players, games=_rr_games(5)))) == [
        ("error", "rr_championship_rated", "fide-2000 6.33")
    ]
    # The flag alone with every player a woman reads as the engine does: 2 suffice.
    flag = facts(ruleset="fide-2000", pairing_system="round_robin", national_championship=True)
    all_women = report(players, games=_rr_games(5), sexes=["w"] * 5)
    assert _errors(composition_checks(flag, all_women)) == []


# --------------------------------------------------------------------------- fide-2024 1.1


RATINGS: list[int | None] = [2400, 1500, 1850, 1700]  # players 1-4
GAMES = (played(1, 1, 2), played(1, 3, 4, "="), played(2, 1, 3), played(2, 2, 4))


def test_fide_2024_minimum_time_per_game_1_1() -> None:
    # 1.1: "al menos un jugador de la partida" 2400 → 120 min, 1800 → 90, both under 1800 → 60.
    # 90 minutes: only the games with the 2400 (1-2 and 1-3) ask 120; 3-4 (1850) asks 90 and
    # 2-4 (1500, 1700) 60. A warning, not an error: the other games are rated.
    f = facts(minutes_for_60_moves=90)
    short = games_below_minimum_time(f, report(RATINGS, games=GAMES))
    assert [(g.round, g.white_rank, g.black_rank) for g in short] == [(1, 1, 2), (2, 1, 3)]
    (warning,) = rate_of_play_checks(f, report(RATINGS, games=GAMES))
    assert (warning.severity, warning.code, warning.params["article"]) == (
        "warning",
        "rate_of_play_games",
        "fide-2024 1.1",
    )
    assert warning.params["count"] == 2 and warning.params["games"] == "1: 1–2, 2: 1–3"
    assert (warning.params["required"], warning.params["rating"]) == (120, 2400)
    # 75 minutes: the 1850's game 3-4 asks 90 as well; 2-4 (60) is still rated.
    short = games_below_minimum_time(facts(minutes_for_60_moves=75), report(RATINGS, games=GAMES))
    assert [(g.white_rank, g.black_rank) for g in short] == [(1, 2), (3, 4), (1, 3)]
    # 120 minutes: none.
    assert games_below_minimum_time(facts(), report(RATINGS, games=GAMES)) == []
    # 59 minutes: below 60, every game.
    assert (
        len(games_below_minimum_time(facts(minutes_for_60_moves=59), report(RATINGS, games=GAMES)))
        == 4
    )


def test_fide_2000_minimum_time_stays_by_the_tournament_1_12() -> None:
    # fide-2000 1.12: "al menos uno de los jugadores del torneo" 2200 → 120: the report is
    # refused whatever the game, and no game is singled out.
    f = facts(ruleset="fide-2000", minutes_for_60_moves=100)
    assert games_below_minimum_time(f, report([2200, 1500], games=(played(1, 1, 2),))) == []
    assert codes(rate_of_play_checks(f, report([2200, 1500]))) == [
        ("error", "rate_of_play", "fide-2000 1.1")
    ]


# --------------------------------------------------------------------------- feda-1996 2.3


def test_feda_minimum_increment_2_3() -> None:
    # 2.3: one hour per player with electronic clocks "siempre que se añadan 10 segundos
    # (mínimo)" a move: 60 minutes + 5 seconds is refused, + 10 seconds is not; no increment
    # is 2.1/2.2's business.
    def feda(inc: int):
        return facts(ruleset="feda-1996", base_minutes=60, increment_seconds=inc)

    assert _errors(rate_of_play_checks(feda(5), report([2000]))) == [
        ("error", "increment_too_short", "feda-1996 2.3")
    ]
    assert _errors(rate_of_play_checks(feda(10), report([2000]))) == []
    assert _errors(rate_of_play_checks(feda(0), report([2000]))) == []
    # fide-2024 has no such rule.
    assert _errors(rate_of_play_checks(facts(increment_seconds=5), report([2000]))) == []


# --------------------------------------------------------------------------- cnxc-2000 3.1


def test_cnxc_scope_3_1() -> None:
    # 3.1: "com exceção dos torneios temáticos"; organised by another body only if "conste do
    # respectivo regulamento a menção de que os resultados serão considerados".
    def cnxc(**kw):
        return facts(ruleset="cnxc-2000", rate_of_play="correspondence", **kw)

    assert codes(scope_checks(cnxc(thematic=True))) == [
        ("error", "thematic_not_rated", "cnxc-2000 3.1")
    ]
    assert codes(scope_checks(cnxc(organised_by_others=True))) == [
        ("error", "organised_by_others_not_rated", "cnxc-2000 3.1")
    ]
    assert scope_checks(cnxc(organised_by_others=True, rated_by_its_rules=True)) == []
    assert scope_checks(cnxc(kind="championship_final")) == []
    # The other regulations have no such article: the flags change nothing.
    assert scope_checks(facts(thematic=True, organised_by_others=True)) == []


def test_a_kind_the_regulation_does_not_name_is_refused() -> None:
    assert codes(scope_checks(facts(ruleset="fide-2024", kind="regional_championship"))) == [
        ("error", "kind_unknown", "fide-2024 (office rule)")
    ]


def test_a_thematic_report_is_refused_among_all_checks() -> None:
    found = tournament_checks(
        facts(ruleset="cnxc-2000", rate_of_play="correspondence", thematic=True),
        report([2000, 2100]),
        received_on=facts().end_date,
        registered_on=facts().start_date.replace(day=1),
        approved=True,
    )
    assert ("error", "thematic_not_rated", "cnxc-2000 3.1") in codes(found)
