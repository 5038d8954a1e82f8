"""First ratings on arrays (issue 27 item 3): for every regulation whose bulk rater rates first
ratings on arrays, the array path (``rate_unrated_on_arrays``) equals the per-player reference
(``rate_unrated``) on random periods: the same results with the same notes, and the same games
with an unrated player left out."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from engine_helpers import END, game, period, player, prior, tournament
from hypothesis import given
from hypothesis import strategies as st
from test_fide_2024_properties import SETTINGS, periods

from rating_engine.registry import all_regulations
from rating_engine.types import PeriodInput

WITH_ARRAYS = sorted(
    r.id for r in all_regulations().values() if r.bulk is not None and r.bulk.first_ratings
)


def test_the_regulations_with_first_ratings_on_arrays() -> None:
    # The others rate first ratings per player only (their bulk rater, if any, says so).
    assert WITH_ARRAYS == ["fide-2024"]


def _agree(p: PeriodInput, ruleset: str) -> None:
    regulation = all_regulations()[ruleset]
    reference = regulation.rate_unrated(p)  # type: ignore[attr-defined]
    arrays = regulation.rate_unrated_on_arrays(p)  # type: ignore[attr-defined]
    ratings = {x.id: x.rating for x in p.players}
    assert sorted(arrays.players, key=lambda r: r.id) == sorted(
        reference.players, key=lambda r: r.id
    )
    with_unrated = tuple(
        e for e in reference.excluded if ratings[e.white] is None or ratings[e.black] is None
    )
    assert arrays.excluded == with_unrated
    assert (arrays.ruleset, arrays.regulation_version) == (
        reference.ruleset,
        reference.regulation_version,
    )


@st.composite
def first_periods(draw: st.DrawFn) -> PeriodInput:
    """``periods()`` with about half of the unrated players new to the lists (no earlier games
    nor pooled results: 8.2.1 can apply to them)."""
    p = draw(periods())
    players = tuple(
        replace(x, games=0, prior_results=()) if x.rating is None and draw(st.booleans()) else x
        for x in p.players
    )
    return replace(p, players=players)


@pytest.mark.parametrize("ruleset", WITH_ARRAYS)
@SETTINGS
@given(p=first_periods())
def test_arrays_equal_the_per_player_path_on_random_periods(ruleset: str, p: PeriodInput) -> None:
    _agree(p, ruleset)


@pytest.mark.parametrize("ruleset", WITH_ARRAYS)
def test_every_rule_of_a_first_rating_on_arrays(ruleset: str) -> None:
    """Each branch at least once: pooled results too old (7.1.4) and forfeited, a scoreless
    first tournament (8.2.1), too few games, the cap (8.2.3), under the floor (7.1.4)."""
    old = date(2023, 1, 10)
    pooled = {
        "strong": tuple(prior(2500, 1.0, None) for _ in range(4)),
        "weak": (prior(1400, 0.0, old), prior(1400, 0.0, None)),
        "zero": (),
        "fresh": (),
        "few": (prior(1900, 0.5, None, forfeit=True),),
    }
    players = [player(f"r{i}", 1000 + 300 * i) for i in range(6)] + [
        player(pid, None, games=0, prior_results=results) for pid, results in pooled.items()
    ]
    t1 = tournament(
        "T1",
        [game("zero", f"r{i}", "0-1", round=i + 1) for i in range(2)]
        + [game("strong", f"r{i}", "1-0", round=i + 1) for i in range(3)]
        + [game("weak", f"r{i}", "0-1", round=i + 1) for i in range(5)]
        + [game("few", "r0", "1/2-1/2"), game("few", "zero", "1-0", round=2)]
        + [game("fresh", f"r{i}", "1/2-1/2", round=i + 1) for i in range(5)],
        end=date(2026, 10, 5),
    )
    t2 = tournament(
        "T2", [game(f"r{i}", "zero", "1/2-1/2", round=i + 1) for i in range(6)], end=END
    )
    p = period(players, [t1, t2])
    _agree(p, ruleset)
    got = {r.id: r for r in all_regulations()[ruleset].rate_unrated_on_arrays(p).players}  # type: ignore[attr-defined]
    codes = {pid: {n.code for n in r.notes} for pid, r in got.items()}
    assert "initial_max" in codes["strong"] and got["strong"].status == "new"
    assert {"pool_too_old", "initial_below_floor"} <= codes["weak"]
    assert "zero_first_tournament" in codes["zero"] and got["zero"].games == 6
    assert codes["few"] == {"too_few_games"}
    assert codes["fresh"] == {"first_rating"} and got["fresh"].games == 5
