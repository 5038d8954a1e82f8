"""fce: the decided readings of issue 16, hand-worked like test_fce.py (its tables,
same helpers); split from it by concern."""

from __future__ import annotations

import pytest
from engine_helpers import by_id
from engine_helpers import game as g
from fce_helpers import articles, player, rate, tour

from rating_engine.types import (
    Game,
    PlayerInput,
)

# ---------------------------------------------------------------- issue 16: decided readings
# RULESETS.md "Decided readings": 8 (only non-appearance), 11.1 (not in the rapid list in
# force for his opponents), 10.1 / 11.x (no game rated for him: stays unrated); and the
# entries docs/calculator.md describes (not affiliated, the 17.3 floor).


def test_game_not_played_for_another_reason_is_not_rated_8() -> None:
    # A 1800 (K 20) and B 1900: their game was not played, but not for non-appearance
    # (played false, no forfeit): article 8 does not apply, the game is not rated.
    # A draws C 1700: D = +100 -> .64 (99-106): 20 x (.5 - .64) = -2.8 -> -3 -> 1797.
    # (Rated as a forfeit loss at half K it would add 10 x (0 - .50) = -5: -7.8 -> 1792.)
    result = rate(
        [player("A", 1800), player("B", 1900), player("C", 1700)],
        [tour("T", [g("A", "B", "0-1", played=False), g("C", "A", "1/2-1/2")])],
    )
    p = by_id(result)
    assert (p["A"].rating_after, p["A"].games) == (1797, 1)
    assert (p["B"].rating_after, p["B"].games) == (1900, 0)
    assert [(e.white, e.black, e.code, e.article) for e in result.excluded] == [
        ("A", "B", "not_played", "fce 8")
    ]
    assert all(ln.opponent != "B" and ln.player != "B" for ln in result.games)


@pytest.mark.parametrize(
    ("fide", "o_after", "o_games"),
    [
        # R1 has no FIDE rating: for O only 7.2 applies: the game is not counted -> 1800.
        (None, 1800, 0),
        # R1 has FIDE standard 1700 (no rapid): 7.3.3 -> 1700 + 100 = 1800 for O:
        # D = 0 -> .50; O loses: 20 x (0 - .50) = -10 -> 1790.
        (1700, 1790, 1),
    ],
)
def test_first_rapid_rating_from_standard_is_not_in_force_for_opponents_11_1(
    fide: int | None, o_after: int, o_games: int
) -> None:
    # Rapid list. R1's first rapid rating comes from his standard 1850 in this period (11.1);
    # he is rated with it: beats O (rapid 1800): D = +50 -> .57 (47-53): 20 x .43 = +8.6 -> +9
    # -> 1859. O does not count him at 1850 (that would be D = -50 -> .43: -8.6 -> 1791).
    result = rate(
        [player("O", 1800, 100), player("R1", None, 0, fide_rating=fide)],
        [tour("T", [g("R1", "O", "1-0")], rate="15+10")],
        list="rapid",
        differential={"2026": 100},
        standard_ratings={"R1": 1850},
    )
    p = by_id(result)
    assert (p["R1"].rating_after, p["R1"].status) == (1859, "new")
    assert (p["O"].rating_after, p["O"].games) == (o_after, o_games)
    unrated_for_o = [e for e in result.excluded if e.code == "opponent_unrated"]
    assert [e.article for e in unrated_for_o] == (["fce 7.2"] if fide is None else [])


@pytest.mark.parametrize(
    ("params", "newcomer", "games", "article"),
    [
        # Standard list: X (FIDE 1950, differential 100) plays only U, who has no FCE and no
        # FIDE rating: not rated for X (7.2). No game rated for him: he stays unrated, not
        # "new" at 1950 + 100 = 2050 (10.1).
        (
            {"differential": {"2026": 100}},
            player("X", None, 0, fide_rating=1950),
            [g("X", "U", "1-0")],
            "fce 10.1",
        ),
        # Rapid list: X (standard FCE 1850) only wins a game by forfeit (8.1: not rated):
        # stays unrated, not "new" at 1850 (11.1).
        (
            {"list": "rapid", "standard_ratings": {"X": 1850}},
            player("X", None, 0),
            [g("X", "U", "1-0", forfeit=True)],
            "fce 11.1",
        ),
    ],
)
def test_newcomer_without_a_rated_game_stays_unrated_10_1_11(
    params: dict, newcomer: PlayerInput, games: list[Game], article: str
) -> None:
    rate_of_play = "15+10" if params.get("list") == "rapid" else "90+30"
    result = rate([newcomer, player("U", None, 0)], [tour("T", games, rate=rate_of_play)], **params)
    x = by_id(result)["X"]
    assert (x.rating_after, x.status, x.games, x.k) == (None, "unrated", 0, None)
    assert any(d.code == "no_rated_game" and d.article == article for d in x.notes)


def test_documented_entries_not_affiliated_and_floor_2_1_17_3() -> None:
    # docs/calculator.md: a non-affiliated player (2.1) is reported "unrated" while keeping his
    # rating: N 1900 beats A 1900 and stays 1900, status "unrated", change 0.
    # A 1900 (K 20): D = 0 -> .50: 20 x (0 - .50) = -10 -> 1890.
    # F 1010 loses to G 1010 and H 1010: 2 x 20 x (0 - .50) = -20 -> 990 -> lifted to 1000
    # (17.3): change is the lifted difference, 1000 - 1010 = -10 (not -20).
    result = rate(
        [
            player("N", 1900, affiliated=False),
            player("A", 1900),
            player("F", 1010),
            player("G", 1010),
            player("H", 1010),
        ],
        [tour("T", [g("N", "A", "1-0"), g("F", "G", "0-1"), g("H", "F", "1-0")])],
    )
    p = by_id(result)
    n = p["N"]
    assert (n.status, n.rating_before, n.rating_after, n.change) == ("unrated", 1900, 1900, 0)
    assert "fce 2.1" in articles(n)
    assert p["A"].rating_after == 1890
    assert (p["F"].rating_after, p["F"].change) == (1000, -10)
    assert "fce 17.3" in articles(p["F"])
