"""feda-1996: hand-worked periods, one per rule, each naming its article.

Expected figures are worked by hand in the comments from the tables (table 1.5 = FIDE table B;
table 1.4 corrected as decided in RULESETS.md, i.e. the FIDE table A), never produced by the
code under test. Ratings are rounded to the nearest 5 or 0, halves up (9.32, 9.55).
Table B rows used: 11-17 .52, 18-25 .53, 47-53 .57, 54-61 .58, 84-91 .62, 99-106 .64,
114-121 .66, 146-153 .70, 216-225 .78.
"""

from __future__ import annotations

from datetime import date

import pytest
from engine_games import MATCH4, RR4, RR6, newcomer, rr6_unrated, x_meets
from engine_helpers import active, by_id, codes, game, player, prior
from feda_1996_helpers import RULESET, event, rate

from rating_engine.tables import dp_for_hundredths
from rating_engine.types import PlayerInput

# ---------------------------------------------------------------- tables (9.1b, 9.1c)


@pytest.mark.parametrize(
    ("p", "dp"),
    [
        # The seed's table 1.4 typos, corrected (RULESETS.md): second ".97 501" is .96;
        # second ".85 284" is .84; ".57 40" is 50; ".38 -97" is -87; .76-.73 shifted.
        (96, 501),
        (84, 284),
        (57, 50),
        (38, -87),
        (76, 202),
        (75, 193),
        (74, 184),
        (73, 175),
        (97, 538),
        (85, 296),
        (100, None),
        (0, None),
    ],
)
def test_table_1_4_is_the_corrected_one(p: int, dp: int | None) -> None:
    assert dp_for_hundredths(p, RULESET) == dp


def test_corrected_table_used_for_a_first_rating_9_24() -> None:
    # 5/13 = .3846 -> .38 -> -87 (the seed's typo says -97): Ru = 2000 - 87 = 1913 -> 1915.
    # (With -97: 1903 -> 1905.)
    opps = [active(f"o{i}", 2000) for i in range(13)]
    games = [game("x", f"o{i}", "1-0" if i < 5 else "0-1", round=i + 1) for i in range(13)]
    res = by_id(rate([player("x", None, games=0), *opps], [event("T", games)]))
    assert res["x"].rating_after == 1915
    assert codes(res["x"])["performance"] == "feda-1996 9.24"


# ---------------------------------------------------------------- 9.3 (seed's example)


def test_seed_example_9_3_weighted_average_2100() -> None:
    # Ru 2280 over 5, 2100 over 10, 1920 over 5 (50% each, Ru = Ra, 9.22):
    # Rn = (2280x5 + 2100x10 + 1920x5) / 20 = 42000 / 20 = 2100 (9.3).
    priors = tuple(
        [prior(2280, 0.5, date(1999, 9, 1), tournament="P1")] * 5
        + [prior(2100, 0.5, date(2000, 3, 1), tournament="P2")] * 10
    )
    opps = [active(f"o{i}", 1920) for i in range(5)]
    games = [game("x", f"o{i}", "1/2-1/2", round=i + 1) for i in range(5)]
    res = by_id(
        rate([player("x", None, games=0, prior_results=priors), *opps], [event("T", games)])
    )
    assert res["x"].rating_after == 2100
    assert codes(res["x"])["first_rating"] == "feda-1996 9.3"


# ---------------------------------------------------------------- 9.5x rated change


def test_swiss_cap_350_and_rounding_to_5_9_51_9_55() -> None:
    # R 2100, K 25 (10 games). 2000 win, 2200 draw, 2600 loss (counts as 2450, 9.51),
    # 1950 win. Ra = (2000+2200+2450+1950)/4 = 2150; D = -50 -> .43; We = 1.72; W = 2.5;
    # +.78 x 25 = 19.5 -> 2119.5 -> 2120 (9.55). (Uncapped: Ra 2187.5, D -88 -> .38,
    # We 1.52, +24.5 -> 2124.5 -> 2125.)
    games = [
        game("a", "b", "1-0", round=1),
        game("c", "a", "1/2-1/2", round=2),
        game("d", "a", "1-0", round=3),
        game("a", "e", "1-0", round=4),
    ]
    ps = [
        active("a", 2100, games=10),
        active("b", 2000),
        active("c", 2200),
        active("d", 2600),
        active("e", 1950),
    ]
    res = by_id(rate(ps, [event("T", games)]))
    assert res["a"].rating_after == 2120
    assert res["a"].expected == pytest.approx(1.72)
    assert codes(res["a"])["difference_capped"] == "feda-1996 9.51"


