"""Builders for engine tests (plain Python, no Django)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from hypothesis import strategies as st

from rating_engine import rate_period
from rating_engine.types import (
    Game,
    PeriodInput,
    PeriodResult,
    PlayerInput,
    PlayerResult,
    PriorResult,
    TournamentInput,
)

ROOT = Path(__file__).resolve().parents[2]
START = date(2026, 10, 1)
END = date(2026, 10, 31)


def player(pid: str, rating: int | None, **kw: object) -> PlayerInput:
    kw.setdefault("games", 100)
    return PlayerInput(id=pid, rating=rating, **kw)  # type: ignore[arg-type]


def game(white: str, black: str, result: str, **kw: object) -> Game:
    return Game(white=white, black=black, result=result, **kw)  # type: ignore[arg-type]


def tournament(
    tid: str, games: list[Game], *, end: date = date(2026, 10, 20), **kw: object
) -> TournamentInput:
    kw.setdefault("system", "swiss")
    return TournamentInput(id=tid, end_date=end, games=tuple(games), **kw)  # type: ignore[arg-type]


def period(
    players: list[PlayerInput],
    tournaments: list[TournamentInput],
    *,
    start: date = START,
    end: date = END,
    ruleset: str = "fide-2024",
    parameters: dict[str, object] | None = None,
) -> PeriodInput:
    return PeriodInput(
        ruleset=ruleset,
        start=start,
        end=end,
        parameters=parameters or {},
        players=tuple(players),
        tournaments=tuple(tournaments),
    )


def prior(rating: int, score: float, end: date | None = None, **kw: object) -> PriorResult:
    return PriorResult(opponent_rating=rating, score=score, end_date=end, **kw)  # type: ignore[arg-type]


def rate_in(
    ruleset: str,
    start: date,
    end: date,
    players: list[PlayerInput],
    tournaments: list[TournamentInput],
    **kw: object,
) -> PeriodResult:
    """Rate a period of ``ruleset`` from ``start`` to ``end`` (``kw`` may override both)."""
    kw.setdefault("start", start)
    kw.setdefault("end", end)
    return rate_period(period(players, tournaments, ruleset=ruleset, **kw))  # type: ignore[arg-type]


def by_id(result: PeriodResult) -> dict[str, PlayerResult]:
    return {r.id: r for r in result.players}


def codes(r: PlayerResult) -> dict[str, str]:
    """Each note's code and the article it cites."""
    return {d.code: d.article for d in r.notes}


def ending(end: date, tid: str, games: list[Game], **kw: object) -> TournamentInput:
    """A tournament ending on ``end`` unless ``kw`` says otherwise."""
    kw.setdefault("end", end)
    return tournament(tid, games, **kw)  # type: ignore[arg-type]  # kw: object, as in tournament()


def active(pid: str, rating: int | None, **kw: object) -> PlayerInput:
    """A player with 20 rated games in the last 12 months unless ``kw`` says otherwise."""
    kw.setdefault("games_last_12_months", 20)
    return player(pid, rating, **kw)


RESULTS = ("1-0", "0-1", "1/2-1/2")


def drawn_players(
    draw: st.DrawFn, *, n: int, ratings: tuple[int, int], games: tuple[int, int], **kw: object
) -> tuple[PlayerInput, ...]:
    """Hypothesis: players P0…P<n-1>, rated within ``ratings`` with a number of games within
    ``games``; ``kw`` for every one of them."""
    return tuple(
        PlayerInput(
            f"P{i}",
            draw(st.integers(*ratings)),
            games=draw(st.integers(*games)),
            **kw,  # type: ignore[arg-type]
        )
        for i in range(n)
    )


def drawn_games(draw: st.DrawFn, *, players: int, low: int, high: int) -> list[Game]:
    """Hypothesis: between ``low`` and ``high`` games among players P0…P<players-1>, never a
    player against himself."""
    games = []
    for _ in range(draw(st.integers(low, high))):
        w = draw(st.integers(0, players - 1))
        b = draw(st.integers(0, players - 2))
        b = b + 1 if b >= w else b
        games.append(Game(f"P{w}", f"P{b}", draw(st.sampled_from(RESULTS))))
    return games


def run_calculator(
    tmp_path: Path, period: Mapping[str, object]
) -> subprocess.CompletedProcess[str]:
    """``python -m rating_engine`` on ``period`` written as JSON to a file in ``tmp_path``."""
    path = tmp_path / "period.json"
    path.write_text(json.dumps(period), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rating_engine", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
