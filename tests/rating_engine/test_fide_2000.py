"""fide-2000: hand-worked periods, one per rule, each naming its article.

Expected figures are worked by hand in the comments from the seed's tables 10.1a (p -> dp)
and 10.1b (D -> PD), never produced by the code under test. Table B rows used below:
0-3 .50, 18-25 .53, 62-68 .59, 69-76 .60, 77-83 .61, 99-106 .64, 138-145 .69, 180-188 .74,
198-206 .76, 257-267 .82, 291-302 .85, 345-357 .89, 392-411 .92.
Table A rows: .80 240, .70 149, .50 0, .40 -72, .33 -125, .20 -240, .11 -351.
"""

from __future__ import annotations

from datetime import date

import pytest
from engine_games import MATCH4, RR4, RR6, rr6_unrated
from engine_helpers import active, by_id, codes, game, player, prior
from fide_2000_helpers import rate, swiss

from rating_engine.errors import EngineInputError
from rating_engine.types import Game, PlayerInput

# ---------------------------------------------------------------- 10.3 (seed's example)


def test_seed_example_10_3_weighted_average_2270() -> None:
    # Ru 2280 over 5 games, 2400 over 10, 2000 over 5 (each a 50% score, so Ru = Rc, 10.22):
    # Rn = (2280x5 + 2400x10 + 2000x5) / 20 = 45400 / 20 = 2270 (10.3).
    priors = tuple(
        [prior(2280, 0.5, date(2000, 2, 10), tournament="P1")] * 5
        + [prior(2400, 0.5, date(2000, 6, 10), tournament="P2")] * 10
    )
    opponents = [active(f"o{i}", 2000) for i in range(5)]
    x = player("x", None, games=0, prior_results=priors)
    games = [game("x", f"o{i}", "1/2-1/2", round=i + 1) for i in range(5)]
    res = by_id(rate([x, *opponents], [swiss("T", games)]))
    assert res["x"].rating_after == 2270
    assert res["x"].status == "new"
    assert codes(res["x"])["first_rating"] == "fide-2000 10.3"


# ---------------------------------------------------------------- 10.51-10.56 rated change


def test_swiss_difference_capped_at_350_before_averaging() -> None:
    # A 2300, K 15 (100 games, under 2400). Opponents 2200 (win), 2400 (draw), 1900 (win: a
    # difference of 400 counts as 350, i.e. as 1950, 10.51), 2350 (loss).
    # Rc = (2200 + 2400 + 1950 + 2350) / 4 = 2225; D = 75 -> .60 (69-76); We = .60 x 4 = 2.40
    # W = 2.5; change = 15 x 0.10 = 1.5; Rn = 2301.5 -> 2302 (10.56, halves up).
    # (Without the cap: Rc 2212.5, D 87.5 -> 88 -> .62, We 2.48, +0.3 -> 2300.)
    a = active("a", 2300)
    opps = [active("b", 2200), active("c", 2400), active("d", 1900), active("e", 2350)]
    games = [
        game("a", "b", "1-0", round=1),
        game("c", "a", "1/2-1/2", round=2),
        game("a", "d", "1-0", round=3),
        game("e", "a", "1-0", round=4),
    ]
    res = by_id(rate([a, *opps], [swiss("T", games)]))
    assert res["a"].rating_after == 2302
    assert res["a"].change == 2
    assert res["a"].expected == pytest.approx(2.40)
    assert res["a"].k == 15
    assert codes(res["a"])["difference_capped"] == "fide-2000 10.51"


@pytest.mark.parametrize(
    ("white", "black", "result", "k_white", "k_black", "after_white", "after_black"),
    [
        # 2000 with 10 games: K 25 (new player); 2000 with 100 games: K 15. Equal ratings:
        # PD .50. White wins: +0.5 x 25 = 12.5 -> 2012.5 -> 2013; -0.5 x 15 = -7.5 -> 1993.
        ({"rating": 2000, "games": 10}, {"rating": 2000, "games": 100}, "1-0", 25, 15, 2013, 1993),
        # 2450 with 100 games: K 10; 2450 with 20 games: K 25 (under 30 games first).
        # +5 -> 2455; -12.5 -> 2437.5 -> 2438.
        ({"rating": 2450, "games": 100}, {"rating": 2450, "games": 20}, "1-0", 10, 25, 2455, 2438),
        # 2300 once over 2400 (reached_2400): K 10 for ever; 2300 never: K 15.
        # +5 -> 2305; -7.5 -> 2292.5 -> 2293.
        (
            {"rating": 2300, "games": 100, "reached_2400": True},
            {"rating": 2300, "games": 100},
            "1-0",
            10,
            15,
            2305,
            2293,
        ),
    ],
)
def test_k_10_54a(
    white: dict,
    black: dict,
    result: str,
    k_white: int,
    k_black: int,
    after_white: int,
    after_black: int,
) -> None:
    w = active("w", white.pop("rating"), **white)
    b = active("b", black.pop("rating"), **black)
    res = by_id(rate([w, b], [swiss("T", [game("w", "b", result, round=1)])]))
    assert (res["w"].k, res["b"].k) == (k_white, k_black)
    assert (res["w"].rating_after, res["b"].rating_after) == (after_white, after_black)
    assert res["w"].k_article == "fide-2000 10.54a"


