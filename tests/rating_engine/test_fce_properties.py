"""fce properties on random periods (hypothesis)."""

from __future__ import annotations

from datetime import date

from engine_helpers import drawn_games, drawn_players
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_engine import rate_period
from rating_engine.types import PeriodInput, TournamentInput


@st.composite
def periods(draw: st.DrawFn) -> PeriodInput:
    n = draw(st.integers(2, 8))
    players = drawn_players(
        draw, n=n, ratings=(1000, 2800), games=(30, 500), birth_date=date(1980, 1, 1)
    )
    games = drawn_games(draw, players=n, low=1, high=20)
    split = draw(st.integers(0, len(games)))
    tournaments = (
        TournamentInput(
            "T1", "swiss", date(2026, 3, 10), rate_of_play="90+30", games=tuple(games[:split])
        ),
        TournamentInput(
            "T2", "swiss", date(2026, 3, 20), rate_of_play="90+30", games=tuple(games[split:])
        ),
    )
    return PeriodInput("fce", date(2026, 3, 1), date(2026, 3, 31), {}, players, tournaments)


@settings(max_examples=150, deadline=None)
@given(periods())
def test_zero_sum_and_order_free(period: PeriodInput) -> None:
    result = rate_period(period)
    # Taula 1: PD(M) + PD(m) = 1, every K is 20 (adults, 30+ games): the unrounded changes of
    # a period add up to zero (15.2).
    assert abs(sum(line.change for line in result.games)) < 1e-6
    # 17.1: one sum per period, so the order of games and tournaments does not matter.
    reordered = PeriodInput(
        period.ruleset,
        period.start,
        period.end,
        period.parameters,
        period.players[::-1],
        tuple(
            TournamentInput(
                t.id, t.system, t.end_date, rate_of_play=t.rate_of_play, games=t.games[::-1]
            )
            for t in period.tournaments
        ),
    )
    after = {p.id: p.rating_after for p in rate_period(reordered).players}
    assert after == {p.id: p.rating_after for p in result.players}
    for p in result.players:
        assert p.rating_after is not None and p.rating_after >= 1000  # 17.3