def test_round_robin_tournament_average_9_53() -> None:
    # A 2300, B 2200, C 2100, D 2000, K 25. Ra = 2150, n = 3; We = PD x (n+1) - 0.5.
    # A 2.5: D 150 -> .70, We 2.80-.5 = 2.30, +.2x25 = 5 -> 2305
    # B 1.5: D 50 -> .57, We 2.28-.5 = 1.78, -.28x25 = -7 -> 2193 -> 2195
    # C 1.5: D -50 -> .43, We 1.72-.5 = 1.22, +7 -> 2107 -> 2105
    # D 0.5: D -150 -> .30, We 1.20-.5 = .70, -5 -> 1995
    # (The FIDE Rc would give A: Rc 2200, D 100 -> .64, We 1.92, +14.5 -> 2314.5 -> 2315.)
    ps = [active(i, r, games=10) for i, r in zip("abcd", (2300, 2200, 2100, 2000), strict=True)]
    res = by_id(rate(ps, [event("RR", RR4, system="round_robin")]))
    assert [res[p].rating_after for p in "abcd"] == [2305, 2195, 2105, 1995]
    assert [res[p].expected for p in "abcd"] == pytest.approx([2.30, 1.78, 1.22, 0.70])
    assert codes(res["a"])["tournament_change"] == "feda-1996 9.53"


def rr6_players(**u_kw: object) -> list[PlayerInput]:
    return [
        *(active(i, r, games=10) for i, r in zip("abcd", (2300, 2200, 2100, 2000), strict=True)),
        *rr6_unrated(**u_kw),
    ]


def test_round_robin_with_unrated_9_21b_9_25_9_53() -> None:
    # Scores: A 4 (.80 -> 240), B 3.5 (.70 -> 149), C 2.5 (0), D 2 (.40 -> -72), U 2, V 1.
    # 9.21b: Ra = 2150 - (317/4) x 5/6 = 2083.9583; n = 5, We = PD x 6 - 0.5; K 25.
    # A: D 216.04 -> 216 -> .78, We 4.68-.5 = 4.18, W 4, -.18x25 = -4.5 -> 2295.5 -> 2295
    # B: D 116.04 -> 116 -> .66, We 3.96-.5 = 3.46, W 3.5, +1 -> 2201 -> 2200
    # C: D 16.04 -> 16 -> .52, We 3.12-.5 = 2.62, W 2.5, -3 -> 2097 -> 2095
    # D: D -83.96 -> -84 -> .38, We 2.28-.5 = 1.78, W 2, +5.5 -> 2005.5 -> 2005
    # U: .40 -> -72, Ru = Ra - 72 x 5/6 = 2023.9583 (9.25).
    # V: his 1 point is his win over unrated U; 0 of 4 against A, B, C, D (rated). Ra rates
    # the whole field, so 9.1 reads his score over all his games (decided reading, amended
    # after issue 25): 1/5 = .20 -> -240; Ru = Ra - 240 x 5/6 = 1883.9583 (9.25); 5 games,
    # under 9 (8.14). Ra is unchanged (it is the rated players' figure).
    res = by_id(rate(rr6_players(), [event("RR", RR6, system="round_robin")]))
    assert [res[p].rating_after for p in "abcd"] == [2295, 2200, 2095, 2005]
    assert [res[p].expected for p in "abcd"] == pytest.approx([4.18, 3.46, 2.62, 1.78])
    assert res["u"].performance == pytest.approx(2023.9583, abs=1e-3)
    assert res["v"].performance == pytest.approx(1883.9583, abs=1e-3)
    assert res["v"].rating_after is None
    assert "no_performance" not in codes(res["v"])
    assert codes(res["v"])["performance"] == "feda-1996 9.25"
    assert "unrated_low_score" not in codes(res["v"])
    assert codes(res["u"])["performance"] == "feda-1996 9.25"
    assert codes(res["u"])["first_rating_pending"] == "feda-1996 8.14"


def test_round_robin_unrated_pooled_rounded_to_5_9_32() -> None:
    # U earlier: 6 draws against 2100s (Ru 2100). Rn = (2100x6 + 2023.9583x5)/11 = 2065.44
    # -> 2065 (nearest 5).
    priors = tuple([prior(2100, 0.5, date(2000, 5, 1), tournament="old")] * 6)
    res = by_id(rate(rr6_players(prior_results=priors), [event("RR", RR6, system="round_robin")]))
    assert res["u"].rating_after == 2065


