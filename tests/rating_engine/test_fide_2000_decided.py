"""fide-2000: the decided readings of issue 16, hand-worked like test_fide_2000.py (its tables,
same helpers); split from it by concern."""

from __future__ import annotations

from datetime import date

import pytest
from engine_games import first_performance_pool, newcomer, rr10_issue25, x_meets
from engine_helpers import active, by_id, codes, game, player, prior
from fide_2000_helpers import rate, swiss

from rating_engine.types import Game, PlayerInput

# ---------------------------------------------------------------- issue 16: decided readings
# RULESETS.md "Decided readings": 10.1 (no performance from 0 / 100%), 10.1b (D ending in .5),
# 10.31 (the first performance ever), unknown games_last_12_months (9.23a).


def three_rated_and_one_unrated(result_vs_rated: str) -> tuple[list[PlayerInput], list[Game]]:
    """X (unrated) meets r0-r2 (2000 each, three rated opponents: 6.42 satisfied) with one
    result, and beats unrated Y (so his score is over 1/2 and 6.1 keeps him)."""
    ps = [player("y", None, games=0), *(active(f"r{i}", 2000) for i in range(3))]
    games = [game("x", f"r{i}", result_vs_rated, round=i + 1) for i in range(3)]
    games.append(game("x", "y", "1-0", round=4))
    return ps, games


@pytest.mark.parametrize("result_vs_rated", ["0-1", "1-0"])
def test_no_performance_from_0_or_100_percent_against_rated_10_1(result_vs_rated: str) -> None:
    # X pooled 9 draws against 2000s last quarter: Ru 2000 over 9 games (10.22).
    # This period he scores 0 of 3 (or 3 of 3) against rated r0-r2 and beats unrated Y (6.1
    # keeps him: 1 or 4 points). 10.1: for 0 or 100% dp is indeterminate: nothing of this
    # tournament is pooled, so Rn = 2000 x 9 / 9 = 2000 (10.3).
    # (Before: 0/3 read dp -677, Ru 1323 over 3: Rn = (18000 + 3969)/12 = 1830.75 -> 1831;
    #  3/3 by 10.23, 3 half points above 50%: Ru 2000 + 37.5 = 2037.5:
    #  Rn = (18000 + 6112.5)/12 = 2009.4 -> 2009.)
    priors = tuple([prior(2000, 0.5, date(2000, 8, 1), tournament="P")] * 9)
    ps, games = three_rated_and_one_unrated(result_vs_rated)
    x = player("x", None, games=0, prior_results=priors)
    res = by_id(rate([x, *ps], [swiss("T", games)]))
    assert (res["x"].rating_after, res["x"].status) == (2000, "new")
    assert res["x"].performance == pytest.approx(2000)
    assert codes(res["x"])["no_performance"] == "fide-2000 10.1"
    assert "unrated_low_score" not in codes(res["x"])


def test_pooled_tournament_at_0_percent_gives_no_performance_10_1() -> None:
    # Stored pool: P1 (9 draws against 2000s, Ru 2000) and P2 (3 losses against 2100s: 0%,
    # no performance, 10.1). This period 5 draws against 2000s (Ru 2000).
    # Rn = (2000 x 9 + 2000 x 5)/14 = 2000. (Pooling P2 with dp -677: Ru 1423 over 3,
    # Rn = (28000 + 4269)/17 = 1898.2 -> 1898.)
    priors = tuple(
        [prior(2000, 0.5, date(2000, 5, 1), tournament="P1")] * 9
        + [prior(2100, 0.0, date(2000, 8, 1), tournament="P2")] * 3
    )
    opps, games = x_meets(5, 2000, "1/2-1/2")
    res = by_id(rate([newcomer(priors), *opps], [swiss("T", games)]))
    assert res["x"].rating_after == 2000
    assert codes(res["x"])["no_performance"] == "fide-2000 10.1"


def test_difference_ending_in_half_rounded_on_its_size_10_1b() -> None:
    # A 2000 (K 15) draws B 2033 and C 2032: Rc = 2032.5, D = -32.5: its size 32.5 -> 33,
    # read in the L column: .45 (33-39 -> H .55). We = 2 x .45 = .90, W 1,
    # 15 x .10 = 1.5 -> 2001.5 -> 2002 (10.56).  (Rounded towards +inf: -32 -> .46, We .92,
    # +1.2 -> 2001.)
    # P 2065 (K 15) draws E 2032 and F 2033: Rc 2032.5, D = +32.5 -> 33 -> H .55; the two
    # readings of one difference sum to 1. We 1.10, W 1, -1.5 -> 2063.5 -> 2064.
    ps = [
        active("a", 2000),
        active("b", 2033),
        active("c", 2032),
        active("p", 2065),
        active("e", 2032),
        active("f", 2033),
    ]
    games = [
        game("a", "b", "1/2-1/2", round=1),
        game("c", "a", "1/2-1/2", round=2),
        game("p", "e", "1/2-1/2", round=1),
        game("f", "p", "1/2-1/2", round=2),
    ]
    res = by_id(rate(ps, [swiss("T", games)]))
    assert res["a"].expected == pytest.approx(0.90)
    assert res["a"].rating_after == 2002
    assert res["p"].expected == pytest.approx(1.10)
    assert res["p"].rating_after == 2064


