"""fide-2024: FIDE's published calculations and hand-worked cases, one per rule.

Expected values are worked by hand from table B / table A of RULESETS.md (comments show the
arithmetic), never taken from the code.
"""

from __future__ import annotations

from datetime import date

import pytest
from engine_helpers import game, period, player, prior, tournament

from rating_engine import rate_period
from rating_engine.registry import get_regulation
from rating_engine.regulations.fide_2024 import REGULATION, game_delta_milli, k_factor
from rating_engine.regulations.fide_2024.maths import youth_on
from rating_engine.types import PeriodResult, PlayerResult


def result_of(res: PeriodResult, pid: str) -> PlayerResult:
    return next(p for p in res.players if p.id == pid)


def codes(p: PlayerResult) -> set[str]:
    return {n.code for n in p.notes}


# --------------------------------------------------------------------- published calculations


def _published(
    rating: int, k: int, opponents: list[int], results: list[float]
) -> tuple[float, float, float]:
    w = sum(results)
    exp = delta = 0
    for opp, s in zip(opponents, results, strict=True):
        e, d = game_delta_milli(rating, opp, s)
        exp += e
        delta += d
    return w, exp / 1000, k * delta / 1000


def test_fide_published_carlsen_march_2010() -> None:
    """8.3: FIDE's individual calculation, Carlsen, list of March 2010 (2810, K 10).
    D: 2810-2662=148 .70, -2657=153 .70, -2641=169 .72, -2696=114 .66,
    -2708=102 .64, -2790=20 .53, -2749=61 .58, -2723=87 .62, -2788=22 .53, -2720=90 .62,
    -2712=98 .63, -2739=71 .60, -2675=135 .68: We = 8.21; W = 8.5; 10 x 0.29 = +2.9."""
    opponents = [2662, 2657, 2641, 2696, 2708, 2790, 2749, 2723, 2788, 2720, 2712, 2739, 2675]
    results = [0.5, 1, 1, 0.5, 0.5, 0.5, 1, 0.5, 0, 1, 1, 0.5, 0.5]
    w, we, change = _published(2810, 10, opponents, results)
    assert w == 8.5
    assert we == pytest.approx(8.21)
    assert change == pytest.approx(2.9)


def test_fide_published_4625200_july_2008() -> None:
    """8.3: player 4625200, list of July 2008 (2240, K 15). D: -2 .50, -120 .34, -49 .43,
    -11 .48, -63 .41, +88 .62, -73 .40, -69 .40, +130 .68: We 4.26; W 3.0; 15 x -1.26 = -18.9."""
    opponents = [2242, 2360, 2289, 2251, 2303, 2152, 2313, 2309, 2110]
    results = [0.5, 0.5, 0.5, 0, 0, 0.5, 0.5, 0.5, 0]
    w, we, change = _published(2240, 15, opponents, results)
    assert w == 3.0
    assert we == pytest.approx(4.26)
    assert change == pytest.approx(-18.9)


# --------------------------------------------------------------------- excluded games


def test_5_1_forfeit_and_unplayed_games_are_not_rated() -> None:
    """5.1: unplayed games (forfeits, any reason) are not rated."""
    res = rate_period(
        period(
            [player("a", 2000), player("b", 2000)],
            [tournament("T", [game("a", "b", "1-0", forfeit=True, round=1),
                              game("a", "b", "1-0", played=False, round=2)])],
        )
    )  # fmt: skip
    assert [(e.code, e.article, e.round) for e in res.excluded] == [
        ("forfeit", "fide-2024 5.1", 1),
        ("not_played", "fide-2024 5.1", 2),
    ]
    assert res.excluded[0].reason == "not played (forfeit)"
    assert result_of(res, "a").games == 0 and result_of(res, "a").change == 0


def test_6_1_individual_match_with_unrated_player_not_rated() -> None:
    """6.1: individual matches in which a player is unrated are not rated."""
    res = rate_period(
        period(
            [player("a", 2000), player("u", None, games=0)],
            [tournament("M", [game("a", "u", "1-0", round=1), game("u", "a", "1/2-1/2", round=2)],
                        system="match")],
        )
    )  # fmt: skip
    assert {(e.code, e.article) for e in res.excluded} == {("match_with_unrated", "fide-2024 6.1")}
    assert len(res.excluded) == 2