def test_round_robin_all_rated_10_51() -> None:
    # A 2390, B 2310, C 2200, D 2100, all K 15. Ra = 9000/4 = 2250, n = 3.
    # A 2.5: Rc = (2250x4 - 2390)/3 = 2203.33, D 186.67 -> 187 -> .74, We 2.22, +.28x15 = 4.2
    #   -> 2394.2 -> 2394
    # B 1.5: Rc = 6690/3 = 2230, D 80 -> .61, We 1.83, -.33x15 = -4.95 -> 2305.05 -> 2305
    # C 1.5: Rc = 6800/3 = 2266.67, D -66.67 -> -67 -> .41, We 1.23, +.27x15 = 4.05 -> 2204
    # D 0.5: Rc = 6900/3 = 2300, D -200 -> .24, We .72, -.22x15 = -3.3 -> 2096.7 -> 2097
    ps = [active("a", 2390), active("b", 2310), active("c", 2200), active("d", 2100)]
    res = by_id(rate(ps, [swiss("RR", RR4, system="round_robin")]))
    assert {k: v.rating_after for k, v in res.items()} == {
        "a": 2394,
        "b": 2305,
        "c": 2204,
        "d": 2097,
    }
    assert res["b"].expected == pytest.approx(1.83)


# Round robin of 6: A 2300, B 2200, C 2100, D 2000 rated; U, V unrated (10.21b, 10.25).
# Scores: A 4 (.80 -> 240), B 3.5 (.70 -> 149), C 2.5 (.50 -> 0), D 2 (.40 -> -72), U 2, V 1.
def rr6_players(**u_kw: object) -> list[PlayerInput]:
    return [
        active("a", 2300, reached_2400=True),  # K 10
        active("b", 2200),  # K 15
        active("c", 2100),
        active("d", 2000),
        *rr6_unrated(**u_kw),
    ]


def test_round_robin_with_unrated_10_21b_10_25() -> None:
    # 10.21b: Rar = (2300+2200+2100+2000)/4 = 2150; dpa = (240+149+0-72)/4 = 79.25;
    # n = 5 opponents; Ra = 2150 - 79.25 x 5/6 = 2083.9583.  Ra(n+1) = 12503.75.
    # A: Rc = (12503.75-2300)/5 = 2040.75, D 259.25 -> 259 -> .82, We 4.10, W 4,
    #    K 10 x -.10 = -1 -> 2299
    # B: Rc = 2060.75, D 139.25 -> 139 -> .69, We 3.45, W 3.5, 15 x .05 = .75 -> 2200.75 -> 2201
    # C: Rc = 2080.75, D 19.25 -> 19 -> .53, We 2.65, W 2.5, 15 x -.15 = -2.25 -> 2097.75 -> 2098
    # D: Rc = 2100.75, D -100.75 -> -101 -> .36, We 1.80, W 2, 15 x .2 = 3 -> 2003
    # U: 2/5 = .40 -> -72; Ru = Ra + dp x n/(n+1) = 2083.9583 - 60 = 2023.9583 (10.25)
    # V: 1 point, his win over unrated U; 0 of 4 against A, B, C, D (rated). In a round robin
    # Ra rates the whole field, so 10.1 reads his score over all his games (decided reading,
    # amended after issue 25): 1/5 = .20 -> -240; Ru = Ra - 240 x 5/6 = 2083.9583 - 200
    # = 1883.9583 (10.25). (The first reading, 0 of 4 against rated: no performance.)
    # U and V: 5 games, under 9 (9.14).
    res = by_id(rate(rr6_players(), [swiss("RR", RR6, system="round_robin")]))
    assert [res[p].rating_after for p in "abcd"] == [2299, 2201, 2098, 2003]
    assert [res[p].expected for p in "abcd"] == pytest.approx([4.10, 3.45, 2.65, 1.80])
    assert res["u"].rating_after is None and res["u"].status == "unrated"
    assert res["u"].performance == pytest.approx(2023.9583, abs=1e-3)
    assert res["v"].performance == pytest.approx(1883.9583, abs=1e-3)
    assert "no_performance" not in codes(res["v"])
    assert codes(res["v"])["performance"] == "fide-2000 10.25"
    assert codes(res["u"])["performance"] == "fide-2000 10.25"
    assert codes(res["u"])["first_rating_pending"] == "fide-2000 9.14"
    assert codes(res["a"])["tournament_average"] == "fide-2000 10.21b"


