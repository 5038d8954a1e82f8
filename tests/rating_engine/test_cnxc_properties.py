"""cnxc-2000 properties on random periods (hypothesis)."""

from __future__ import annotations

from datetime import date

from engine_helpers import drawn_games, drawn_players
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_engine import rate_period
from rating_engine.regulations.cnxc_2000 import k_factor
from rating_engine.rounding import round_half_up
from rating_engine.types import PeriodInput, TournamentInput


@st.composite
def periods(draw: st.DrawFn) -> PeriodInput:
    n = draw(st.integers(2, 8))
    players = drawn_players(
        draw, n=n, ratings=(1500, 2700), games=(12, 300), last_game_date=date(2025, 1, 1)
    )
    tournaments = []
    for t in range(draw(st.integers(1, 4))):
        games = drawn_games(draw, players=n, low=0, high=8)
        tournaments.append(
            TournamentInput(f"T{t}", "round_robin", date(2026, 2 + t, 1), games=tuple(games))
        )
    return PeriodInput(
        "cnxc-2000", date(2026, 1, 1), date(2026, 6, 30), {}, players, tuple(tournaments)
    )


@settings(max_examples=150, deadline=None)
@given(periods())
def test_change_is_k_times_w_minus_we_and_order_free(period: PeriodInput) -> None:
    result = rate_period(period)
    by_player = {p.id: p for p in period.players}
    for p in result.players:
        lines = [ln for ln in result.games if ln.player == p.id]
        before = by_player[p.id]
        assert before.rating is not None
        k = k_factor(before.rating, before.games)
        assert all(ln.k == k for ln in lines)
        # 6.4-6.6: Rn = Ro + K (W - We) summed over the competitions, rounded half up.
        w_minus_we = sum(ln.score for ln in lines) - sum(ln.expected for ln in lines)
        assert p.rating_after == before.rating + round_half_up(round(k * w_minus_we, 6))
    # 6.1: list ratings only, so the order of the competitions does not matter.
    reordered = PeriodInput(
        period.ruleset,
        period.start,
        period.end,
        period.parameters,
        period.players,
        period.tournaments[::-1],
    )
    after = {p.id: p.rating_after for p in rate_period(reordered).players}
    assert after == {p.id: p.rating_after for p in result.players}