def test_6_2_games_after_fixed_length_match_decided_not_rated() -> None:
    """6.2: match of 4 games; a wins games 1-3 (3 > 4/2 after game 3): game 4 not rated.
    a (2000, K 20) vs b (2000): three games at D 0, PD .50: 20 x 3 x .5 = +30."""
    games = [game("a", "b", "1-0", round=1), game("b", "a", "0-1", round=2),
             game("a", "b", "1-0", round=3), game("b", "a", "1-0", round=4)]  # fmt: skip
    res = rate_period(
        period([player("a", 2000), player("b", 2000)],
               [tournament("M", games, system="match", match_length=4)])
    )  # fmt: skip
    assert [(e.round, e.code, e.article) for e in res.excluded] == [
        (4, "match_decided", "fide-2024 6.2")
    ]
    a = result_of(res, "a")
    assert (a.games, a.score, a.change, a.rating_after) == (3, 3.0, 30, 2030)


def test_6_2_match_not_decided_all_games_rated() -> None:
    """6.2: 2-2 after 4 games of a 4-game match: nothing is left out."""
    games = [game("a", "b", "1-0", round=1), game("b", "a", "1-0", round=2),
             game("a", "b", "1/2-1/2", round=3), game("b", "a", "1/2-1/2", round=4)]  # fmt: skip
    res = rate_period(
        period(
            [player("a", 2000), player("b", 2000)],
            [tournament("M", games, system="match", match_length=4)],
        )
    )
    assert res.excluded == ()


def test_8_3_1_unrated_vs_unrated_excluded_and_rated_counts_only_rated_opponents() -> None:
    """8.3.1: games count only against rated opponents. a (rated) vs u (unrated): counted for u's
    first rating only; u vs v (both unrated): left out."""
    res = rate_period(
        period([player("a", 2000), player("u", None, games=0), player("v", None, games=0)],
               [tournament("T", [game("a", "u", "0-1", round=1), game("u", "v", "1-0", round=2)])])
    )  # fmt: skip
    assert [(e.code, e.article) for e in res.excluded] == [("no_rated_player", "fide-2024 8.3.1")]
    a = result_of(res, "a")
    assert (a.games, a.change, a.rating_after) == (0, 0, 2000)
    assert res.games == ()  # no counted game for a rated player


# --------------------------------------------------------------------- 8.3 changes


def test_8_3_1_difference_over_400_counts_as_400() -> None:
    """8.3.1: 2700 (K 10) beats 2200 (K 20, 100 games): D 500 -> 400 -> PD .92 (392-411).
    Winner: 10 x .08 = 0.8 -> +1. Loser: 20 x (0 - .08) = -1.6 -> -2."""
    res = rate_period(
        period([player("h", 2700), player("l", 2200)], [tournament("T", [game("h", "l", "1-0")])])
    )
    h, low = result_of(res, "h"), result_of(res, "l")
    assert (h.expected, h.change, h.k) == (0.92, 1, 10)
    assert (low.expected, low.change, low.k) == (0.08, -2, 20)


def test_8_3_4_period_change_rounded_half_up_whatever_the_sign() -> None:
    """8.3.4: 2600 vs 2408 (both K 10): D 192 -> .75 / .25. Draw: 10 x (.5 - .75) = -2.5 -> -2;
    10 x (.5 - .25) = +2.5 -> +3."""
    res = rate_period(
        period(
            [player("a", 2600), player("b", 2408)], [tournament("T", [game("a", "b", "1/2-1/2")])]
        )
    )
    assert result_of(res, "a").change == -2
    assert result_of(res, "b").change == 3
    assert result_of(res, "a").rating_after == 2598


