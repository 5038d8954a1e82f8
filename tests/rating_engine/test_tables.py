"""Tables A and B against the values printed in RULESETS.md "Conversion tables"
(expected numbers typed from the digest, not produced by the code)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rating_engine.tables import dp, dp_for_score, expected_milli, expected_score

# (D, expected of the higher rated player) at both ends of several ranges, FIDE form.
FIDE_B = [
    (0, 0.50), (3, 0.50), (4, 0.51), (10, 0.51), (11, 0.52), (25, 0.53), (26, 0.54),
    (53, 0.57), (54, 0.58), (61, 0.58), (62, 0.59), (98, 0.63), (99, 0.64), (113, 0.65),
    (114, 0.66), (153, 0.70), (154, 0.71), (206, 0.76), (207, 0.77), (215, 0.77),
    (216, 0.78), (344, 0.88), (345, 0.89), (357, 0.89), (358, 0.90), (391, 0.91),
    (392, 0.92), (411, 0.92), (412, 0.93), (517, 0.96), (518, 0.97), (619, 0.98),
    (620, 0.99), (735, 0.99),
]  # fmt: skip


@pytest.mark.parametrize("table", ["fide-2024", "fide-2000", "feda-1996", "fce"])
@pytest.mark.parametrize(("d", "h"), FIDE_B)
def test_table_b_fide_form(table: str, d: int, h: float) -> None:
    assert expected_score(d, table) == h
    assert expected_score(-d, table) == pytest.approx(1 - h)


@pytest.mark.parametrize(
    ("table", "h"),
    [
        ("fide-2024", 1.0),
        ("fide-2000", 1.0),
        ("feda-1996", 1.0),
        ("fce", 0.99),
        ("cnxc-2000", 0.995),
    ],
)
def test_table_b_top(table: str, h: float) -> None:
    # fide-2024: >735 -> 1.0; fce Taula 1: .99/.01; cnxc Tabela II: >=737 -> .995/.005
    assert expected_score(800, table) == h
    assert expected_score(-800, table) == pytest.approx(1 - h)


@pytest.mark.parametrize(
    ("d", "h"),
    # cnxc-2000 Tabela II differs: 47-54, 55-61, 107-114, 146-154, 207-216, 329-343,
    # 344-358, 375-392, 412-433, 621-736, >=737
    [(53, 0.57), (54, 0.57), (55, 0.58), (114, 0.65), (115, 0.66), (154, 0.70), (155, 0.71),
     (216, 0.77), (217, 0.78), (343, 0.88), (344, 0.89), (358, 0.89), (359, 0.90),
     (392, 0.91), (393, 0.92), (433, 0.93), (434, 0.94), (736, 0.99), (737, 0.995)],
)  # fmt: skip
def test_table_b_cnxc(d: int, h: float) -> None:
    assert expected_score(d, "cnxc-2000") == h


def test_fide_736_is_one() -> None:
    assert expected_score(736, "fide-2024") == 1.0
    assert expected_score(736, "fce") == 0.99


FIDE_A = [
    (0.99, 677), (0.98, 589), (0.97, 538), (0.96, 501), (0.95, 470), (0.90, 366), (0.85, 296),
    (0.84, 284), (0.80, 240), (0.76, 202), (0.75, 193), (0.74, 184), (0.73, 175), (0.70, 149),
    (0.64, 102), (0.60, 72), (0.57, 50), (0.55, 36), (0.51, 7), (0.50, 0), (0.49, -7),
    (0.38, -87), (0.13, -322), (0.01, -677),
]  # fmt: skip


@pytest.mark.parametrize("table", ["fide-2024", "fide-2000", "feda-1996", "fce", "cnxc-2000"])
@pytest.mark.parametrize(("p", "value"), FIDE_A)
def test_table_a(table: str, p: float, value: int) -> None:
    assert dp(p, table) == value


@pytest.mark.parametrize(
    ("table", "top"),
    [
        ("fide-2024", 800),
        ("fide-2000", None),
        ("feda-1996", None),
        ("fce", None),
        ("cnxc-2000", 677),
    ],
)
def test_table_a_extremes(table: str, top: int | None) -> None:
    # fide-2024 8.1: 1.00 -> 800 (seed typo ".10 800"); fide-2000/feda: undefined;
    # cnxc Tabela I: 1 -> 677, 0 -> -677.
    assert dp(1.0, table) == top
    assert dp(0.0, table) == (None if top is None else -top)


def test_p_is_rounded_to_two_decimals_half_up() -> None:
    # 4/7 = .5714 -> .57 -> 50 ; 1/8 = .125 -> .13 -> -322 ; 7/8 = .875 -> .88 -> 336
    assert dp_for_score(4, 7, "fide-2024") == 50
    assert dp_for_score(1, 8, "fide-2024") == -322
    assert dp_for_score(7, 8, "fide-2024") == 336
    # .995 rounds to 1.00 -> 800 in fide-2024
    assert dp_for_score(199, 200, "fide-2024") == 800


def test_unknown_table() -> None:
    with pytest.raises(KeyError):
        expected_score(0, "nope")


@pytest.mark.parametrize("table", ["fide-2000", "feda-1996"])
def test_difference_ending_in_half_read_on_its_size(table: str) -> None:
    # fide-2000 10.1b / feda-1996 9.1c (RULESETS.md "Decided readings"): 32.5 -> 33 (33-39:
    # H .55), read in the H column above and the L column below: .55 and .45.
    assert expected_milli(Fraction(65, 2), table) == 550
    assert expected_milli(Fraction(-65, 2), table) == 450
    # 25.5 -> 26 (26-32: .54); 3.5 -> 4 (4-10: .51).
    assert expected_milli(-25.5, table) == 460
    assert expected_milli(-3.5, table) == 490


@given(halves=st.integers(-1600, 1600))
def test_both_sides_of_a_difference_sum_to_one(halves: int) -> None:
    # Table B is read on |D| (L = 1 - H), so for any D, integer or ending in .5, the player
    # above and the player below expect 1 between them.
    d = Fraction(halves, 2)
    for table in ("fide-2000", "feda-1996", "fce", "fide-2024", "cnxc-2000"):
        assert expected_milli(d, table) + expected_milli(-d, table) == 1000
