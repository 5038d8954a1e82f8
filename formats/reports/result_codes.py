"""Result codes: the points each is worth, its mirror on the opponent's side, the kind of game
it records (FORMATS.md, "Result codes")."""

from __future__ import annotations

from .records import GameKind

# Default points of each result code (FORMATS.md, "Result codes"). Blank counts as Z.
POINTS: dict[str, float] = {
    "1": 1.0,
    "=": 0.5,
    "0": 0.0,
    "+": 1.0,
    "-": 0.0,
    "W": 1.0,
    "D": 0.5,
    "L": 0.0,
    "H": 0.5,
    "F": 1.0,
    "U": 1.0,
    "Z": 0.0,
    "": 0.0,
}


GAME_CODES = frozenset("1=0+-WDL")


BYE_CODES = frozenset({"H", "F", "U", "Z", ""})


MIRROR: dict[str, str] = {
    "1": "0",
    "0": "1",
    "=": "=",
    "+": "-",
    "-": "+",
    "W": "L",
    "L": "W",
    "D": "D",
}


_BYE_KIND: dict[str, GameKind] = {
    "H": "bye_half",
    "F": "bye_full",
    "U": "bye_pab",
    "Z": "bye_zero",
    "": "bye_zero",
    "+": "bye_full",
    "-": "absent",
}


# Canonical code of each bye kind (`0000 - +` is stored as F, a blank result as Z).
_CANONICAL: dict[str, str] = {
    "bye_half": "H",
    "bye_full": "F",
    "bye_pab": "U",
    "bye_zero": "Z",
    "absent": "-",
}


_GAME_KIND: dict[str, GameKind] = {
    "1": "played",
    "=": "played",
    "0": "played",
    "+": "forfeit",
    "-": "forfeit",
    "W": "short",
    "D": "short",
    "L": "short",
}


def game_kind(code: str) -> GameKind:
    if code in "1=0":
        return "played"
    if code in "+-":
        return "forfeit"
    return "short"