@pytest.mark.parametrize(
    ("white", "black", "result", "ks", "after"),
    [
        # 2250 with 40 games: K 10 (reached 2200); 2150 with 40: K 15. White loses:
        # D 100 -> .64: -6.4 -> 2243.6 -> 2245; +.64 x 15 = 9.6 -> 2159.6 -> 2160.
        (
            {"rating": 2250, "games": 40},
            {"rating": 2150, "games": 40},
            "0-1",
            (10, 15),
            (2245, 2160),
        ),
        # 2150 once over 2200 (reached_2200): K 10; 2300 with 20 games: K 25. White wins:
        # D -150 -> .30: +7 -> 2157 -> 2155; -.70 x 25 = -17.5 -> 2282.5 -> 2285.
        (
            {"rating": 2150, "games": 40, "reached_2200": True},
            {"rating": 2300, "games": 20},
            "1-0",
            (10, 25),
            (2155, 2285),
        ),
    ],
)
def test_k_9_53a(white: dict, black: dict, result: str, ks: tuple, after: tuple) -> None:
    w = active("w", white.pop("rating"), **white)
    b = active("b", black.pop("rating"), **black)
    res = by_id(rate([w, b], [event("T", [game("w", "b", result, round=1)])]))
    assert (res["w"].k, res["b"].k) == ks
    assert (res["w"].rating_after, res["b"].rating_after) == after
    assert res["b"].k_article == "feda-1996 9.53a"


# ---------------------------------------------------------------- 7.x composition


