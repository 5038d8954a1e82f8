"""feda-1996: the decided readings of issue 16, hand-worked like test_feda_1996.py (its tables,
same helpers); split from it by concern."""

from __future__ import annotations

from datetime import date

import pytest
from engine_games import first_performance_pool, newcomer, rr10_issue25, x_meets
from engine_helpers import active, by_id, codes, game, player, prior
from feda_1996_helpers import event, rate

# ---------------------------------------------------------------- issue 16: decided readings
# RULESETS.md "Decided readings": 9.1 (no performance from 0 / 100%), 9.1c (D ending in .5),
# 9.31 (the first performance ever), 9.4 with 9.31, unknown games_last_12_months (8.22a).


def test_no_performance_from_0_percent_against_rated_9_1() -> None:
    # X pooled 9 draws against 2000s (Ru 2000, 9.22). Now he loses to r0-r3 (2000 each: four
    # rated opponents, 7.42) and beats unrated Y: 1 point, so 7.1 keeps him. 0 of 4 against
    # rated opponents: d(p) is indeterminate (9.1): nothing pooled, Rn = 2000 (9.3).
    # (Before: d(p) -677, Ru 1323 over 4: Rn = (18000 + 5292)/13 = 1791.7 -> 1790, under
    # 1805: not published.)
    priors = tuple([prior(2000, 0.5, date(2000, 3, 1), tournament="P")] * 9)
    ps = [player("x", None, games=0, prior_results=priors), player("y", None, games=0)]
    ps += [active(f"r{i}", 2000) for i in range(4)]
    games = [game("x", f"r{i}", "0-1", round=i + 1) for i in range(4)]
    games.append(game("y", "x", "0-1", round=5))
    res = by_id(rate(ps, [event("T", games)]))
    assert (res["x"].rating_after, res["x"].status) == (2000, "new")
    assert codes(res["x"])["no_performance"] == "feda-1996 9.1"


def test_difference_ending_in_half_rounded_on_its_size_9_1c() -> None:
    # A 2000 (K 25, 10 games) draws B 2033 and C 2032: Ra = 2032.5, D = -32.5: size 33, L
    # column .45; We .90, W 1: 25 x .10 = 2.5 -> 2002.5 -> 2005 (nearest 5, halves up, 9.55).
    # (D rounded towards +inf, -32 -> .46: We .92, +2 -> 2002 -> 2000.)
    # P 2065 (K 25) draws E 2032 and F 2033: D = +32.5 -> 33 -> .55 (= 1 - .45); We 1.10:
    # -2.5 -> 2062.5 -> 2065.
    ps = [
        active(i, r, games=10)
        for i, r in (("a", 2000), ("b", 2033), ("c", 2032), ("p", 2065), ("e", 2032), ("f", 2033))
    ]
    games = [
        game("a", "b", "1/2-1/2", round=1),
        game("c", "a", "1/2-1/2", round=2),
        game("p", "e", "1/2-1/2", round=1),
        game("f", "p", "1/2-1/2", round=2),
    ]
    res = by_id(rate(ps, [event("T", games)]))
    assert (res["a"].expected, res["a"].rating_after) == (pytest.approx(0.90), 2005)
    assert (res["p"].expected, res["p"].rating_after) == (pytest.approx(1.10), 2065)


@pytest.mark.parametrize(
    ("with_old", "expected", "code"),
    [
        # Window: the same and the next 3 half-years, from 1 Jan 1999 (8.14c). OLD (ended
        # 1 Dec 1998, 5 draws against 2000s, Ru 2000) was his first performance; P1 (5 draws
        # against 1800s, Ru 1800 < 1805) is not "the first" (9.31):
        # Rn = (1800 x 5 + 2000 x 5)/10 = 1900 (9.3, 9.32).
        (True, 1900, "first_performance_gone"),
        # Without OLD, P1 is the first: ignored (9.31); 5 games < 9 (8.14): no rating yet.
        (False, None, "first_performance_ignored"),
    ],
)
def test_first_performance_is_the_first_ever_9_31(
    with_old: bool, expected: int | None, code: str
) -> None:
    priors = first_performance_pool(with_old=with_old)
    opps, games = x_meets(5, 2000, "1/2-1/2")
    res = by_id(rate([newcomer(priors), *opps], [event("T", games)]))
    assert res["x"].rating_after == expected
    assert codes(res["x"])[code] == "feda-1996 9.31"