@pytest.mark.parametrize(
    ("with_old", "expected", "code"),
    [
        # OLD (ended 1 Dec 1998, before the window that starts 1 Jan 1999, 9.14c) was his
        # first performance ever: 5 draws against 2000s, Ru 2000. P1 (5 draws against 1800s,
        # Ru 1800 < 1801) is not "the first" (10.31): Rn = (1800 x 5 + 2000 x 5)/10 = 1900.
        (True, 1900, "first_performance_gone"),
        # Without OLD, P1 is his first performance: under 1801, ignored (10.31); 5 games left,
        # fewer than 9 (9.14): no rating yet.
        (False, None, "first_performance_ignored"),
    ],
)
def test_first_performance_is_the_first_ever_10_31(
    with_old: bool, expected: int | None, code: str
) -> None:
    priors = first_performance_pool(with_old=with_old)
    opps, games = x_meets(5, 2000, "1/2-1/2")
    res = by_id(rate([newcomer(priors), *opps], [swiss("T", games)]))
    assert res["x"].rating_after == expected
    assert codes(res["x"])[code] == "fide-2000 10.31"


@pytest.mark.parametrize(
    ("kw", "status", "code", "article"),
    [
        # No figure: unknown, not zero. 1 rated game in the period: no judgement (9.23a).
        ({}, "rated", "inactivity_unknown", "fide-2000 9.23a"),
        # An inactive player with no figure stays as he was (no judgement either way).
        (
            {"status": "inactive", "inactive_lists": 2},
            "inactive",
            "inactivity_unknown",
            "fide-2000 9.23a",
        ),
        # A known 0: 0 + 1 = 1 rated game in the year, fewer than 4: inactive (9.23a/b).
        ({"games_last_12_months": 0}, "inactive", "inactive_flagged", "fide-2000 9.23b"),
    ],
)
def test_unknown_games_last_12_months_is_not_zero_9_23(
    kw: dict, status: str, code: str, article: str
) -> None:
    # P 2200 (K 15) draws Q 2200: PD .50, no change.
    p = player("p", 2200, **kw)
    res = by_id(rate([p, active("q", 2200)], [swiss("T", [game("p", "q", "1/2-1/2", round=1)])]))
    assert (res["p"].status, res["p"].rating_after) == (status, 2200)
    assert codes(res["p"])[code] == article
    if code == "inactivity_unknown":
        assert "inactive" not in codes(res["p"]) and "inactive_flagged" not in codes(res["p"])


def test_unknown_figure_with_4_games_in_the_period_is_a_year_of_4_9_23c() -> None:
    # An inactive P without the figure plays 4 rated games in the period: the year has at
    # least 4 whatever the missing figure is: active again (9.23c). All draws at equal
    # ratings: no change.
    p = player("p", 2200, status="inactive", inactive_lists=1)
    opps = [active(f"o{i}", 2200) for i in range(4)]
    games = [game("p", f"o{i}", "1/2-1/2", round=i + 1) for i in range(4)]
    res = by_id(rate([p, *opps], [swiss("T", games)]))
    assert res["p"].status == "rated"
    assert codes(res["p"])["active_again"] == "fide-2000 9.23c"
    assert "inactivity_unknown" not in codes(res["p"])


# ---------------------------------------------------------------- issue 25: 10.1 amended
def test_round_robin_score_over_all_games_decides_10_1_issue_25() -> None:
    # RULESETS.md "Decided readings", fide-2000 10.1 (amended): in a round robin with unrated
    # players Ra (10.21b) gives every player of the field a rating, so the 0 / 100% test reads
    # his score over all his games in it. The round robin of 10 (engine_games.rr10_issue25):
    # r0-r3 rated 2000, X and U1-U5 unrated.
    # 6.3: 4 of 10 rated, at least a third; 6.31 does not apply (10 players); 6.1 keeps X
    #   (1 1/2 points, over 1/2) and U1-U5.
    # 10.21b: each rated player scores 4 1/2 of 9: p .50 -> dp 0 (table A); dpa = 0;
    #   Rar = 2000; Ra = 2000 - 0 x 9/10 = 2000.
    # X: 0 of 4 against r0-r3, 1 1/2 of 5 against U1-U5: 1 1/2 of 9, p = .1667 -> .17 ->
    #   dp -273; n = 9 opponents: Ru = Ra + dp x n/(n+1) = 2000 - 273 x 9/10 = 1754.3 (10.25).
    # His pool: P, 9 draws against 2000s last quarter: Ru 2000 (10.22), his first performance
    #   (not under 1801, 10.31).
    # 10.3: Rn = (2000 x 9 + 1754.3 x 9) / 18 = 1877.15 -> 1877 (10.32), at least 1801: new.
    # (The first reading, 0 of 4 against rated: no performance, Rn = 2000 x 9 / 9 = 2000.)
    priors = tuple([prior(2000, 0.5, date(2000, 8, 1), tournament="P")] * 9)
    ps = [player("x", None, games=0, prior_results=priors)]
    ps += [active(f"r{i}", 2000) for i in range(4)]
    ps += [player(f"u{i}", None, games=0) for i in range(1, 6)]
    res = by_id(rate(ps, [swiss("RR", rr10_issue25(), system="round_robin")]))
    notes = {d.code: d for d in res["x"].notes}
    assert notes["tournament_average"].params["ra"] == 2000
    assert notes["performance"].article == "fide-2000 10.25"
    assert notes["performance"].params["ru"] == pytest.approx(1754.3)
    assert "no_performance" not in notes
    assert res["x"].performance == pytest.approx(1877.15)
    assert (res["x"].rating_after, res["x"].status) == (1877, "new")