def test_8_3_2_period_sum_over_tournaments_rounded_once() -> None:
    """8.3.2 d / 8.3.4: the period change is K x sum over all games, rounded once.
    a 2000 K 20 vs b 1990 (D 10 -> .51) draws twice in two tournaments:
    20 x (-.01 - .01) = -0.4 -> 0 (rounding each -0.2 would give 0 too; check sum = -0.4)."""
    res = rate_period(period([player("a", 2000), player("b", 1990)],
                             [tournament("T1", [game("a", "b", "1/2-1/2")]),
                              tournament("T2", [game("b", "a", "1/2-1/2")])]))  # fmt: skip
    a = result_of(res, "a")
    assert (a.games, a.expected, a.change) == (2, 1.02, 0)
    assert sum(line.change for line in res.games if line.player == "a") == pytest.approx(-0.4)


# --------------------------------------------------------------------- 8.3.3 K


@pytest.mark.parametrize(
    ("kw", "k"),
    [
        (
            {"rating": 2100, "games_before": 29, "reached_2400": False, "youth": False},
            40,
        ),  # < 30 games
        (
            {"rating": 2100, "games_before": 30, "reached_2400": False, "youth": False},
            20,
        ),  # under 2400
        (
            {"rating": 2299, "games_before": 90, "reached_2400": False, "youth": True},
            40,
        ),  # youth < 2300
        (
            {"rating": 2300, "games_before": 90, "reached_2400": False, "youth": True},
            20,
        ),  # youth, not < 2300
        (
            {"rating": 2350, "games_before": 90, "reached_2400": True, "youth": False},
            10,
        ),  # reached 2400
        (
            {"rating": 2400, "games_before": 90, "reached_2400": False, "youth": False},
            10,
        ),  # at 2400
    ],
)
def test_8_3_3_k(kw: dict[str, object], k: int) -> None:
    """8.3.3: K = 40 until 30 games; 20 under 2400; 10 once 2400 reached; 40 youth under 2300."""
    assert k_factor(n=5, **kw)[0] == k  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("base_kw", "n", "k"), [(29, 20, 35), (29, 17, 40), (90, 36, 19), (90, 35, 20)]
)
def test_8_3_3_700_rule(base_kw: int, n: int, k: int) -> None:
    """8.3.3: n x K over 700 -> largest K with K x n <= 700: 40 x 20 = 800 -> 35 (35 x 20 = 700);
    40 x 17 = 680 stays 40; 20 x 36 = 720 -> 19 (684); 20 x 35 = 700 stays 20."""
    got, _, reduced = k_factor(
        rating=2000, games_before=base_kw, reached_2400=False, youth=False, n=n
    )
    assert got == k
    assert reduced == (k != (40 if base_kw < 30 else 20))


def test_8_3_3_700_rule_in_a_period() -> None:
    """8.3.3: a (2000, 10 games so far -> K 40) draws 20 games against 2000 players in the period:
    40 x 20 = 800 > 700 -> K 35, noted with the article; change 35 x 0 = 0."""
    opps = [player(f"o{i}", 2000) for i in range(20)]
    games = [game("a", f"o{i}", "1/2-1/2", round=i + 1) for i in range(20)]
    res = rate_period(period([player("a", 2000, games=10), *opps], [tournament("T", games)]))
    a = result_of(res, "a")
    assert (a.k, a.games, a.k_article) == (35, 20, "fide-2024 8.3.3")
    assert "k_700" in codes(a)


def test_8_3_3_youth_until_end_of_year_of_18th_birthday() -> None:
    """8.3.3: born 2008-06-15 -> turns 18 in 2026: K 40 for the December 2026 period,
    20 for January 2027. 2100 beats 2100: 40 x .5 = 20 / 20 x .5 = 10."""
    youth = player("y", 2100, birth_date=date(2008, 6, 15))
    dec = rate_period(period([youth, player("o", 2100)],
                             [tournament("T", [game("y", "o", "1-0")], end=date(2026, 12, 20))],
                             start=date(2026, 12, 1), end=date(2026, 12, 31)))  # fmt: skip
    jan = rate_period(period([youth, player("o", 2100)],
                             [tournament("T", [game("y", "o", "1-0")], end=date(2027, 1, 20))],
                             start=date(2027, 1, 1), end=date(2027, 1, 31)))  # fmt: skip
    assert (result_of(dec, "y").k, result_of(dec, "y").change) == (40, 20)
    assert (result_of(jan, "y").k, result_of(jan, "y").change) == (20, 10)