def test_round_robin_unrated_pooled_with_earlier_period_10_3() -> None:
    # U had 6 draws against 2100s in an earlier period: Ru = 2100 (10.22).
    # Rn = (2100 x 6 + 2023.9583 x 5) / 11 = 22719.79 / 11 = 2065.44 -> 2065 (10.32).
    priors = tuple([prior(2100, 0.5, date(2000, 5, 1), tournament="old")] * 6)
    res = by_id(rate(rr6_players(prior_results=priors), [swiss("RR", RR6, system="round_robin")]))
    assert res["u"].rating_after == 2065
    assert res["u"].status == "new"


# ---------------------------------------------------------------- 10.2 Swiss first ratings

NINE = [1900, 2100, 1950, 2050, 2000, 2000, 1850, 2150, 2000]  # average 2000


def nine_games(pid: str, wins: int, draws: int = 0) -> list[Game]:
    out = []
    for i in range(9):
        result = "1-0" if i < wins else ("1/2-1/2" if i < wins + draws else "0-1")
        out.append(game(pid, f"r{i}", result, round=i + 1))
    return out


def nine_opponents() -> list[PlayerInput]:
    return [active(f"r{i}", r) for i, r in enumerate(NINE)]


def test_swiss_above_50_percent_10_23_and_unrated_opponent_6_4() -> None:
    # X 6/9 against rated opponents averaging 2000 (10.21a): 1.5 points = 3 half points above
    # 50%: Ru = 2000 + 3 x 12.5 = 2037.5; 9 games: Rn = 2037.5 -> 2038 (10.32).
    # His game against unrated Y is not counted (6.4).
    games = nine_games("x", 6) + [game("y", "x", "1-0", round=10)]
    ps = [player("x", None, games=0), player("y", None, games=0), *nine_opponents()]
    result = rate(ps, [swiss("T", games)])
    res = by_id(result)
    assert res["x"].rating_after == 2038
    assert codes(res["x"])["performance"] == "fide-2000 10.23"
    assert any(
        e.white == "y" and e.black == "x" and e.article == "fide-2000 6.4" for e in result.excluded
    )


def test_swiss_below_50_percent_10_24() -> None:
    # Z 3/9 = .333 -> .33 -> dp -125: Ru = 2000 - 125 = 1875 -> published 1875.
    res = by_id(
        rate([player("z", None, games=0), *nine_opponents()], [swiss("T", nine_games("z", 3))])
    )
    assert res["z"].rating_after == 1875
    assert codes(res["z"])["performance"] == "fide-2000 10.24"


def test_first_performance_under_1801_ignored_10_31() -> None:
    # W 1/9 = .11 -> -351: Ru = 1649, his first performance, under 1801: ignored.
    res = by_id(
        rate([player("w", None, games=0), *nine_opponents()], [swiss("T", nine_games("w", 1))])
    )
    assert res["w"].rating_after is None
    assert codes(res["w"])["first_performance_ignored"] == "fide-2000 10.31"


def test_rn_under_1801_not_published_10_32() -> None:
    # First performance 1900 (5 draws against 1900s), then Ru 1649 over 9 games:
    # Rn = (1900x5 + 1649x9)/14 = 24341/14 = 1738.6 -> 1739, under 1801: not published.
    priors = tuple([prior(1900, 0.5, date(2000, 8, 1), tournament="P")] * 5)
    w = player("w", None, games=0, prior_results=priors)
    res = by_id(rate([w, *nine_opponents()], [swiss("T", nine_games("w", 1))]))
    assert res["w"].rating_after is None
    assert codes(res["w"])["first_rating_below_floor"] == "fide-2000 10.32"
    assert res["w"].performance == pytest.approx(24341 / 14)


