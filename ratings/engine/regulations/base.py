"""The interface every regulation implements."""

from __future__ import annotations

import calendar
from abc import ABC, abstractmethod
from collections.abc import Mapping
from datetime import date
from typing import ClassVar, NamedTuple

from ..errors import EngineInputError
from ..types import GameLine, PeriodInput, PeriodResult, PlayerResult

__all__ = ["Explanation", "Regulation"]


def _(s: str) -> str:
    return s


class Explanation(NamedTuple):
    """What ``Regulation.explain`` returns: the player's result and his game lines."""

    player: PlayerResult
    games: tuple[GameLine, ...]


class Regulation(ABC):
    """A rating regulation: validates its parameters and rates a period.

    Subclasses set ``id`` (the ruleset id, e.g. ``"fide-2024"``), ``title`` and ``source``
    (where the articles come from), and implement ``rate``.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    #: Where the articles cited in this module come from (seed file, digest section).
    source: ClassVar[str] = ""
    articles_url: ClassVar[str] = ""
    #: Known parameters and their defaults; ``validate_parameters`` checks types against them.
    defaults: ClassVar[Mapping[str, object]] = {}
    #: A tournament ending this many days or fewer before the end of its month may go to the
    #: next monthly list (fide-2024 9.1); 0: the regulation has no such allowance.
    month_end_allowance_days: ClassVar[int] = 0

    def article(self, number: str) -> str:
        """``"fide-2024 5.1"`` for ``number="5.1"``."""
        return f"{self.id} {number}"

    def month_end_allowance(self, end_date: date) -> bool:
        """Whether a tournament ending on ``end_date`` may go to the list after its month's:
        ``month_end_allowance_days`` or fewer days from its last day to the end of the month,
        the last day itself not counted (ending on 25 November leaves 26-30 November, 5 days)."""
        if self.month_end_allowance_days <= 0:
            return False
        month_days = calendar.monthrange(end_date.year, end_date.month)[1]
        return month_days - end_date.day <= self.month_end_allowance_days

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        """Return the defaults updated with ``parameters``; unknown keys or wrong types raise
        an EngineInputError naming ``parameters.<key>``. Override for finer checks."""
        out: dict[str, object] = dict(self.defaults)
        for key, value in parameters.items():
            if key not in self.defaults:
                raise EngineInputError(
                    "parameters",
                    key,
                    _("unknown parameter for %(ruleset)s (known: %(known)s)"),
                    {"ruleset": self.id, "known": ", ".join(sorted(self.defaults)) or "none"},
                )
            default = self.defaults[key]
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            else:
                ok = isinstance(value, type(default)) if default is not None else True
            if not ok:
                raise EngineInputError(
                    "parameters",
                    key,
                    _("must be of type %(type)s (got %(value)r)"),
                    {"type": type(default).__name__, "value": value},
                )
            out[key] = float(value) if isinstance(default, float) else value  # type: ignore[arg-type]
        return out

    @abstractmethod
    def rate(self, period: PeriodInput) -> PeriodResult:
        """Rate a whole period."""

    def explain(self, period: PeriodInput, player_id: str) -> Explanation:
        """One player's result and game lines. Default: filter ``rate``; regulations with a
        bulk path override it with a per-player computation that must agree with ``rate``."""
        result = self.rate(period)
        for player in result.players:
            if player.id == player_id:
                lines = tuple(line for line in result.games if line.player == player_id)
                return Explanation(player, lines)
        raise EngineInputError("", "player", _("unknown player %(id)r"), {"id": player_id})