# --------------------------------------------------------------------- 7.2 floor and inactivity


def test_7_2_1_below_1400_listed_unrated() -> None:
    """7.2.1: 1405 (K 20) loses to 1405: 20 x (0 - .5) = -10 -> 1395 < 1400: out of list."""
    res = rate_period(
        period([player("a", 1405), player("b", 1405)], [tournament("T", [game("a", "b", "0-1")])])
    )
    a = result_of(res, "a")
    assert (a.status, a.rating_after, a.change) == ("out_of_list", None, -10)
    note = next(n for n in a.notes if n.code == "below_floor")
    assert note.article == "fide-2024 7.2.1" and "1395" in note.message


def test_7_2_2_inactive_after_a_year_without_rated_games() -> None:
    """7.2.2 a: period ends 2026-10-31; last rated game 2025-10-31 (a year ago) -> inactive;
    last game 2025-11-01 -> still active."""
    res = rate_period(period([player("old", 2000, last_game_date=date(2025, 10, 31)),
                              player("recent", 2000, last_game_date=date(2025, 11, 1))],
                             []))  # fmt: skip
    assert result_of(res, "old").status == "inactive"
    assert "inactive" in codes(result_of(res, "old"))
    assert result_of(res, "recent").status == "rated"


def test_7_2_2_the_inactivity_note_says_why_for_a_new_and_a_continuing_inactivity() -> None:
    """A rated player a year without games becomes inactive ("no rated game in one year"); a
    player already inactive whose last game is recent stays inactive for want of a game in the
    period: the note must not claim a year without games (issue 14, item 5)."""
    res = rate_period(period([player("old", 2000, last_game_date=date(2025, 10, 31)),
                              player("still", 2000, status="inactive",
                                     last_game_date=date(2026, 9, 10))],
                             []))  # fmt: skip
    [old] = [n for n in result_of(res, "old").notes if n.code == "inactive"]
    [still] = [n for n in result_of(res, "still").notes if n.code == "inactive"]
    assert result_of(res, "still").status == "inactive"
    assert "one year" in old.message and "2025-10-31" in old.message
    assert "one year" not in still.message
    assert "this period" in still.message and "2026-09-10" in still.message


def test_7_2_2_active_again_after_one_rated_game() -> None:
    """7.2.2 b: an inactive player who plays one rated game is active again."""
    res = rate_period(period([player("i", 2000, status="inactive", last_game_date=date(2024, 1, 1)),
                              player("o", 2000)],
                             [tournament("T", [game("i", "o", "1/2-1/2")])]))  # fmt: skip
    i = result_of(res, "i")
    assert i.status == "rated" and "reactivated" in codes(i)


# --------------------------------------------------------------------- 8.2 first ratings


def _five(rated: list[int], results: list[str], **kw: object) -> PlayerResult:
    players = [player("u", None, games=0, **kw)] + [player(f"r{i}", r) for i, r in enumerate(rated)]
    games = [game("u", f"r{i}", res, round=i + 1) for i, res in enumerate(results)]
    return result_of(rate_period(period(players, [tournament("T", games)])), "u")


def test_8_2_2_initial_rating_with_two_fictitious_draws() -> None:
    """8.2.2-8.2.3: opponents 1600 1700 1800 1900 2000, score 3 (1 1 1 0 0).
    Ra = (9000 + 2 x 1800) / 7 = 1800; W = 3 + 1 = 4; p = 4/7 = .571 -> .57 -> dp 50; Ru 1850."""
    u = _five([1600, 1700, 1800, 1900, 2000], ["1-0", "1-0", "1-0", "0-1", "0-1"])
    assert (u.status, u.rating_after, u.rating_before) == ("new", 1850, None)
    assert u.performance == pytest.approx(1850)
    assert next(n for n in u.notes if n.code == "first_rating").article == "fide-2024 8.2.2"