def test_national_championship_pooled_with_9_31_9_4() -> None:
    # N's first performance P (5 draws against 1700s, May 2000): Ru 1700, under 1805.
    # The National Championship: 5 rounds against r0-r4 (2000 each), 2.5 points: 9.4 applies;
    # Rc = 2000, 50% -> Ru 2000 (9.22). Pooled per 9.3 with 9.31: P is ignored, so
    # Rn = 2000 x 5 / 5 = 2000, more than 1805 -> 2000.
    # (Pooling P as well: (1700 x 5 + 2000 x 5)/10 = 1850.)
    priors = tuple([prior(1700, 0.5, date(2000, 5, 1), tournament="P")] * 5)
    ps = [player("n", None, games=0, prior_results=priors)]
    ps += [active(f"r{i}", 2000) for i in range(5)]
    results = ["1-0", "1-0", "1/2-1/2", "0-1", "0-1"]
    games = [game("n", f"r{i}", r, round=i + 1) for i, r in enumerate(results)]
    res = by_id(rate(ps, [event("CH", games, national_championship=True)]))
    assert (res["n"].rating_after, res["n"].status) == (2000, "new")
    assert codes(res["n"])["first_performance_ignored"] == "feda-1996 9.31"
    assert codes(res["n"])["championship_floor"] == "feda-1996 9.4"


def test_national_championship_at_100_percent_gives_only_1805_9_1_9_4() -> None:
    # N wins all 5 rounds against r0-r4 (2000 each): 9.4 applies (every round, >= 50%), but
    # 100% has no d(p) (9.1, decided reading): no performance, nothing pooled; 9.4 gives 1805.
    # (With 9.23 read at 100%: 2000 + 5 half points x 12.5 = 2062.5 -> 2065.)
    ps = [player("n", None, games=0), *(active(f"r{i}", 2000) for i in range(5))]
    games = [game("n", f"r{i}", "1-0", round=i + 1) for i in range(5)]
    res = by_id(rate(ps, [event("CH", games, national_championship=True)]))
    assert (res["n"].rating_after, res["n"].status) == (1805, "new")
    assert res["n"].performance is None
    assert codes(res["n"])["no_performance"] == "feda-1996 9.1"
    assert codes(res["n"])["championship_floor"] == "feda-1996 9.4"


@pytest.mark.parametrize(
    ("kw", "status", "code", "article"),
    [
        # No figure: unknown, not zero: 1 game in the period, no judgement (8.22a).
        ({}, "rated", "inactivity_unknown", "feda-1996 8.22a"),
        # A known 0: 0 + 1 < 4: inactive, shown in the next 3 lists (8.22a/b).
        ({"games_last_12_months": 0}, "inactive", "inactive_flagged", "feda-1996 8.22b"),
    ],
)
def test_unknown_games_last_12_months_is_not_zero_8_22(
    kw: dict, status: str, code: str, article: str
) -> None:
    # P 2200 (K 15) draws Q 2200: no change.
    res = by_id(
        rate(
            [player("p", 2200, **kw), active("q", 2200)],
            [event("T", [game("p", "q", "1/2-1/2", round=1)])],
        )
    )
    assert (res["p"].status, res["p"].rating_after) == (status, 2200)
    assert codes(res["p"])[code] == article


# ---------------------------------------------------------------- issue 25: 9.1 amended
def test_round_robin_score_over_all_games_decides_9_1_issue_25() -> None:
    # RULESETS.md "Decided readings", feda-1996 9.1 (amended): in a round robin with unrated
    # players Ra (9.21b) gives every player of the field a rating, so the 0 / 100% test reads
    # his score over all his games in it. The round robin of 10 (engine_games.rr10_issue25):
    # r0-r3 rated 2000, X and U1-U5 unrated.
    # 7.3: 4 of 10 rated, at least a third; 7.31 (fewer than 10) does not apply; 7.1 discards
    #   only a zero score: X (1 1/2) and U1-U5 stay.
    # 9.21b: each rated player scores 4 1/2 of 9: p .50 -> d(p) 0; dpa = 0; Rar = 2000;
    #   Ra = 2000.
    # X: 0 of 4 against r0-r3, 1 1/2 of 5 against U1-U5: 1 1/2 of 9, p = .1667 -> .17 ->
    #   d(p) -273 (table A); n = 9: Ru = Ra + d(p) x n/(n+1) = 2000 - 245.7 = 1754.3 (9.25).
    # His pool: P, 9 draws against 2000s (March 2000, inside the 8.14c window): Ru 2000 (9.22).
    # 9.3: Rn = (2000 x 9 + 1754.3 x 9) / 18 = 1877.15 -> 1875 (nearest 5, 9.32), >= 1805.
    # (The first reading, 0 of 4 against rated: no performance, Rn = 2000.)
    priors = tuple([prior(2000, 0.5, date(2000, 3, 1), tournament="P")] * 9)
    ps = [player("x", None, games=0, prior_results=priors)]
    ps += [active(f"r{i}", 2000, games=10) for i in range(4)]
    ps += [player(f"u{i}", None, games=0) for i in range(1, 6)]
    res = by_id(rate(ps, [event("RR", rr10_issue25(), system="round_robin")]))
    notes = {d.code: d for d in res["x"].notes}
    assert notes["tournament_average"].params["ra"] == 2000
    assert notes["performance"].article == "feda-1996 9.25"
    assert notes["performance"].params["ru"] == pytest.approx(1754.3)
    assert "no_performance" not in notes
    assert res["x"].performance == pytest.approx(1877.15)
    assert (res["x"].rating_after, res["x"].status) == (1875, "new")
