"""The rating calculator: one engine call shared by the API (``POST /api/v1/calculator/``,
ratings/api/calculator.py) and the calculator page (ratings/views/calculator.py), so both give
the same figures for the same inputs (docs/calculator.md).

The page describes one player and his games in one rating system; ``calculator_input`` turns
that into the calculator's JSON (the API's input), read by the same ``calculator_rate``.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.messages import stored_message
from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from players.models import Player
from rating_engine import rate_period
from rating_engine.errors import EngineInputError
from rating_engine.jsonio import loads_period, period_from_dict, result_to_dict
from ratings.differentials.selectors import differential_parameters
from ratings.models import PlayerRating

#: The player's id in the input built by the page; opponents are "1", "2"… (their line).
ME = "me"
#: The single tournament the page's games belong to.
TOURNAMENT = "calculator"


def calculator_rate(*, period: str | Mapping[str, Any]) -> dict[str, Any]:
    """Rate a period given as the calculator's JSON, as text (the API's body) or parsed (the
    page's): the engine's result as a dict (``result_to_dict``). Raises EngineInputError
    naming the item and the field."""
    parsed = loads_period(period) if isinstance(period, str) else period_from_dict(dict(period))
    return result_to_dict(rate_period(parsed))


def calculator_error_message(*, error: EngineInputError) -> str:
    """The engine's complaint in the reader's language (its template is a msgid)."""
    return stored_message(error.template, error.params) or error.problem


@dataclass(frozen=True)
class CalculatorLine:
    """One game of the page: the opponent's rating (typed, or his rating in the system when
    picked from the registry), the player's score, and the registry opponent if any."""

    rating: int
    score: float
    opponent: Player | None = None


@dataclass(frozen=True)
class CalculatorMe:
    """The player: his rating in the system (None: unrated), rated games before, and the
    K facts the page asks (birth date for youth K, 2400/2200 reached)."""

    rating: int | None
    games: int
    birth_date: dt.date | None = None
    reached_2400: bool = False
    reached_2200: bool = False


RESULT_CODES = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}


def calculator_input(
    *, system: RatingSystem, me: CalculatorMe, lines: Sequence[CalculatorLine], on: dt.date
) -> dict[str, Any]:
    """The calculator's JSON for one player's games in a Swiss tournament ending on ``on``,
    rated in the month holding it, under the regulation set and parameters in force on that
    day in the system's timeline (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1: the page's
    one-day tournament starts on ``on``), as the period's calculation gives them
    (ratings.calculation.engine_path). The player has white in every game: colour plays no
    part in any regulation's figures."""
    in_force = system_ruleset_on(system=system, day=on)
    start = on.replace(day=1)
    end = on.replace(day=calendar.monthrange(on.year, on.month)[1])
    player: dict[str, Any] = {"id": ME, "rating": me.rating, "games": me.games}
    if me.birth_date is not None:
        player["birth_date"] = me.birth_date.isoformat()
    if me.reached_2400:
        player["reached_2400"] = True
    if me.reached_2200:
        player["reached_2200"] = True
    opponents = [{"id": str(n), "rating": line.rating} for n, line in enumerate(lines, 1)]
    games = [
        {"white": ME, "black": str(n), "result": RESULT_CODES[line.score], "round": n}
        for n, line in enumerate(lines, 1)
    ]
    return {
        "ruleset": in_force.ruleset,
        "period": {"start": start.isoformat(), "end": end.isoformat()},
        # fce 9.5: the published differential in force, as the period's calculation reads it.
        "parameters": differential_parameters(system=system, end=end, in_force=in_force),
        "players": [player, *opponents],
        "tournaments": [
            {
                "id": TOURNAMENT,
                "system": "swiss",
                "end_date": on.isoformat(),
                "rate_of_play": system.rate_of_play,
                "games": games,
            }
        ],
    }


def calculator_states(*, system: RatingSystem, fed_ids: Sequence[str]) -> dict[str, Any]:
    """The registry players named (by federation ID) with their state in the system:
    ``{fed_id: (player, PlayerRating or None)}``; unknown IDs are left out. One query each."""
    players = {p.fed_id: p for p in Player.objects.filter(fed_id__in=set(fed_ids))}
    states = {
        s.player_id: s
        for s in PlayerRating.objects.filter(
            system=system, player_id__in=[p.pk for p in players.values()]
        )
    }
    return {fed_id: (p, states.get(p.pk)) for fed_id, p in players.items()}