@pytest.mark.parametrize(
    ("prior_end", "lists_per_year", "expected"),
    [
        # Quarterly: the same and the 7 following periods -> from 1 Jan 1999 (9.14c).
        # Kept: Rn = (2100x5 + 2000x5)/10 = 2050.
        (date(1999, 1, 1), 4, 2050),
        (date(1998, 12, 31), 4, None),  # too old: 5 games only
        # Monthly lists (9.4): 7 periods back from October 2000 -> 1 March 2000.
        (date(2000, 3, 1), 12, 2050),
        (date(2000, 2, 29), 12, None),
    ],
)
def test_pool_window_9_14c(prior_end: date, lists_per_year: int, expected: int | None) -> None:
    priors = tuple([prior(2100, 0.5, prior_end, tournament="old")] * 5)
    x = player("x", None, games=0, prior_results=priors)
    opps = [active(f"o{i}", 2000) for i in range(5)]
    games = [game("x", f"o{i}", "1/2-1/2", round=i + 1) for i in range(5)]
    res = by_id(
        rate([x, *opps], [swiss("T", games)], parameters={"lists_per_year": lists_per_year})
    )
    assert res["x"].rating_after == expected
    if expected is None:
        assert codes(res["x"])["pool_too_old"] == "fide-2000 9.14c"


def test_unrated_needs_three_rated_opponents_6_42() -> None:
    # Two rated opponents only: not counted. Three: counted (Ru 2000, pending 9.14).
    two = [game("x", "r0", "1/2-1/2", round=1), game("x", "r1", "1/2-1/2", round=2)]
    ps = [player("x", None, games=0), active("r0", 2000), active("r1", 2000), active("r2", 2000)]
    res = by_id(rate(ps, [swiss("T", two)]))
    assert codes(res["x"])["too_few_rated_opponents"] == "fide-2000 6.42"
    assert res["x"].performance is None
    three = [*two, game("x", "r2", "1/2-1/2", round=3)]
    res = by_id(rate(ps, [swiss("T", three)]))
    assert "too_few_rated_opponents" not in codes(res["x"])
    assert res["x"].performance == pytest.approx(2000)


# ---------------------------------------------------------------- 6.x composition, 5.1


def all_play_all(ids: list[str], cycles: int = 1) -> list[Game]:
    out = []
    for c in range(cycles):
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                out.append(
                    game(a, b, "1/2-1/2", round=c + 1)
                    if c % 2 == 0
                    else game(b, a, "1/2-1/2", round=c + 1)
                )
    return out


def test_unrated_scoring_half_point_discarded_6_1() -> None:
    # U draws r1 and loses the rest: 1/2 point -> his games and his opponents' against him are
    # discarded. The rest is a 4-player all-rated round robin of draws: no change.
    ids = ["r1", "r2", "r3", "r4"]
    games = all_play_all(ids) + [
        game("u", "r1", "1/2-1/2", round=5),
        game("u", "r2", "0-1", round=6),
        game("r3", "u", "1-0", round=7),
        game("u", "r4", "0-1", round=8),
    ]
    ps = [active(i, 2000) for i in ids] + [player("u", None, games=0)]
    result = rate(ps, [swiss("RR", games, system="round_robin")])
    res = by_id(result)
    assert sorted(e.article for e in result.excluded) == ["fide-2000 6.1"] * 4
    assert res["r1"].games == 3 and res["r1"].rating_after == 2000
    assert codes(res["u"])["unrated_low_score"] == "fide-2000 6.1"


@pytest.mark.parametrize(
    ("n_rated", "n_unrated", "cycles", "kw", "article"),
    [
        (4, 9, 1, {}, "fide-2000 6.3"),  # 13 players, 4 rated: under a third
        (3, 2, 1, {}, "fide-2000 6.31"),  # 5 players (under 10), 3 rated: 4 needed
        (4, 1, 2, {"system": "double_round_robin"}, "fide-2000 6.32"),  # 5 players: 6 needed
        (2, 7, 1, {"national_championship": True}, "fide-2000 6.33"),  # 2 men rated: 3 needed
    ],
)
def test_round_robin_composition_fails_6_3x(
    n_rated: int, n_unrated: int, cycles: int, kw: dict, article: str
) -> None:
    rated_ids = [f"r{i}" for i in range(n_rated)]
    unrated_ids = [f"u{i}" for i in range(n_unrated)]
    ps = [active(i, 2000, sex="M") for i in rated_ids]
    ps += [player(i, None, games=0, sex="M") for i in unrated_ids]
    kw.setdefault("system", "round_robin")
    result = rate(ps, [swiss("RR", all_play_all(rated_ids + unrated_ids, cycles), **kw)])
    assert result.excluded and {e.article for e in result.excluded} == {article}
    assert all(r.games == 0 for r in result.players)


