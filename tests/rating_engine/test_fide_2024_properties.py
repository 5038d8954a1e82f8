"""Property tests (hypothesis) for fide-2024 and the bulk/explain agreement."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from engine_helpers import END, START, game, period, player, prior, tournament
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rating_engine import rate_period
from rating_engine.regulations.fide_2024 import REGULATION
from rating_engine.types import Game, PeriodInput

RESULTS = ["1-0", "0-1", "1/2-1/2"]
FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def periods(draw: st.DrawFn, *, unrated: bool = True, matches: bool = True) -> PeriodInput:
    n = draw(st.integers(2, 9))
    players = []
    for i in range(n):
        rated = not unrated or draw(st.booleans()) or i < 2
        rating = draw(st.integers(1000, 2800)) if rated else None
        players.append(
            player(
                f"p{i}",
                rating,
                games=draw(st.integers(0, 80)),
                birth_date=draw(st.one_of(st.none(), st.dates(date(1950, 1, 1), date(2015, 1, 1)))),
                reached_2400=draw(st.booleans()) if rated else False,
                status=draw(st.sampled_from(["", "inactive"])) if rated else "",
                last_game_date=draw(
                    st.one_of(st.none(), st.dates(date(2023, 1, 1), date(2026, 9, 30)))
                ),
                rated_since=draw(st.one_of(st.none(), st.just(START))) if rated else None,
                prior_results=tuple(
                    prior(
                        draw(st.integers(1400, 2400)),
                        draw(st.sampled_from([0.0, 0.5, 1.0])),
                        draw(st.one_of(st.none(), st.dates(date(2024, 1, 1), date(2026, 9, 1)))),
                    )
                    for _ in range(draw(st.integers(0, 6)) if not rated else 0)
                ),
            )
        )
    tournaments = []
    for t in range(draw(st.integers(1, 3))):
        is_match = matches and draw(st.booleans())
        pairs: list[tuple[int, int]] | list[list[int]]
        if is_match:
            a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
            pairs = [(a, b) if r % 2 == 0 else (b, a) for r in range(draw(st.integers(1, 6)))]
        else:
            pairs = draw(st.lists(st.lists(st.integers(0, n - 1), min_size=2, max_size=2,
                                           unique=True),
                                  min_size=0, max_size=25))  # fmt: skip
        games = [
            game(f"p{w}", f"p{b}", draw(st.sampled_from(RESULTS)), round=r + 1,
                 forfeit=draw(st.integers(0, 9)) == 0)
            for r, (w, b) in enumerate(pairs)
        ]  # fmt: skip
        end = draw(st.dates(date(2026, 9, 20), END))
        tournaments.append(
            tournament(f"T{t}", games, end=end, system="match" if is_match else "swiss",
                       match_length=draw(st.sampled_from([None, 4, 6])) if is_match else None)
        )  # fmt: skip
    return period(players, tournaments)


@SETTINGS
@given(periods())
def test_bulk_equals_explain(p: PeriodInput) -> None:
    """The NumPy bulk path (rate) and the per-player path (explain) agree, player by player."""
    res = rate_period(p)
    for pr in res.players:
        ex = REGULATION.explain(p, pr.id)
        assert ex.player == pr
        lines = tuple(g for g in res.games if g.player == pr.id)
        assert ex.games == lines


def _swap(g: Game) -> Game:
    return replace(g, white=g.black, black=g.white, result=FLIP[g.result])


@SETTINGS
@given(periods())
def test_swapping_colours_changes_nothing(p: PeriodInput) -> None:
    swapped = replace(p, tournaments=tuple(replace(t, games=tuple(_swap(g) for g in t.games))
                                           for t in p.tournaments))  # fmt: skip
    assert rate_period(swapped).players == rate_period(p).players


@SETTINGS
@given(periods(unrated=False, matches=False), st.data())
def test_change_rises_with_score(p: PeriodInput, data: st.DataObject) -> None:
    """Raising one game's result for white never lowers white's change."""
    t_index = data.draw(st.integers(0, len(p.tournaments) - 1))
    t = p.tournaments[t_index]
    if not t.games:
        return
    g_index = data.draw(st.integers(0, len(t.games) - 1))
    g = t.games[g_index]
    better = {"0-1": "1/2-1/2", "1/2-1/2": "1-0", "1-0": "1-0"}[g.result]
    games = list(t.games)
    games[g_index] = replace(g, result=better)
    tournaments = list(p.tournaments)
    tournaments[t_index] = replace(t, games=tuple(games))
    improved = replace(p, tournaments=tuple(tournaments))
    before = next(x for x in rate_period(p).players if x.id == g.white)
    after = next(x for x in rate_period(improved).players if x.id == g.white)
    assert after.change >= before.change
    assert after.score >= before.score


@SETTINGS
@given(
    st.lists(st.integers(2400, 2700), min_size=2, max_size=8),
    st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(RESULTS)), max_size=40
    ),
)
def test_closed_pool_sums_to_zero_before_rounding(
    ratings: list[int], pairs: list[tuple[int, int, str]]
) -> None:
    """One K for all (everyone has reached 2400: K 10, at most 40 games so no 700 rule), all
    differences within 400 (no cap): the unrounded changes of a closed pool sum to zero."""
    n = len(ratings)
    players = [player(f"p{i}", r, reached_2400=True) for i, r in enumerate(ratings)]
    games = [game(f"p{w % n}", f"p{b % n}", res) for w, b, res in pairs if w % n != b % n]
    res = rate_period(period(players, [tournament("T", games)]))
    assert {line.k for line in res.games} <= {10}
    assert sum(line.change for line in res.games) == pytest.approx(0, abs=1e-9)
    assert len(res.games) == 2 * len(games)


@SETTINGS
@given(periods())
def test_rate_unrated_is_rate_restricted_to_unrated_players(p: PeriodInput) -> None:
    """The first-ratings-only pass (the database's bulk path uses it for the small sub-period
    of games with an unrated player) gives the unrated players the same results as the full
    pass, leaves out the same games, and no rated player gets a result from it."""
    full = rate_period(p)
    only = REGULATION.rate_unrated(p)
    unrated = {x.id for x in p.players if x.rating is None}
    assert {r.id for r in only.players} == unrated
    assert [r for r in full.players if r.id in unrated] == list(only.players)
    assert full.excluded == only.excluded
    assert not [line for line in full.games if line.player in unrated]