def test_unrated_scoring_zero_discarded_half_point_kept_7_1() -> None:
    # Round robin r1..r4 (2000, K 25) + U. Rated games among themselves all drawn.
    # U draws r1, loses to r2, r3, r4: 1/2 point is not zero -> counted (FIDE would discard).
    # p: r1 2/4 = .50 -> 0; r2..r4 2.5/4 = .625 -> .63 -> 95. dpa = 285/4 = 71.25;
    # Ra = 2000 - 71.25 x 4/5 = 1943. D = 57 -> .58; We = .58 x 5 - .5 = 2.4.
    # r1: W 2 -> -.4 x 25 = -10 -> 1990; r2: W 2.5 -> +2.5 -> 2002.5 -> 2005.
    # U: .5/4 = .125 -> .13 -> -322; Ru = 1943 - 322 x 4/5 = 1685.4 (9.25).
    ids = ["r1", "r2", "r3", "r4"]
    games = [game(a, b, "1/2-1/2", round=1) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    half = [
        game("u", "r1", "1/2-1/2", round=2),
        game("u", "r2", "0-1", round=3),
        game("r3", "u", "1-0", round=4),
        game("u", "r4", "0-1", round=5),
    ]
    ps = [active(i, 2000, games=10) for i in ids] + [player("u", None, games=0)]
    result = rate(ps, [event("RR", games + half, system="round_robin")])
    res = by_id(result)
    assert not result.excluded
    assert (res["r1"].rating_after, res["r2"].rating_after) == (1990, 2005)
    # Ru 1685.4 is his first performance, under 1805: ignored (9.31).
    ru = [d.params["ru"] for d in res["u"].notes if d.code == "performance"]
    assert ru == [pytest.approx(1685.4)]
    assert codes(res["u"])["first_performance_ignored"] == "feda-1996 9.31"
    # The same with U scoring zero: discarded (7.1).
    zero = [game(g.white, g.black, "0-1" if g.white == "u" else "1-0", round=g.round) for g in half]
    result = rate(ps, [event("RR", games + zero, system="round_robin")])
    assert sorted(e.article for e in result.excluded) == ["feda-1996 7.1"] * 4
    assert by_id(result)["r1"].rating_after == 2000


def test_unrated_needs_four_rated_opponents_in_a_swiss_7_42() -> None:
    # Three rated opponents: enough for FIDE 6.42, not for FEDA 7.42.
    ps = [player("x", None, games=0)] + [active(f"r{i}", 2000) for i in range(4)]
    three = [game("x", f"r{i}", "1/2-1/2", round=i + 1) for i in range(3)]
    res = by_id(rate(ps, [event("T", three)]))
    assert codes(res["x"])["too_few_rated_opponents"] == "feda-1996 7.42"
    assert res["x"].performance is None
    four = [*three, game("x", "r3", "1/2-1/2", round=4)]
    assert by_id(rate(ps, [event("T", four)]))["x"].performance == pytest.approx(2000)


def test_match_games_after_the_decision_are_rated() -> None:
    # FEDA has no article like FIDE 6.5: all 4 games count. A 2200 K 25 (10 games):
    # W 3 of 4, We 2.00, +25 -> 2225.
    result = rate(
        [active("a", 2200, games=10), active("b", 2200, games=10)],
        [event("M", MATCH4, system="match", match_length=4)],
    )
    assert by_id(result)["a"].rating_after == 2225
    assert not result.excluded


# ---------------------------------------------------------------- first ratings 9.3x, 9.4


@pytest.mark.parametrize(
    ("opponents", "expected", "code", "article"),
    [
        # 4/9 = .44 -> -43. Against 1900s: 1857 -> 1855 (9.32).
        (1900, 1855, "first_rating", "feda-1996 9.3"),
        # Against 1850s: 1807 -> 1805, at least 1805: published (9.32).
        (1850, 1805, "first_rating", "feda-1996 9.3"),
        # Against 1840s: 1797, a first performance under 1805: ignored (9.31).
        (1840, None, "first_performance_ignored", "feda-1996 9.31"),
    ],
)
def test_first_rating_1805_9_31_9_32(
    opponents: int, expected: int | None, code: str, article: str
) -> None:
    opps = [active(f"o{i}", opponents) for i in range(9)]
    games = [game("x", f"o{i}", "1-0" if i < 4 else "0-1", round=i + 1) for i in range(9)]
    res = by_id(rate([player("x", None, games=0), *opps], [event("T", games)]))
    assert res["x"].rating_after == expected
    assert codes(res["x"])[code] == article


@pytest.mark.parametrize(
    ("prior_end", "expected"),
    [
        # Semestral lists: the same and the next 3 periods -> from 1 Jan 1999 (8.14c).
        # Rn = (2100x5 + 2000x5)/10 = 2050.
        (date(1999, 1, 1), 2050),
        (date(1998, 12, 31), None),
    ],
)
def test_pool_window_8_14c(prior_end: date, expected: int | None) -> None:
    priors = tuple([prior(2100, 0.5, prior_end, tournament="old")] * 5)
    opps, games = x_meets(5, 2000, "1/2-1/2")
    res = by_id(rate([newcomer(priors), *opps], [event("T", games)]))
    assert res["x"].rating_after == expected


def championship(n_games: list[tuple[str, str]], **kw: object):
    games = [game("n", opp, result, round=i + 1) for i, (opp, result) in enumerate(n_games)]
    return event("CH", games, national_championship=True, **kw)


def test_national_championship_at_least_1805_9_4() -> None:
    # N plays every round (5) with 2.5 points: opponents 1805 (rated) and four unrated,
    # counted as 1800: Ra = (1805 + 4 x 1800)/5 = 1801; 50% -> 1801 -> 1800 (nearest 5);
    # 9.4 gives 1805. (Without 9.4: one rated opponent, 7.42 -> nothing.)
    ps = [player("n", None, games=0), active("r", 1805)]
    ps += [player(u, None, games=0) for u in ("m", "q", "s", "t")]
    t = championship(
        [("r", "1/2-1/2"), ("m", "1-0"), ("q", "0-1"), ("s", "1/2-1/2"), ("t", "1/2-1/2")]
    )
    res = by_id(rate(ps, [t]))
    assert res["n"].rating_after == 1805
    assert res["n"].status == "new"
    assert codes(res["n"])["championship_floor"] == "feda-1996 9.4"


def test_national_championship_performance_above_1805_9_4() -> None:
    # 4.5/5 against 2000, 2000, 2000 and two unrated (1800): Ra = 9600/5 = 1920;
    # 2 points above 50% = 4 half points: 1920 + 50 = 1970 (9.23), more than 1805.
    ps = [player("n", None, games=0), *(active(f"r{i}", 2000) for i in range(3))]
    ps += [player(u, None, games=0) for u in ("m", "q")]
    t = championship([("r0", "1-0"), ("r1", "1-0"), ("r2", "1/2-1/2"), ("m", "1-0"), ("q", "1-0")])
    assert by_id(rate(ps, [t]))["n"].rating_after == 1970


def test_national_championship_round_missed_no_9_4() -> None:
    # The same 2.5/5 but one game lost by forfeit: not every round played -> no 9.4.
    ps = [player("n", None, games=0), active("r", 1805)]
    ps += [player(u, None, games=0) for u in ("m", "q", "s", "t")]
    games = [
        game("n", opp, res, round=i + 1)
        for i, (opp, res) in enumerate(
            [("r", "1/2-1/2"), ("m", "1-0"), ("s", "1/2-1/2"), ("t", "1/2-1/2")]
        )
    ]
    games.append(game("n", "q", "0-1", round=5, forfeit=True))
    res = by_id(rate(ps, [event("CH", games, national_championship=True)]))
    assert res["n"].rating_after is None


# ---------------------------------------------------------------- 9.56, 8.2x


def test_foreign_player_counts_with_fide_rating_9_56() -> None:
    # A 2000 (K 25) beats F (not affiliated, FIDE 2200) and draws B 2000:
    # Ra = (2200 + 2000)/2 = 2100; D -100 -> .36; We .72; W 1.5; +.78 x 25 = 19.5
    # -> 2019.5 -> 2020. F is not rated by FEDA.
    ps = [
        active("a", 2000, games=10),
        active("b", 2000, games=10),
        player("f", None, affiliated=False, fide_rating=2200),
    ]
    games = [game("a", "f", "1-0", round=1), game("b", "a", "1/2-1/2", round=2)]
    res = by_id(rate(ps, [event("T", games)]))
    assert res["a"].rating_after == 2020
    assert res["f"].rating_after is None
    assert codes(res["f"])["not_affiliated"] == "feda-1996 9.56"


def test_below_1805_out_of_list_8_21() -> None:
    # 1810 (K 25) loses to 1830: D -20 -> .47; -.47 x 25 = -11.75 -> 1798.25 -> 1800 < 1805:
    # out of list "(0)". The winner: +11.75 -> 1841.75 -> 1840.
    res = by_id(
        rate(
            [active("a", 1810, games=5), active("b", 1830, games=5)],
            [event("T", [game("a", "b", "0-1", round=1)])],
        )
    )
    assert res["a"].status == "out_of_list" and res["a"].rating_after is None
    assert codes(res["a"])["out_of_list"] == "feda-1996 8.21"
    assert res["b"].rating_after == 1840


@pytest.mark.parametrize(
    ("kw", "code", "article"),
    [
        ({"games_last_12_months": 3}, "inactive_flagged", "feda-1996 8.22b"),
        (
            {"games_last_12_months": 0, "status": "inactive", "inactive_lists": 3},
            "inactive_separate",
            "feda-1996 8.22b",
        ),
    ],
)
def test_inactivity_8_22(kw: dict, code: str, article: str) -> None:
    res = by_id(rate([player("p", 2200, **kw)], []))
    assert res["p"].status == "inactive"
    assert codes(res["p"])[code] == article


def test_every_decision_cites_feda_1996() -> None:
    result = rate(rr6_players(), [event("RR", RR6, system="round_robin")])
    articles = [d.article for r in result.players for d in r.notes]
    articles += [e.article for e in result.excluded]
    assert articles and all(a.startswith("feda-1996 ") for a in articles)


def test_double_round_robin_expects_each_cycle_9_53() -> None:
    # Decision: We = cycles x (PD x (n+1) - 0.5), n = 3 opponents. Cycle 1 = RR4, cycle 2 all
    # drawn. A 2300 (K 25): D 150 -> .70, We = 2 x (2.80 - .5) = 4.60; W 2.5 + 1.5 = 4;
    # -.6 x 25 = -15 -> 2285. B 2200: D 50 -> .57, We = 2 x (2.28 - .5) = 3.56; W 3;
    # -.56 x 25 = -14 -> 2186 -> 2185.
    second = [game(g.black, g.white, "1/2-1/2", round=g.round + 3) for g in RR4]
    ps = [active(i, r, games=10) for i, r in zip("abcd", (2300, 2200, 2100, 2000), strict=True)]
    res = by_id(rate(ps, [event("DRR", RR4 + second, system="double_round_robin")]))
    assert (res["a"].expected, res["b"].expected) == pytest.approx((4.60, 3.56))
    assert (res["a"].rating_after, res["b"].rating_after) == (2285, 2185)


@pytest.mark.parametrize(
    ("kw", "rated"),
    [
        ({"kind": "regional_championship"}, True),
        ({"kind": "provincial_championship"}, True),
        ({"kind": "national_championship"}, True),
        ({}, False),
    ],
)
def test_regional_championship_with_3_rated_7_33(kw: dict, rated: bool) -> None:
    # 6 players, 3 rated: 7.31 needs 4 (under 10 players); a regional championship 3 (7.33).
    ids = ["r0", "r1", "r2", "u0", "u1", "u2"]
    ps = [active(i, 2000) for i in ids[:3]] + [player(i, None, games=0) for i in ids[3:]]
    games = [game(a, b, "1/2-1/2", round=1) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    result = rate(ps, [event("RR", games, system="round_robin", **kw)])
    assert by_id(result)["r0"].games == (5 if rated else 0)
    if not rated:
        assert {e.article for e in result.excluded} == {"feda-1996 7.31"}