@pytest.mark.parametrize(
    ("n_rated", "sex"),
    [(3, "M"), (2, "F")],  # 3 men, or 2 women in a women's championship (6.33)
)
def test_national_championship_rated_with_3_men_or_2_women_6_33(n_rated: int, sex: str) -> None:
    # 9 players: 6.31 would need 4 rated; the championship needs only 3 (2 women).
    rated_ids = [f"r{i}" for i in range(n_rated)]
    unrated_ids = [f"u{i}" for i in range(9 - n_rated)]
    ps = [active(i, 2000, sex=sex) for i in rated_ids]
    ps += [player(i, None, games=0, sex=sex) for i in unrated_ids]
    t = swiss(
        "RR",
        all_play_all(rated_ids + unrated_ids),
        system="round_robin",
        national_championship=True,
    )
    result = rate(ps, [t])
    assert not result.excluded
    assert by_id(result)["r0"].games == 8


@pytest.mark.parametrize(
    ("kind", "sex", "n_rated", "rated"),
    [
        # 6.33 "(o 2 mujeres en torneos femeninos)": a women's national championship is rated
        # with 2 rated players, whatever the sexes recorded (here none is).
        ("womens_national_championship", "", 2, True),
        ("womens_national_championship", "", 1, False),
        # The national championship as a kind: 3 rated men, as the flag.
        ("national_championship", "M", 3, True),
        ("national_championship", "M", 2, False),
    ],
)
def test_championship_kinds_6_33(kind: str, sex: str, n_rated: int, rated: bool) -> None:
    # 8 players: 6.31 would need 4 rated; the kind's need applies instead.
    rated_ids = [f"r{i}" for i in range(n_rated)]
    unrated_ids = [f"u{i}" for i in range(8 - n_rated)]
    ps = [active(i, 2000, sex=sex) for i in rated_ids]
    ps += [player(i, None, games=0, sex=sex) for i in unrated_ids]
    t = swiss("RR", all_play_all(rated_ids + unrated_ids), system="round_robin", kind=kind)
    result = rate(ps, [t])
    if rated:
        assert not result.excluded
        assert by_id(result)["r0"].games == 7
    else:
        assert {e.article for e in result.excluded} == {"fide-2000 6.33"}
        assert all(r.games == 0 for r in result.players)


def test_round_robin_with_a_forfeit_rated_as_swiss_6_43_5_1() -> None:
    # A 2400 (K 10) beats B, C, D (2000 each); B wins against C by forfeit (5.1, not rated):
    # rated as a Swiss (6.43), so the 350 cap applies: each 2000 counts as 2050,
    # D = 350 -> .89, We = 2.67, +.33 x 10 = 3.3 -> 2403.
    # (As a round robin, uncapped: D 400 -> .92, We 2.76, +2.4 -> 2402.)
    games = [
        game("a", "b", "1-0", round=1),
        game("c", "a", "0-1", round=2),
        game("a", "d", "1-0", round=3),
        game("b", "c", "1-0", round=3, forfeit=True),
        game("b", "d", "1/2-1/2", round=2),
        game("c", "d", "1/2-1/2", round=1),
    ]
    ps = [active("a", 2400), active("b", 2000), active("c", 2000), active("d", 2000)]
    result = rate(ps, [swiss("RR", games, system="round_robin")])
    res = by_id(result)
    assert res["a"].rating_after == 2403
    assert codes(res["b"])["round_robin_as_swiss"] == "fide-2000 6.43"
    assert [(e.white, e.black, e.article) for e in result.excluded] == [("b", "c", "fide-2000 5.1")]


