"""cnxc-2000: hand-worked periods, one per rule, each naming its article.

Expected figures are worked by hand from Tabela I (p -> D(p), with 0.34 -> -117) and
Tabela II (its own ranges, >= 737 -> .995) as printed in the seed, never by running the code.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest
from engine_helpers import by_id, prior, rate_in
from engine_helpers import game as g

from rating_engine.errors import EngineInputError
from rating_engine.types import (
    Game,
    PeriodResult,
    PlayerInput,
    PlayerResult,
    Substitution,
    SubstitutionLink,
    TournamentInput,
)

START, END = date(2026, 1, 1), date(2026, 6, 30)
RECENT = date(2025, 5, 1)


def player(pid: str, rating: int | None, games: int = 60, **kw: object) -> PlayerInput:
    kw.setdefault("last_game_date", RECENT if rating is not None else None)
    return PlayerInput(id=pid, rating=rating, games=games, **kw)  # type: ignore[arg-type]


def comp(
    tid: str,
    games: Sequence[Game],
    kind: str = "",
    end: date = date(2026, 5, 31),
    norm: bool = False,
    substitutions: Sequence[Substitution] = (),
    winner: str | None = None,
) -> TournamentInput:
    return TournamentInput(
        id=tid,
        system="round_robin",
        end_date=end,
        kind=kind,
        norm_event=norm,
        games=tuple(games),
        substitutions=tuple(substitutions),
        winner=winner,
    )


def rate(
    players: Sequence[PlayerInput], tournaments: Sequence[TournamentInput], **parameters: object
) -> PeriodResult:
    return rate_in("cnxc-2000", START, END, [*players], [*tournaments], parameters=parameters)


def articles(p: PlayerResult) -> set[str]:
    return {d.article for d in p.notes}


# ---------------------------------------------------------------- 6.4 K matrix, every cell


@pytest.mark.parametrize(
    ("rating", "games", "expected"),
    [
        # < 2000: K 40, 30, 25, 20 -> a win at D = 0 (.50) gives K / 2.
        (1999, 13, 2019),
        (1999, 25, 2014),
        (1999, 51, 2012),
        (1999, 101, 2009),
        # 2000-2200: K 30, 25, 20, 15.
        (2000, 24, 2015),
        (2200, 50, 2213),
        (2000, 100, 2010),
        (2200, 101, 2208),
        # 2201-2400: K 25, 20, 20, 15.
        (2201, 13, 2214),
        (2400, 25, 2410),
        (2201, 51, 2211),
        (2400, 101, 2408),
        # > 2400: K 20, 20, 15, 15.
        (2401, 24, 2411),
        (2401, 50, 2411),
        (2401, 100, 2409),
        (2401, 150, 2409),
    ],
)
def test_k_matrix_every_cell(rating: int, games: int, expected: int) -> None:
    # 6.4: P beats V, who has no CNXC rating but ICCF = P's rating (virtual, 5.3): D = 0 ->
    # .50, V = K x .5; Rn rounded half up (6.6): 1999 + 12.5 = 2011.5 -> 2012,
    # 2200 + 12.5 -> 2213, 2200 + 7.5 -> 2208, 2201 + 12.5 -> 2214, 2400 + 7.5 -> 2408,
    # 2401 + 7.5 -> 2409.
    result = rate(
        [player("P", rating, games), player("V", None, 0, iccf_rating=rating)],
        [comp("T", [g("P", "V", "1-0")])],
    )
    assert by_id(result)["P"].rating_after == expected


# ---------------------------------------------------------------- 5.3 virtual ratings


def test_virtual_rating_sources_in_order() -> None:
    # E 2100, 30 games -> K 25 (2000-2200, 25-50). Virtual ratings (5.3):
    #   V1 ICCF 2300 (also FPX, FIDE) -> 2300; V2 FPX 1900 (also FIDE) -> 1900;
    #   V3 FIDE 1800 -> 1800; V4 none, ordinary competition -> 1750.
    # E draws all four; Tabela II: D -200 -> .24 (198-206); +200 -> .76; +300 -> .85 (291-302);
    #   +350 -> .89 (344-358). We = 2.74, W = 2: V = 25 x (2 - 2.74) = -18.5
    #   -> 2081.5 -> 2082 (6.6, half up).
    result = rate(
        [
            player("E", 2100, 30),
            player("V1", None, 0, iccf_rating=2300, fpx_rating=2000, fide_rating=2100),
            player("V2", None, 0, fpx_rating=1900, fide_rating=2000),
            player("V3", None, 0, fide_rating=1800),
            player("V4", None, 0),
        ],
        [comp("T", [g("E", f"V{i}", "1/2-1/2") for i in range(1, 5)])],
    )
    p = by_id(result)
    assert (p["E"].rating_after, p["E"].k) == (2082, 25)
    assert p["E"].expected == pytest.approx(2.74)
    assert "cnxc-2000 5.3" in articles(p["E"])


@pytest.mark.parametrize(
    ("kind", "rating", "expected"),
    [
        # championship final: virtual 2200; E 2200 (K 20) wins: 20 x .5 = +10 -> 2210
        # (1750 would give D 450 -> .94 -> +1.2 -> 2201).
        ("championship_final", 2200, 2210),
        # team final board 1 / permanent honour: virtual 2000; E 2000 wins -> 2010
        # (1750 would give D 250 -> .81 -> +3.8 -> 2004).
        ("team_championship_final_board_1", 2000, 2010),
        ("permanent_honour", 2000, 2010),
        # any other: 1750; E 2000 wins: D 250 -> .81 (246-256): 20 x .19 = 3.8 -> 2004.
        ("open", 2000, 2004),
    ],
)
def test_virtual_rating_by_competition_kind(kind: str, rating: int, expected: int) -> None:
    result = rate(
        [player("E", rating, 60), player("N", None, 0)],
        [comp("T", [g("E", "N", "1-0")], kind=kind)],
    )
    assert by_id(result)["E"].rating_after == expected


def test_newcomer_gets_a_provisional_performance() -> None:
    # 6.2/6.3: N loses his only game to E 2200 in a championship final: p = 0 -> Tabela I
    # -677 -> Rp = 2200 - 677 = 1523, provisional (1 game < 12, 5.1).
    result = rate(
        [player("E", 2200, 60), player("N", None, 0)],
        [comp("T", [g("E", "N", "1-0")], kind="championship_final")],
    )
    n = by_id(result)["N"]
    assert (n.rating_after, n.status) == (1523, "provisional")


# ---------------------------------------------------------------- 6.3 / 5.1 provisional


def test_provisional_player_crossing_12_games_becomes_effective() -> None:
    # P: provisional 1995 after 8 games vs 1900 with 5 points (p .63 -> 95: 1995).
    # Now 6 games vs E1..E6 (2000): wins 3, loses 3. Pooled (6.3): 14 games, 8 points,
    # Rc = (8 x 1900 + 6 x 2000) / 14 = 1942.857; p = .5714 -> .57 -> 50 -> 1992.857 -> 1993,
    # effective (14 >= 12, 5.1).
    # The opponents use his list rating 1995 (6.1): D = +5 -> .51 (4-10), K 20:
    #   losers 20 x (0 - .51) = -10.2 -> 1990; winners 20 x .49 = +9.8 -> 2010.
    pool = tuple(prior(1900, 1.0 if i < 5 else 0.0) for i in range(8))
    es = [player(f"E{i}", 2000, 60) for i in range(1, 7)]
    games = [g("P", f"E{i}", "1-0" if i <= 3 else "0-1") for i in range(1, 7)]
    result = rate(
        [player("P", 1995, 8, status="provisional", prior_results=pool), *es], [comp("T", games)]
    )
    p = by_id(result)
    assert (p["P"].rating_after, p["P"].status, p["P"].games) == (1993, "rated", 6)
    assert "cnxc-2000 6.3" in articles(p["P"]) and "cnxc-2000 5.1" in articles(p["P"])
    assert [p[f"E{i}"].rating_after for i in range(1, 7)] == [1990] * 3 + [2010] * 3


def test_provisional_needs_its_earlier_games() -> None:
    with pytest.raises(EngineInputError) as err:
        rate([player("P", 1900, 3, status="provisional")], [])
    assert err.value.location == "players[0].prior_results"


# ---------------------------------------------------------------- 6.1 list ratings only


def test_changes_do_not_feed_other_competitions_of_the_period() -> None:
    # 6.1: E 1999, 13 games (K 40) wins T1 vs A (ICCF 1999) and T2 vs B (ICCF 1999):
    # both at D = 0: +20 + 20 -> 2039 (feeding 2019 into T2 would give D 20 -> .53 -> 18.8).
    result = rate(
        [
            player("E", 1999, 13),
            player("A", None, 0, iccf_rating=1999),
            player("B", None, 0, iccf_rating=1999),
        ],
        [
            comp("T1", [g("E", "A", "1-0")], end=date(2026, 2, 1)),
            comp("T2", [g("B", "E", "0-1")], end=date(2026, 4, 1)),
        ],
    )
    assert by_id(result)["E"].rating_after == 2039


# ---------------------------------------------------------------- 3.2 / 4.1 scope


def test_withdrawn_before_moving_and_unfinished_competitions_are_left_out() -> None:
    result = rate(
        [player("A", 2000), player("B", 2000)],
        [
            comp("T1", [g("A", "B", "1-0", forfeit=True)]),
            comp("T2", [g("A", "B", "1-0")], end=date(2026, 7, 2)),
        ],
    )
    p = by_id(result)
    assert (p["A"].rating_after, p["B"].rating_after) == (2000, 2000)
    assert {e.article for e in result.excluded} == {"cnxc-2000 3.2", "cnxc-2000 4.1"}


# ---------------------------------------------------------------- 7.1 norm winner


@pytest.mark.parametrize(("norm", "expected"), [(True, 2400), (False, 2386)])
def test_norm_winner_keeps_only_a_positive_change(norm: bool, expected: int) -> None:
    # W 2400, 60 games -> K 20; beats O1-O3 (2000), loses to O4: W = 3;
    # D = 400 -> .92 (393-411), We = 3.68: V = 20 x (3 - 3.68) = -13.6.
    # Winner (3 points, O4 has 1) of a norm competition: V < 0 not applied (7.1) -> 2400;
    # otherwise 2386.4 -> 2386.  O4: 20 x (1 - .08) = +18.4 -> 2018; O1: -1.6 -> 1998.
    os_ = [player(f"O{i}", 2000, 60) for i in range(1, 5)]
    games = [g("W", f"O{i}", "1-0") for i in range(1, 4)] + [g("O4", "W", "1-0")]
    result = rate([player("W", 2400, 60), *os_], [comp("T", games, norm=norm)])
    p = by_id(result)
    assert p["W"].rating_after == expected
    assert ("cnxc-2000 7.1" in articles(p["W"])) is norm
    assert (p["O4"].rating_after, p["O1"].rating_after) == (2018, 1998)


def test_norm_tie_needs_the_winner_named() -> None:
    games = [g("A", "B", "1/2-1/2")]
    with pytest.raises(EngineInputError) as err:
        rate([player("A", 2000), player("B", 2000)], [comp("T", games, norm=True)])
    assert err.value.location == "tournaments[0].winner"
    # Named after tie-breaks: A's V = 20 x (.5 - .5) = 0 either way -> no error.
    result = rate([player("A", 2000), player("B", 2000)], [comp("T", games, norm=True, winner="A")])
    assert by_id(result)["A"].rating_after == 2000


def test_norm_winner_named_after_tie_breaks_keeps_only_a_positive_change() -> None:
    # A and W both score 2 of 3 (tie); the arbiter names W the winner after tie-breaks.
    # W 2400, 60 games, K 20: beats O1 (2000), draws O2 (2000), draws A (2400) -> W = 2.
    # We: D 400 -> .92 (393-411) twice, D 0 -> .50: 2.34. V = 20 x (2 - 2.34) = -6.8.
    # Winner of a norm competition: V < 0 not applied (7.1) -> 2400.
    # A 2400 (K 20): draws W, beats O2, draws O1: W = 2 (a tie with W); We .50 + .92 + .92
    # = 2.34: V -6.8 -> 2393.2 -> 2393 (6.6): only the named winner keeps his rating.
    games = [
        g("W", "O1", "1-0"),
        g("W", "O2", "1/2-1/2"),
        g("W", "A", "1/2-1/2"),
        g("A", "O2", "1-0"),
        g("A", "O1", "1/2-1/2"),
    ]
    ps = [player("W", 2400), player("A", 2400), player("O1", 2000), player("O2", 2000)]
    p = by_id(rate(ps, [comp("T", games, norm=True, winner="W")]))
    assert (p["W"].rating_after, p["A"].rating_after) == (2400, 2393)
    assert "cnxc-2000 7.1" in articles(p["W"])
    assert "cnxc-2000 7.1" not in articles(p["A"])
    # A named winner with a positive V keeps it: A named instead, W loses 6.8 -> 2393.
    p = by_id(rate(ps, [comp("T", games, norm=True, winner="A")]))
    assert (p["W"].rating_after, p["A"].rating_after) == (2393, 2400)


def test_norm_winner_must_play_in_the_competition() -> None:
    games = [g("A", "B", "1-0")]
    ps = [player("A", 2000), player("B", 2000), player("C", 2000)]
    with pytest.raises(EngineInputError) as err:
        rate(ps, [comp("T", games, norm=True, winner="C")])
    assert err.value.location == "tournaments[0].winner"


# ---------------------------------------------------------------- 7.2 substitutions

# A 2000, S 2100, C 2200, B 2000, B2 1900, all 60 games: K 20, except B2 (< 2000, 51-100) 25.
# Pv provisional 1900 after 4 games vs 1900 with 2 points; N no rating (virtual 1750).
TEAM = [
    player("A", 2000),
    player("S", 2100),
    player("C", 2200),
    player("B", 2000),
    player("B2", 1900),
    player(
        "Pv",
        1900,
        4,
        status="provisional",
        prior_results=tuple(prior(1900, s) for s in (1.0, 1.0, 0.0, 0.0)),
    ),
    player("N", None, 0),
]


def sub(side: str, *chain: tuple[str, bool], white: str = "A", black: str = "B") -> Substitution:
    return Substitution(
        white=white,
        black=black,
        side=side,
        players=tuple(SubstitutionLink(id=pid, moved=moved) for pid, moved in chain),
    )


def rate_team(game: Game, *subs: Substitution) -> dict[str, PlayerResult]:
    return by_id(rate(TEAM, [comp("T", [game], substitutions=subs)]))


def codes(p: PlayerResult) -> dict[str, str]:
    return {d.code: d.article for d in p.notes if d.code.startswith("substitution")}


def test_7_2_a_original_without_a_move_is_replaced() -> None:
    # a: A made no move, S is the original. S beats B: D +100 -> .64: 20 x .36 = +7.2 -> 2107;
    # B faced S: 20 x (0 - .36) = -7.2 -> 1993; A unchanged.
    p = rate_team(g("A", "B", "1-0"), sub("white", ("A", False), ("S", True)))
    assert (p["S"].rating_after, p["B"].rating_after, p["A"].rating_after) == (2107, 1993, 2000)
    assert codes(p["A"]) == {"substitution_no_move_original": "cnxc-2000 7.2 a"}
    assert codes(p["S"]) == {} and codes(p["B"]) == {}  # S is the original: no 7.2 d-h


def test_7_2_b_substitute_without_a_move_is_ignored() -> None:
    # b: S only resigned: no substitution. A loses to B: -10 -> 1990; B +10 -> 2010; S 2100.
    p = rate_team(g("A", "B", "0-1"), sub("white", ("A", True), ("S", False)))
    assert (p["A"].rating_after, p["B"].rating_after, p["S"].rating_after) == (1990, 2010, 2100)
    assert codes(p["S"]) == {"substitution_no_move_substitute": "cnxc-2000 7.2 b"}
    assert codes(p["A"]) == {}


def test_7_2_d_f_h_win() -> None:
    # White wins. d: A (effective) vs B: W - We = 1 - .50 > 0 -> not charged (2000).
    # f: S (effective): 1 - .64 > 0 -> charged: +7.2 -> 2107.
    # h: B faced the higher of A 2000 / S 2100: D -100 -> .36: -7.2 -> 1993.
    result = rate(
        TEAM,
        [comp("T", [g("A", "B", "1-0")], substitutions=[sub("white", ("A", True), ("S", True))])],
    )
    p = by_id(result)
    assert (p["A"].rating_after, p["S"].rating_after, p["B"].rating_after) == (2000, 2107, 1993)
    assert any(e.article == "cnxc-2000 7.2 d" for e in result.excluded)
    assert codes(p["A"]) == {"substitution_not_charged": "cnxc-2000 7.2 d"}
    assert codes(p["S"]) == {"substitution_charged": "cnxc-2000 7.2 f"}
    assert codes(p["B"]) == {"substitution_opponent": "cnxc-2000 7.2 h"}
    h = next(d for d in p["B"].notes if d.code == "substitution_opponent")
    assert (h.params["opponent"], h.params["rating"]) == ("S", 2100)


def test_7_2_d_f_h_loss() -> None:
    # White loses. d: A 0 - .50 < 0 -> charged: -10 -> 1990. f: S 0 - .64 < 0 -> not charged.
    # h: B vs 2100: 20 x (1 - .36) = +12.8 -> 2013.
    p = rate_team(g("A", "B", "0-1"), sub("white", ("A", True), ("S", True)))
    assert (p["A"].rating_after, p["S"].rating_after, p["B"].rating_after) == (1990, 2100, 2013)


def test_7_2_e_non_effective_original_is_charged_a_loss() -> None:
    # e: Pv (provisional) handed over to S, white wins: Pv is charged a loss against B 2000.
    # Pool: 4 vs 1900 (2 points) + 0 vs 2000: Rc = 9600 / 5 = 1920, p .40 -> -72 -> 1848.
    # S: 1 - .64 > 0 -> +7.2 -> 2107 (f). B faced max(1900, 2100): -7.2 -> 1993.
    p = rate_team(g("Pv", "B", "1-0"), sub("white", ("Pv", True), ("S", True), white="Pv"))
    assert (p["Pv"].rating_after, p["Pv"].status) == (1848, "provisional")
    assert "cnxc-2000 7.2 e" in articles(p["Pv"])
    assert codes(p["Pv"]) == {"substitution_charged": "cnxc-2000 7.2 e"}
    assert (p["S"].rating_after, p["B"].rating_after) == (2107, 1993)


def test_7_2_g_non_effective_substitute_is_not_charged() -> None:
    # g: N (no rating) replaces A, white wins: N not charged (stays without rating);
    # d: A 1 - .5 > 0 -> not charged. B faced max(A 2000, N virtual 1750) = 2000: -10 -> 1990.
    p = rate_team(g("A", "B", "1-0"), sub("white", ("A", True), ("N", True)))
    assert (p["N"].rating_after, p["N"].games) == (None, 0)
    assert (p["A"].rating_after, p["B"].rating_after) == (2000, 1990)
    assert codes(p["N"]) == {"substitution_not_charged": "cnxc-2000 7.2 g"}


def test_7_2_c_substitute_substituted_counts_as_original() -> None:
    # c: A -> S -> C, white loses. A and S are originals, C the substitute.
    # A: 0 - .50 < 0 -> -10 -> 1990. S: 0 - .64 < 0 -> 20 x -.64 = -12.8 -> 2087.
    # C: 0 - .76 (D 200) < 0 -> not charged (f) -> 2200.
    # B faced max(2000, 2100, 2200) = 2200: D -200 -> .24: 20 x .76 = +15.2 -> 2015.
    p = rate_team(g("A", "B", "0-1"), sub("white", ("A", True), ("S", True), ("C", True)))
    assert [p[k].rating_after for k in ("A", "S", "C", "B")] == [1990, 2087, 2200, 2015]
    assert codes(p["A"]) == {"substitution_charged": "cnxc-2000 7.2 d"}
    assert codes(p["S"]) == {"substitution_charged": "cnxc-2000 7.2 c, d"}
    assert codes(p["C"]) == {"substitution_not_charged": "cnxc-2000 7.2 f"}


def test_7_2_h_both_sides_substituted() -> None:
    # Draw; white A -> S, black B -> B2. White players face max(B 2000, B2 1900) = 2000,
    # black players face max(A 2000, S 2100) = 2100.
    # A (orig.): .5 - .50 = 0, not negative -> not charged. S (subst.): .5 - .64 < 0 -> no.
    # B (orig.): .5 - .36 > 0 -> no. B2 (subst., K 25): .5 - .24 (D -200) > 0 -> charged:
    # 25 x .26 = 6.5 -> 1906.5 -> 1907 (against A's 2000 it would be 25 x .14 -> 1904).
    p = rate_team(
        g("A", "B", "1/2-1/2"),
        sub("white", ("A", True), ("S", True)),
        sub("black", ("B", True), ("B2", True)),
    )
    assert [p[k].rating_after for k in ("A", "S", "B", "B2")] == [2000, 2100, 2000, 1907]


def test_substitution_must_name_a_game() -> None:
    with pytest.raises(EngineInputError) as err:
        rate_team(g("A", "B", "1-0"), sub("white", ("A", True), ("S", True), black="C"))
    assert err.value.location == "tournaments[0].substitutions[0].white"


# ---------------------------------------------------------------- 7.3 calibration

CNXC = {
    "C1": 2000,
    "C2": 2100,
    "C3": 2200,
    "C4": 2300,
    "C5": 2400,
    "C6": 2500,
    "C7": 2050,
    "C8": 2150,
}
# ICCF - CNXC: 10, 15, 12, 13, 10, 15, 12, 13 (sum 100).
ICCF = {
    "C1": 2010,
    "C2": 2115,
    "C3": 2212,
    "C4": 2313,
    "C5": 2410,
    "C6": 2515,
    "C7": 2062,
    "C8": 2163,
}


def _calibration_players() -> list[PlayerInput]:
    return [
        *[player(pid, r) for pid, r in CNXC.items()],
        player("PP", 2300, 80, status="passive", last_game_date=date(2018, 1, 1)),
        player(
            "PR",
            1800,
            2,
            status="provisional",
            prior_results=(prior(1800, 1.0), prior(1800, 0.0)),
        ),
    ]


def test_calibration_with_8_common_players() -> None:
    # 7.3: 8 effective players in both lists; mean difference 100 / 8 = 12.5 -> +13 (6.6).
    # The passive PP (not in the lists, 5.2) is not in the set although in the ICCF list
    # (with it: 400 / 9 = 44.4), but is shifted: 2313. The provisional PR is not shifted.
    result = rate(_calibration_players(), [], iccf_list={**ICCF, "PP": 2600, "PR": 2000})
    p = by_id(result)
    assert {k: p[k].rating_after for k in CNXC} == {k: v + 13 for k, v in CNXC.items()}
    assert (p["PP"].rating_after, p["PR"].rating_after) == (2313, 1800)
    assert "cnxc-2000 7.3 b" in articles(p["PP"])


def test_no_calibration_with_7_common_players() -> None:
    # 7.3 b: C8 missing from the ICCF list -> 7 in both lists (PP is passive) -> no change
    # (applied it would be 87 / 7 = 12.4 -> +12).
    iccf = {k: v for k, v in ICCF.items() if k != "C8"} | {"PP": 2600}
    result = rate(_calibration_players(), [], iccf_list=iccf)
    p = by_id(result)
    assert {k: p[k].rating_after for k in CNXC} == CNXC
    assert p["PP"].rating_after == 2300
    assert "cnxc-2000 7.3 b" in articles(p["C1"])


# ---------------------------------------------------------------- 5.2 passive


def test_passive_after_five_years_and_active_again() -> None:
    # Period ends 2026-06-30. X's last game 2021-06-30 (five years) -> passive;
    # Y's 2021-07-01 -> still active. Z passive plays and draws an equal ICCF newcomer -> active.
    result = rate(
        [
            player("X", 2000, last_game_date=date(2021, 6, 30)),
            player("Y", 2000, last_game_date=date(2021, 7, 1)),
            player("Z", 2000, status="passive", last_game_date=date(2015, 1, 1)),
            player("V", None, 0, iccf_rating=2000),
        ],
        [comp("T", [g("Z", "V", "1/2-1/2")])],
    )
    p = by_id(result)
    assert (p["X"].status, p["Y"].status, p["Z"].status) == ("passive", "rated", "rated")
    assert "cnxc-2000 5.2" in articles(p["X"]) and "cnxc-2000 5.2" in articles(p["Z"])


def test_protest_and_appeal_deadlines() -> None:
    # 4.3: protest within 30 days of publication (list of 15 July -> 14 August);
    # appeal within 7 days of the commissioner's decision (1 September -> 8 September).
    from rating_engine.regulations.cnxc_2000 import appeal_deadline, protest_deadline

    assert protest_deadline(date(2026, 7, 15)) == date(2026, 8, 14)
    assert appeal_deadline(date(2026, 9, 1)) == date(2026, 9, 8)