def test_8_2_3_initial_rating_at_most_2200() -> None:
    """8.2.3: five wins against 2300: Ra = (11500 + 3600) / 7 = 2157.14; W 6/7 = .857 -> .86
    -> dp 309; Ru = 2466 -> 2200."""
    u = _five([2300] * 5, ["1-0"] * 5)
    assert (u.status, u.rating_after) == ("new", 2200)
    assert "initial_max" in codes(u)


def test_8_2_3_rounding_of_ru() -> None:
    """8.2.3: 1500 1500 1500 1500 1501, score 2.5: Ra = (7501 + 3600) / 7 = 1585.857;
    W 3.5/7 = .50 -> dp 0; Ru = 1585.857 -> 1586."""
    u = _five([1500, 1500, 1500, 1500, 1501], ["1-0", "0-1", "1-0", "0-1", "1/2-1/2"])
    assert u.rating_after == 1586


def test_7_1_4_first_rating_below_1400_not_published() -> None:
    """7.1.4: five losses against 1400: Ra = (7000 + 3600) / 7 = 1514.29; W 1/7 = .143 -> .14
    -> dp -309; Ru = 1205 < 1400 -> still unrated."""
    u = _five(
        [1400] * 5, ["0-1", "0-1", "0-1", "0-1", "1/2-1/2"]
    )  # one draw: not a zero tournament
    # with the draw: W = 1.5 / 7 = .214 -> .21 -> dp -230; Ru = 1514.29 - 230 = 1284
    assert (u.status, u.rating_after) == ("unrated", None)
    note = next(n for n in u.notes if n.code == "initial_below_floor")
    assert note.article == "fide-2024 7.1.4" and "1284" in note.message


def test_7_1_4_fewer_than_five_games_stays_unrated() -> None:
    """7.1.4: four games against rated opponents are not enough."""
    u = _five([1800] * 4, ["1-0"] * 4)
    assert (u.status, u.rating_after) == ("unrated", None)
    assert "too_few_games" in codes(u)


def test_7_1_4_results_pooled_across_periods_within_26_months() -> None:
    """7.1.4: 3 earlier results + 2 now = 5. Window for a period ending 2026-10-31: 26 months,
    from 2024-09-01. Opponents 1800 x 5, score 2.5: Ra 1800, W 3.5/7 = .50, Ru 1800."""
    priors = (prior(1800, 1.0, date(2024, 9, 1)), prior(1800, 0.0, date(2025, 5, 1)),
              prior(1800, 0.5, date(2026, 1, 1)))  # fmt: skip
    u = _five([1800, 1800], ["1-0", "0-1"], prior_results=priors)
    assert (u.status, u.rating_after, u.games) == ("new", 1800, 2)


def test_7_1_4_results_older_than_26_months_dropped() -> None:
    """7.1.4: a result from 2024-08-31 is outside the 26 months ending 2026-10-31: 4 games left."""
    priors = (prior(1800, 1.0, date(2024, 8, 31)), prior(1800, 0.0, date(2025, 5, 1)),
              prior(1800, 0.5, date(2026, 1, 1)))  # fmt: skip
    u = _five([1800, 1800], ["1-0", "0-1"], prior_results=priors)
    assert (u.status, u.rating_after) == ("unrated", None)
    assert {"pool_too_old", "too_few_games"} <= codes(u)


def test_8_2_1_zero_in_first_tournament_discarded() -> None:
    """8.2.1: u loses all 5 games of T1 (his first), then scores 3/5 in T2 against 1800s.
    T1 discarded -> 5 games: Ra = (9000 + 3600) / 7 = 1800; W 4/7 = .57 -> dp 50; Ru 1850.
    (Had T1 counted: 10 games, W 4/12 = .33 -> -125; Ra = (18000 + 3600) / 12 = 1800 -> 1675.)"""
    rated = [player(f"r{i}", 1800) for i in range(5)]
    t1 = tournament(
        "T1", [game("u", f"r{i}", "0-1", round=i + 1) for i in range(5)], end=date(2026, 10, 5)
    )
    t2 = tournament("T2", [game(f"r{i}", "u", r, round=i + 1)
                           for i, r in enumerate(["0-1", "0-1", "0-1", "1-0", "1-0"])],
                    end=date(2026, 10, 25))  # fmt: skip
    u = result_of(rate_period(period([player("u", None, games=0), *rated], [t2, t1])), "u")
    assert (u.status, u.rating_after, u.games) == ("new", 1850, 5)
    assert (
        next(n for n in u.notes if n.code == "zero_first_tournament").article == "fide-2024 8.2.1"
    )


