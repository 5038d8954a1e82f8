"""cnxc-2000: a game's side, a player's entry and a competition while a period is rated."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class _Side:
    """Who holds one side of a game after 7.2 a-c: (player id, role)."""

    players: tuple[tuple[str, str], ...]  # role: "player" | "original" | "substitute"


@dataclass(slots=True)
class _Entry:
    opponent: str
    opponent_rating: int
    score: float


@dataclass(slots=True)
class _Competition:
    entries: list[_Entry] = field(default_factory=list)
