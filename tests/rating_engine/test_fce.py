"""fce: hand-worked periods, one per rule, each naming its article.

Expected figures are worked by hand from Taula 1 (table B, FIDE ranges, .99 cap) and
Taula 2 (table A) as printed in the seed; never produced by the code under test.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest
from engine_helpers import by_id
from engine_helpers import game as g
from fce_helpers import articles, player, rate, tour

from rating_engine.errors import EngineInputError
from rating_engine.regulations.fce import modality
from rating_engine.types import (
    PriorResult,
    TournamentInput,
)

# ---------------------------------------------------------------- 8.1 / 8.2 forfeits


def test_forfeit_loss_counts_against_own_rating_with_half_k() -> None:
    # A 1800 (K 20) loses by forfeit to B 1900: 8.2 -> a loss against 1800 with K/2 = 10:
    #   10 x (0 - .50) = -5.
    # A draws C 1700: D = +100 -> .64 (99-106): 20 x (.5 - .64) = -2.8.
    # A: -7.8 -> -8 -> 1792.  B: the forfeit win is not rated (8.1) -> 1900.
    # C: D = -100 -> .36: 20 x (.5 - .36) = +2.8 -> +3 -> 1703.
    result = rate(
        [player("A", 1800), player("B", 1900), player("C", 1700)],
        [tour("T", [g("A", "B", "0-1", forfeit=True), g("C", "A", "1/2-1/2")])],
    )
    p = by_id(result)
    assert (p["A"].rating_after, p["A"].change, p["A"].games) == (1792, -8, 2)
    assert (p["B"].rating_after, p["B"].games) == (1900, 0)
    assert p["C"].rating_after == 1703
    forfeit_line = next(ln for ln in result.games if ln.player == "A" and ln.opponent == "B")
    assert (forfeit_line.opponent_rating, forfeit_line.k, forfeit_line.change) == (1800, 10, -5.0)
    assert any(e.article == "fce 8.1" and e.code == "forfeit_win" for e in result.excluded)


def test_forfeits_never_count_for_a_first_performance() -> None:
    # 8.3: N (no FCE, no FIDE) wins one game by forfeit and plays 4 real games: 4 < 5 (10.2.1).
    # The pooled forfeit of an earlier period does not count either.
    rated = [player(f"O{i}", 1700) for i in range(5)]
    n = player(
        "N", None, 0, prior_results=(PriorResult(1700, 1.0, "P", date(2026, 2, 1), forfeit=True),)
    )
    games = [g("N", f"O{i}", "1/2-1/2") for i in range(4)] + [g("O4", "N", "0-1", forfeit=True)]
    result = rate([n, *rated], [tour("T", games)])
    p = by_id(result)
    assert p["N"].status == "unrated" and p["N"].rating_after is None
    assert "fce 10.2.1" in articles(p["N"])
    assert any(e.article == "fce 8.3" for e in result.excluded)
    # O4 lost by forfeit (8.2): K 20, half 10: 10 x (0 - .5) = -5 -> 1695.
    assert p["O4"].rating_after == 1695


# ---------------------------------------------------------------- 7.3 / 9.5 / 10.1 differential


BANDS = {"2026": [{"from": 0, "value": 100}, {"from": 2000, "value": 50}]}


def test_differential_bands_for_fide_only_opponents_and_first_ratings() -> None:
    # Bands keyed by the FIDE rating converted: below 2000 +100, from 2000 +50 (9.5).
    # X FIDE 1950 -> 2050; Y FIDE 2100 -> 2150; Z FIDE 2000 (band edge) -> 2050 (7.3, 10.1).
    # A 2000 (K 20) beats X: D = -50 -> L .43 (47-53): 20 x (1 - .43) = +11.4
    #             loses to Y: D = -150 -> L .30 (146-153): 20 x (0 - .30) = -6
    #   +5.4 -> +5 -> 2005.
    # X starts at 2050, K 40 (0 games, 16.2.1): D = +50 -> .57: 40 x (0 - .57) = -22.8 -> 2027.
    # Y starts at 2150, K 40: D = +150 -> .70: 40 x (1 - .70) = +12 -> 2162.
    # Z 2050 draws W 2050: D = 0 -> .50 -> no change for either (a wrong band would give
    #   Z 2100: D = -50 -> 40 x (.5 - .43) = +2.8).
    result = rate(
        [
            player("A", 2000, 40),
            player("X", None, 0, fide_rating=1950),
            player("Y", None, 0, fide_rating=2100),
            player("Z", None, 0, fide_rating=2000),
            player("W", 2050, 40),
        ],
        [tour("T", [g("A", "X", "1-0"), g("Y", "A", "1-0"), g("Z", "W", "1/2-1/2")])],
        differential=BANDS,
    )
    p = by_id(result)
    assert p["A"].rating_after == 2005
    assert (p["X"].rating_after, p["X"].status, p["X"].k) == (2027, "new", 40)
    assert p["Y"].rating_after == 2162
    assert (p["Z"].rating_after, p["W"].rating_after) == (2050, 2050)
    assert "fce 10.1" in articles(p["X"])


def test_opponent_without_fce_or_fide_is_not_rated() -> None:
    # 7.2: U has neither rating; A's game with him is left out.
    result = rate(
        [player("A", 2000), player("U", None, 0)],
        [tour("T", [g("A", "U", "1-0")])],
        differential={"2026": 0},
    )
    p = by_id(result)
    assert (p["A"].rating_after, p["A"].games) == (2000, 0)
    assert any(e.article == "fce 7.2" for e in result.excluded)


def test_missing_differential_for_the_year_names_the_parameter() -> None:
    with pytest.raises(EngineInputError) as err:
        rate(
            [player("A", 2000), player("X", None, 0, fide_rating=1950)],
            [tour("T", [g("A", "X", "1-0")])],
            differential={"2025": 40},
        )
    assert err.value.location == "parameters.differential"


def test_bad_bands_are_rejected() -> None:
    with pytest.raises(EngineInputError) as err:
        rate([], [], differential={"2026": [{"from": 100, "value": 3}]})
    assert err.value.location == "parameters.differential"


# ---------------------------------------------------------------- 16 K


def test_youth_k_and_the_18th_birthday() -> None:
    # 16.2.1: under 18 on the first day of the period (1 Mar 2026) and under 2200 -> K 40.
    # Y1 born 2010-06-01 (15), 2100, 60 games, beats O1 2100: 40 x .5 = +20 -> 2120;
    #   O1 (adult, K 20): 20 x (0 - .5) = -10 -> 2090.
    # Y2 born 2008-03-02 is 17 on 1 March -> K 40: beats O2 2100 -> 2120.
    # Y3 born 2008-03-01 is 18 on 1 March -> K 20: beats O3 2100 -> 2110.
    result = rate(
        [
            player("Y1", 2100, 60, birth_date=date(2010, 6, 1)),
            player("O1", 2100, 60),
            player("Y2", 2100, 60, birth_date=date(2008, 3, 2)),
            player("O2", 2100, 60),
            player("Y3", 2100, 60, birth_date=date(2008, 3, 1)),
            player("O3", 2100, 60),
        ],
        [tour("T", [g("Y1", "O1", "1-0"), g("Y2", "O2", "1-0"), g("Y3", "O3", "1-0")])],
    )
    p = by_id(result)
    assert (p["Y1"].rating_after, p["Y1"].k, p["Y1"].k_article) == (2120, 40, "fce 16.2.1")
    assert p["O1"].rating_after == 2090
    assert (p["Y2"].rating_after, p["Y3"].rating_after) == (2120, 2110)


@pytest.mark.parametrize(("limit", "expected"), [(None, 2260), (2300, 2270)])
def test_youth_threshold_is_a_parameter(limit: int | None, expected: int) -> None:
    # Article 16 says under 2200 (default); the summary says 2300 (parameter).
    # Youth 2250 beats 2250: K 20 -> +10 -> 2260; with 2300, K 40 -> +20 -> 2270.
    extra = {} if limit is None else {"youth_k_max_rating": limit}
    result = rate(
        [player("Y", 2250, 100, birth_date=date(2012, 1, 1)), player("O", 2250, 100)],
        [tour("T", [g("Y", "O", "1-0")])],
        **extra,
    )
    assert by_id(result)["Y"].rating_after == expected


def test_new_player_k_40_until_30_games() -> None:
    # 16.2.1: 29 games -> K 40 (+20), 30 games -> K 20 (+10), both beating a 1500.
    result = rate(
        [
            player("N29", 1500, 29),
            player("N30", 1500, 30),
            player("O", 1500, 99),
            player("P", 1500, 99),
        ],
        [tour("T", [g("N29", "O", "1-0"), g("N30", "P", "1-0")])],
    )
    p = by_id(result)
    assert (p["N29"].rating_after, p["N30"].rating_after) == (1520, 1510)


# ---------------------------------------------------------------- 17.3 floor, Taula 1 cap


def test_rating_never_below_1000() -> None:
    # F 1010 loses to G 1010 and H 1010: 2 x 20 x (0 - .5) = -20 -> 990 -> 1000 (17.3).
    # G and H: +10 -> 1020.
    result = rate(
        [player("F", 1010), player("G", 1010), player("H", 1010)],
        [tour("T", [g("F", "G", "0-1"), g("H", "F", "1-0")])],
    )
    p = by_id(result)
    assert p["F"].rating_after == 1000 and "fce 17.3" in articles(p["F"])
    assert (p["G"].rating_after, p["H"].rating_after) == (1020, 1020)


def test_taula_1_caps_at_99_with_no_difference_cap() -> None:
    # 15.1 / Taula 1: D = 2400 - 1600 = 800 > 735 -> .99 (not 1.00, and no 400 cap).
    # S 2400 draws L 1600: 20 x (.5 - .99) = -9.8 -> -10 -> 2390;
    # L: 20 x (.5 - .01) = +9.8 -> +10 -> 1610.
    result = rate(
        [player("S", 2400, 99), player("L", 1600, 99)], [tour("T", [g("S", "L", "1/2-1/2")])]
    )
    p = by_id(result)
    assert (p["S"].rating_after, p["L"].rating_after) == (2390, 1610)


# ---------------------------------------------------------------- 5 rate of play, 11 rapid


@pytest.mark.parametrize(
    ("rate_of_play", "expected"),
    [
        ("90+30", "standard"),
        ("60", "standard"),
        ("59+1", "standard"),
        ("45+10", "rapid"),
        ("10", "blitz"),
        ("3+2", "blitz"),
        ("15+10", "rapid"),
        ("rapid", "rapid"),
    ],
)
def test_modality_by_minutes_for_60_moves(rate_of_play: str, expected: str) -> None:
    # 5.1: base + 60 x increment >= 60 minutes is standard; 5.2 faster is rapid (blitz <= 10).
    assert modality(rate_of_play) == expected


def test_rapid_first_ratings() -> None:
    # Rapid list, differential 100, K always 20 (16.2.2) even for new players.
    # R1: standard FCE 1850 -> 11.1 -> 1850 (its FIDE 1700 is not used).
    # R2: FIDE rapid 1700 (standard 1800) -> 11.2.1 -> 1800.
    # R3: FIDE standard 1900 only -> 11.2.2 -> 2000.
    # R4: FIDE blitz 1600, rapid 1700, first tournament blitz -> 11.2.1 blitz -> 1700.
    # For his opponents R1 is not in the rapid list in force (11.1 gives him his rapid rating
    # in this period, decided reading): they count him by 7.3, FIDE 1700 (no rapid FIDE:
    # 7.3.3 standard) + 100 = 1800.
    # Rapid T1: R1 (1850) beats R2 (1800): D = +50 -> .57: R1 20 x .43 = +8.6.
    #             R2 (1800) vs R1 as 1800: D = 0 -> .50: R2 20 x (0 - .50) = -10.
    #           R1 draws R3 (2000): D = -150 -> .30: R1 20 x .2 = +4.
    #             R3 vs R1 as 1800: D = +200 -> .76 (198-206): R3 20 x (.5 - .76) = -5.2.
    #           R0 (rapid 1800) beats R3: D = -200 -> .24: R0 +15.2, R3 20 x (0 - .76) = -15.2.
    # Blitz T2: R4 draws R0: D = -100 -> .36: R4 +2.8; R0 20 x (.5 - .64) = -2.8.
    # R1 12.6 -> 1863; R2 -10 -> 1790; R3 -20.4 -> 1980; R4 2.8 -> 1703; R0 12.4 -> 1812.
    # (With R1 at his 11.1 rating 1850 for them: R2 -8.6 -> 1791, R3 -19.2 -> 1981.)
    # A standard tournament in the rapid period is left out (5.1).
    players = [
        player("R0", 1800, 100),
        player("R1", None, 0, fide_rating=1700),
        player("R2", None, 0, fide_rating=1800, fide_rapid_rating=1700),
        player("R3", None, 0, fide_rating=1900),
        player("R4", None, 0, fide_rapid_rating=1700, fide_blitz_rating=1600),
    ]
    result = rate(
        players,
        [
            tour(
                "T1",
                [g("R1", "R2", "1-0"), g("R3", "R1", "1/2-1/2"), g("R0", "R3", "1-0")],
                end=date(2026, 3, 10),
                rate="15+10",
            ),
            tour("T2", [g("R4", "R0", "1/2-1/2")], end=date(2026, 3, 12), rate="3+2"),
            tour("S", [g("R0", "R1", "1-0")], rate="90+30"),
        ],
        list="rapid",
        differential={"2026": 100},
        standard_ratings={"R1": 1850},
    )
    p = by_id(result)
    assert {k: p[k].rating_after for k in ("R0", "R1", "R2", "R3", "R4")} == {
        "R0": 1812,
        "R1": 1863,
        "R2": 1790,
        "R3": 1980,
        "R4": 1703,
    }
    r2_vs_r1 = next(ln for ln in result.games if ln.player == "R2" and ln.opponent == "R1")
    assert (r2_vs_r1.opponent_rating, r2_vs_r1.expected) == (1800, 0.50)
    assert "fce 11.1" in articles(p["R1"]) and "fce 11.2.1" in articles(p["R2"])
    assert "fce 11.2.2" in articles(p["R3"]) and p["R1"].k == 20
    assert p["R1"].k_article == "fce 16.2.2"
    assert any(e.tournament == "S" and e.article == "fce 5.1" for e in result.excluded)


def test_rapid_first_rating_without_any_rating_follows_10_2() -> None:
    # 11.3 -> 10.2: N plays 5 rapid games against rapid-rated 1600, 1700, 1700, 1800, 1700
    # (Ra = 8500 / 5 = 1700), scores 2: p = .40 -> dp -72 (14.5) -> 1628.
    opps = [player(f"O{i}", r, 99) for i, r in enumerate((1600, 1700, 1700, 1800, 1700))]
    res = ["0-1", "0-1", "1-0", "1-0", "1-0"]  # N is black: wins the first two
    result = rate(
        [player("N", None, 0), *opps],
        [tour("T", [g(f"O{i}", "N", r) for i, r in enumerate(res)], rate="10+5")],
        list="rapid",
    )
    p = by_id(result)
    assert (p["N"].rating_after, p["N"].status) == (1628, "new")
    assert "fce 14.5" in articles(p["N"])


# ---------------------------------------------------------------- 10.2 / 14 first performances


def _five(
    n: str,
    ratings: Sequence[int],
    results: Sequence[str],
    tid: str = "T",
    end: date = date(2026, 3, 20),
) -> TournamentInput:
    return tour(tid, [g(n, f"O{r}", res) for r, res in zip(ratings, results, strict=True)], end=end)


def test_first_rating_above_50_percent_adds_20_per_half_point() -> None:
    # 14.1 Ra = (1500 + 1600 + 1700 + 1800 + 1900) / 5 = 1700; 3.5 / 5 is 1 point (two half
    # points) above 50% -> 1700 + 40 = 1740 (14.4). The opponents do not rate the game (7.2).
    ratings = (1500, 1600, 1700, 1800, 1900)
    opps = [player(f"O{r}", r) for r in ratings]
    result = rate(
        [player("N", None, 0), *opps],
        [_five("N", ratings, ["1-0", "1-0", "1-0", "1/2-1/2", "0-1"])],
    )
    p = by_id(result)
    assert (p["N"].rating_after, p["N"].status) == (1740, "new")
    assert "fce 14.4" in articles(p["N"])
    assert all(p[f"O{r}"].rating_after == r for r in ratings)


def test_first_rating_at_50_percent_is_ra() -> None:
    # 14.3: 2.5 / 5 against Ra 1700 -> 1700.
    ratings = (1500, 1600, 1700, 1800, 1900)
    result = rate(
        [player("N", None, 0), *[player(f"O{r}", r) for r in ratings]],
        [_five("N", ratings, ["1-0", "1-0", "1/2-1/2", "0-1", "0-1"])],
    )
    assert by_id(result)["N"].rating_after == 1700


def test_pooled_over_periods_as_one_tournament() -> None:
    # 10.2.2: 3 earlier games vs 1600 (1.5 points) + 2 now vs 1800 (1 point): 2.5 / 5 = 50%,
    # Ra = (3 x 1600 + 2 x 1800) / 5 = 1680 -> 1680 (14.3).
    prior = tuple(PriorResult(1600, s, "P", date(2026, 2, 15)) for s in (1.0, 0.5, 0.0))
    result = rate(
        [player("N", None, 0, prior_results=prior), player("O1800", 1800), player("Q1800", 1800)],
        [tour("T", [g("N", "O1800", "1-0"), g("Q1800", "N", "1-0")])],
    )
    assert by_id(result)["N"].rating_after == 1680


def test_scoreless_first_tournament_is_discarded() -> None:
    # 10.2.3: N's first tournament T0 (ends 5 March: 3 games vs 1600, 0 points) is discarded;
    # then 2.5 / 5 against five 1700s in T -> 1700. Kept, it would give 2.5 / 8 (p .3125 ->
    # .31 -> -141) against Ra (3 x 1600 + 5 x 1700) / 8 = 1662.5 -> 1521.5 -> 1522.
    opps = [player(f"O{i}", 1700) for i in range(5)] + [player(f"L{i}", 1600) for i in range(3)]
    res = ["1-0", "1-0", "1/2-1/2", "0-1", "0-1"]
    result = rate(
        [player("N", None, 0), *opps],
        [
            tour("T", [g("N", f"O{i}", r) for i, r in enumerate(res)]),
            tour("T0", [g(f"L{i}", "N", "1-0") for i in range(3)], end=date(2026, 3, 5)),
        ],
    )
    p = by_id(result)["N"]
    assert p.rating_after == 1700 and "fce 10.2.3" in articles(p)


def test_half_point_needed() -> None:
    # 7.1: N's stored pool holds 2 earlier games vs 1600 with 0 points (of a tournament that
    # was not his first), then 0 / 3 now: 5 games, no point -> still unrated.
    # (The earlier tournament is not his first: the pool is stored clean, so no 10.2.3.)
    prior = tuple(PriorResult(1600, 0.0, "P", date(2026, 1, 10)) for _ in range(2))
    opps = [player(f"O{i}", 1700) for i in range(3)]
    result = rate(
        [player("N", None, 0, prior_results=prior), *opps],
        [tour("T", [g("N", f"O{i}", "0-1") for i in range(3)])],
    )
    p = by_id(result)["N"]
    assert (p.status, p.rating_after) == ("unrated", None) and "fce 7.1" in articles(p)
    assert "fce 10.2.3" not in articles(p)


def test_rated_for_himself_unrated_for_his_opponents() -> None:
    # 12.1: Q's first rating appeared in the 1 March list (rated_since); a tournament that ended
    # on 25 February is rated now. Q (1700, 5 games, K 40) beats S 1700: +20 -> 1720;
    # S does not count the game -> 1700.
    result = rate(
        [player("Q", 1700, 5, rated_since=date(2026, 3, 1)), player("S", 1700)],
        [tour("T", [g("Q", "S", "1-0")], end=date(2026, 2, 25))],
    )
    p = by_id(result)
    assert (p["Q"].rating_after, p["S"].rating_after, p["S"].games) == (1720, 1700, 0)
    assert any(e.article == "fce 12.1" for e in result.excluded)


def test_period_change_is_summed_then_rounded() -> None:
    # 17.1/17.2: A 2000 (K 20) draws three 1990s: D = 10 -> .51 (4-10); each 20 x -.01 = -0.2;
    # sum -0.6 -> -1 -> 1999 (rounding per game would give 0).
    result = rate(
        [player("A", 2000, 99), *[player(f"B{i}", 1990, 99) for i in range(3)]],
        [tour("T", [g("A", f"B{i}", "1/2-1/2") for i in range(3)])],
    )
    assert by_id(result)["A"].rating_after == 1999


# ---------------------------------------------------------------- 6.2, 9.3


def test_tournaments_over_90_days_are_left_out_except_team_events() -> None:
    # 6.2: 1 Dec - 20 Mar is 110 days: the swiss is left out; the team event is rated
    # (A 2000 beats B 2000: +10 -> 2010).
    long_swiss = TournamentInput(
        id="L",
        system="swiss",
        start_date=date(2025, 12, 1),
        end_date=date(2026, 3, 20),
        rate_of_play="90+30",
        games=(g("A", "B", "1-0"),),
    )
    long_team = TournamentInput(
        id="M",
        system="team",
        start_date=date(2025, 12, 1),
        end_date=date(2026, 3, 20),
        rate_of_play="90+30",
        games=(g("C", "D", "1-0"),),
    )
    result = rate([player(x, 2000, 99) for x in "ABCD"], [long_swiss, long_team])
    p = by_id(result)
    assert (p["A"].rating_after, p["C"].rating_after) == (2000, 2010)
    assert any(e.tournament == "L" and e.article == "fce 6.2" for e in result.excluded)


def test_protest_deadline() -> None:
    # 9.3: 25 days counted from the publication day: list of 1 April -> 25 April.
    from rating_engine.regulations.fce import protest_deadline

    assert protest_deadline(date(2026, 4, 1)) == date(2026, 4, 25)