def test_8_2_4_rated_for_himself_unrated_for_opponents() -> None:
    """8.2.4: n got his first rating (1900) in the list of 2026-10-01; tournament T0 ended
    2026-09-25 and is rated only now: n is rated in it (2000 opponent: D -100 -> .36; win:
    K 40 x .64 = +25.6 -> 26), but o does not count the game (n is unrated for him)."""
    res = rate_period(
        period([player("n", 1900, games=5, rated_since=date(2026, 10, 1)), player("o", 2000)],
               [tournament("T0", [game("n", "o", "1-0")], end=date(2026, 9, 25))])
    )  # fmt: skip
    n, o = result_of(res, "n"), result_of(res, "o")
    assert (n.games, n.change, n.k) == (1, 26, 40)
    assert "rated_after_first_list" in codes(n)
    assert (o.games, o.change) == (0, 0)


def test_explain_agrees_and_gives_lines() -> None:
    p = period([player("a", 2000), player("b", 1990)], [tournament("T", [game("a", "b", "1-0")])])
    ex = REGULATION.explain(p, "a")
    assert ex.player == result_of(rate_period(p), "a")
    assert [(g.opponent, g.expected, g.change) for g in ex.games] == [
        ("b", 0.51, pytest.approx(9.8))
    ]


# --------------------------------------------------------------------- reporting dates (9.1)


@pytest.mark.parametrize(
    ("end", "allowed"),
    [
        # 9.1: "cinco días o menos desde el último día del torneo hasta el final del mes";
        # the last day itself is not counted.
        (date(2026, 11, 25), True),  # 30-day month: 26-30 Nov left, exactly 5 days
        (date(2026, 11, 24), False),  # 25-30 Nov: 6 days
        (date(2026, 11, 27), True),  # 3 days
        (date(2026, 11, 30), True),  # last day of the month: 0 days
        (date(2026, 12, 26), True),  # 31-day month: 27-31 Dec, 5 days
        (date(2026, 12, 25), False),  # 6 days
        (date(2027, 2, 23), True),  # 28-day February: 24-28 Feb, 5 days
        (date(2027, 2, 22), False),
        (date(2028, 2, 24), True),  # leap February: 25-29 Feb, 5 days
        (date(2028, 2, 23), False),
        (date(2026, 11, 1), False),
    ],
)
def test_9_1_month_end_allowance_five_days(end: date, allowed: bool) -> None:
    assert REGULATION.month_end_allowance(end) is allowed


@pytest.mark.parametrize("ruleset", ["fide-2000", "feda-1996", "fce", "cnxc-2000"])
def test_9_1_allowance_only_in_fide_2024(ruleset: str) -> None:
    # None of the other originals has a month-end allowance (fide-2000 9.13/9.43, feda-1996
    # 8.13, fce 9.1, cnxc-2000 4.1).

    regulation = get_regulation(ruleset)
    assert regulation.month_end_allowance_days == 0
    assert regulation.month_end_allowance(date(2026, 11, 30)) is False
    assert REGULATION.month_end_allowance_days == 5


def test_bulk_youth_age_is_the_articles_and_agrees_with_the_per_player_k() -> None:
    # 8.3.3: K 40 "until the end of the year in which they turn 18". The bulk path's state
    # query reads the age from this fact; the per-player path must agree at its edges.
    bulk = REGULATION.bulk
    assert bulk is not None and bulk.youth_age is not None
    assert (bulk.youth_age.value, bulk.youth_age.article) == (18, "fide-2024 8.3.3")
    p2026 = period([], [], start=date(2026, 12, 1), end=date(2026, 12, 31))
    assert youth_on(player("a", 1500, birth_date=date(2008, 12, 31)), p2026)
    assert not youth_on(player("a", 1500, birth_date=date(2007, 12, 31)), p2026)
