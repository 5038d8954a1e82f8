"""Versions: what names the code that made a result, like a password hasher's algorithm name.

Each regulation module declares its own ``VERSION = "<ruleset>/<n>"`` (``"fide-2024/2"``): the
ruleset id and a revision number, bumped by one whenever the regulation's result changes for
some input (docs/engine.md "Versions: when to bump"; tests/rating_engine/test_golden.py enforces
it). Every result and every stored row names it. Revision 1 is what ``ENGINE_VERSION`` "1.0.0"
made, before regulations had versions (several codes over time), so every regulation starts at 2.

``ENGINE_VERSION`` is the engine package's own version; it no longer changes with results (rows
keep writing it beside the regulation's version) and names no result by itself.
"""

from __future__ import annotations

import re

__all__ = ["ENGINE_VERSION", "check_version", "version_number"]

ENGINE_VERSION = "1.0.0"

_VERSION = re.compile(r"(?P<ruleset>[a-z0-9-]+)/(?P<number>[1-9][0-9]*)")


def check_version(ruleset: str, version: str) -> str:
    """``version`` if it reads ``"<ruleset>/<n>"`` with n >= 2, else ValueError."""
    match = _VERSION.fullmatch(version)
    if match is None or match["ruleset"] != ruleset or int(match["number"]) < 2:
        raise ValueError(
            f"{ruleset}: VERSION must read {ruleset!r}/<n> with n >= 2 (got {version!r})"
        )
    return version


def version_number(version: str) -> int | None:
    """The revision number of ``"<ruleset>/<n>"``; None for anything else (rows made before
    regulations had versions keep an empty one)."""
    match = _VERSION.fullmatch(version)
    return None if match is None else int(match["number"])