def test_round_robin_uncapped_10_51() -> None:
    # The same games all played over the board: a round robin, no cap.
    # A: Rc = 2000, D 400 -> .92 (392-411), We 2.76, +.24 x 10 = 2.4 -> 2402.
    games = [
        game("a", "b", "1-0", round=1),
        game("c", "a", "0-1", round=2),
        game("a", "d", "1-0", round=3),
        game("b", "c", "1-0", round=3),
        game("b", "d", "1/2-1/2", round=2),
        game("c", "d", "1/2-1/2", round=1),
    ]
    ps = [active("a", 2400), active("b", 2000), active("c", 2000), active("d", 2000)]
    res = by_id(rate(ps, [swiss("RR", games, system="round_robin")]))
    assert res["a"].rating_after == 2402


def test_match_games_after_decision_not_rated_6_5() -> None:
    # 4-game match, A wins games 1-3 (3 > 2: decided), B wins game 4: not rated (6.5).
    # A 2200 K 15: W 3 of 3, We 1.5, +1.5 x 15 = 22.5 -> 2222.5 -> 2223; B -> 2177.5 -> 2178.
    # (Counting game 4: W 3 of 4, We 2, +15 -> 2215.)
    result = rate(
        [active("a", 2200), active("b", 2200)], [swiss("M", MATCH4, system="match", match_length=4)]
    )
    res = by_id(result)
    assert (res["a"].rating_after, res["b"].rating_after) == (2223, 2178)
    assert [(e.round, e.article) for e in result.excluded] == [(4, "fide-2000 6.5")]


# ---------------------------------------------------------------- 9.x lists


def test_below_1801_out_of_list_9_21() -> None:
    # 1810 with 5 games (K 25) loses to 1810: -12.5 -> 1797.5 -> 1798 < 1801: out of list.
    # The winner: +12.5 -> 1822.5 -> 1823.
    result = rate(
        [active("a", 1810, games=5), active("b", 1810, games=5)],
        [swiss("T", [game("a", "b", "0-1", round=1)])],
    )
    res = by_id(result)
    assert res["a"].status == "out_of_list" and res["a"].rating_after is None
    assert res["a"].change == -12
    assert codes(res["a"])["out_of_list"] == "fide-2000 9.21"
    assert res["b"].rating_after == 1823


@pytest.mark.parametrize(
    ("kw", "status", "code", "article"),
    [
        # 2 rated games in the year: inactive, first of the 7 flagged lists (9.23a/b).
        ({"games_last_12_months": 2}, "inactive", "inactive_flagged", "fide-2000 9.23b"),
        # already flagged in 7 lists: no longer in the list (9.23).
        (
            {"games_last_12_months": 0, "status": "inactive", "inactive_lists": 7},
            "inactive",
            "inactive_not_listed",
            "fide-2000 9.23",
        ),
        # inactive, 4 games in the year: active again (9.23c).
        (
            {"games_last_12_months": 4, "status": "inactive", "inactive_lists": 2},
            "rated",
            "active_again",
            "fide-2000 9.23c",
        ),
    ],
)
def test_inactivity_9_23(kw: dict, status: str, code: str, article: str) -> None:
    res = by_id(rate([player("p", 2200, **kw)], []))
    assert res["p"].status == status
    assert codes(res["p"])[code] == article
    assert res["p"].rating_after == 2200


def test_first_rated_after_the_tournament_counts_unrated_for_opponents_10_4() -> None:
    # P's rating is published from 1 Dec 2000; the tournament ended 15 Nov: P is rated with
    # 2000 (K 25, 0 games): win vs 2000 -> +12.5 -> 2013; for Q, P is unrated (6.41).
    p = player("p", 2000, games=0, rated_since=date(2000, 12, 1), games_last_12_months=9)
    q = active("q", 2000)
    result = rate([p, q], [swiss("T", [game("p", "q", "1-0", round=1)])])
    res = by_id(result)
    assert res["p"].rating_after == 2013
    assert res["q"].games == 0 and res["q"].rating_after == 2000
    assert [e.article for e in result.excluded] == ["fide-2000 6.41"]


def test_every_decision_cites_fide_2000() -> None:
    result = rate(rr6_players(), [swiss("RR", RR6, system="round_robin")])
    articles = [d.article for r in result.players for d in r.notes]
    articles += [r.k_article for r in result.players if r.k is not None]
    assert articles and all(a.startswith("fide-2000 ") for a in articles)


def test_bad_parameters_and_system() -> None:
    with pytest.raises(EngineInputError, match="lists_per_year"):
        rate([], [], parameters={"lists_per_year": 6})
    with pytest.raises(EngineInputError, match="system"):
        rate(
            [active("a", 2000), active("b", 2000)],
            [swiss("T", [game("a", "b", "1-0")], system="scheveningen")],
        )
