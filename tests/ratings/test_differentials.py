"""The FIDE -> FCE differential (fce 9.5, the proposal's point 8): computed on a small list and
checked against a hand computation; published; read by the calculation."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from core.errors import Refused
from periods.models import RatingSystem
from ratings.differentials import services
from ratings.differentials.selectors import differential_in_force, differential_parameters
from ratings.models import DifferentialStatus, PlayerRating
from tests.factories import make_player, make_system

pytestmark = pytest.mark.django_db


def fce_list() -> RatingSystem:
    """Seven players of an FCE standard list in force, one of another system.

    counted (FCE rating and FIDE standard rating):
      A FCE 1650, FIDE 1600: +50 (band 1600-1799)
      B FCE 1700, FIDE 1721: -21 (band 1600-1799)
      C FCE 2105, FIDE 2050: +55 (band 2000-2199)
      D FCE 1500, FIDE 1480: +20 (band under 1600)
      E FCE 2300, FIDE 2310: -10 (band 2200 and over)
    not counted: F (no FCE rating in the list), G (no FIDE rating), H (another system's).
    """
    system = make_system(code="fce-std", ruleset="fce", parameters={"differential": {"2026": 40}})
    other = make_system(code="fce-rapid", ruleset="fce", rate_of_play="rapid")
    for fce, fide in ((1650, 1600), (1700, 1721), (2105, 2050), (1500, 1480), (2300, 2310)):
        PlayerRating.objects.create(
            player=make_player(fide_standard=fide), system=system, rating=fce, kind="effective"
        )
    PlayerRating.objects.create(player=make_player(fide_standard=1900), system=system, rating=None)
    PlayerRating.objects.create(player=make_player(), system=system, rating=1800, kind="effective")
    PlayerRating.objects.create(
        player=make_player(fide_standard=1900, fide_rapid=1900),
        system=other,
        rating=2400,
        kind="effective",
    )
    return system


def test_differential_computed_on_a_small_list_matches_the_hand_computation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Overall: 50 - 21 + 55 + 20 - 10 = 94 over 5 players: mean 18.80 -> 19 (half up).
    # Bands (MIN_BAND_PLAYERS 2 here): under 1600: D alone, 20.00, under 2 players -> 19;
    # 1600-1799: A, B: 29 / 2 = 14.50 -> 15 (half up), its own; 1800-1999: nobody -> 19;
    # 2000-2199: C alone, 55.00 -> 19; 2200+: E alone, -10.00 -> 19.
    system = fce_list()
    monkeypatch.setattr(services, "MIN_BAND_PLAYERS", 2)
    d = services.differential_compute(system=system)
    assert (d.players, d.mean, d.overall, d.status) == (5, Decimal("18.80"), 19, "draft")
    assert [(b["from"], b["to"], b["players"], b["mean"], b["value"]) for b in d.bands] == [
        (0, 1599, 1, "20.00", 19),
        (1600, 1799, 2, "14.50", 15),
        (1800, 1999, 0, None, 19),
        (2000, 2199, 1, "55.00", 19),
        (2200, None, 1, "-10.00", 19),
    ]


def test_published_differential_is_what_the_calculation_reads() -> None:
    # The typed JSON says 40 for 2026; the published one (effective 1 January 2026) wins for
    # a period ending in November 2026; a period of 2025 keeps the typed JSON (fallback).
    system = fce_list()
    d = services.differential_compute(system=system)
    assert differential_in_force(system=system, on=dt.date(2026, 11, 30)) is None
    services.differential_publish(differential=d, effective_date=dt.date(2026, 1, 1))
    d.refresh_from_db()
    assert d.status == DifferentialStatus.PUBLISHED
    assert differential_parameters(system=system, end=dt.date(2026, 11, 30))["differential"] == {
        "2026": [
            {"from": 0, "value": 19},
            {"from": 1600, "value": 19},
            {"from": 1800, "value": 19},
            {"from": 2000, "value": 19},
            {"from": 2200, "value": 19},
        ]
    }
    assert differential_parameters(system=system, end=dt.date(2025, 12, 31)) == {
        "differential": {"2026": 40}
    }
    with pytest.raises(Refused):
        services.differential_publish(differential=d, effective_date=dt.date(2026, 2, 1))


def test_a_regulation_without_differential_refuses() -> None:
    with pytest.raises(Refused):
        services.differential_compute(system=make_system(ruleset="fide-2024"))
