"""Finds the regulations: every module in ``rating_engine/regulations/`` that defines a
module-level ``REGULATION`` instance. Adding a regulation never edits this file."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from . import regulations as _package
from .errors import UnknownRulesetError
from .regulations.base import Regulation

__all__ = ["all_regulations", "available_rulesets", "get_regulation"]


@cache
def all_regulations() -> dict[str, Regulation[Any]]:
    found: dict[str, Regulation[Any]] = {}
    for info in sorted(pkgutil.iter_modules(_package.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{_package.__name__}.{info.name}")
        regulation = getattr(module, "REGULATION", None)
        if isinstance(regulation, Regulation):
            if regulation.id in found:
                raise RuntimeError(f"two regulations with id {regulation.id!r}")
            found[regulation.id] = regulation
    return found


def available_rulesets() -> tuple[str, ...]:
    return tuple(sorted(all_regulations()))


def get_regulation(ruleset: str) -> Regulation[Any]:
    regulations = all_regulations()
    try:
        return regulations[ruleset]
    except KeyError:
        raise UnknownRulesetError(ruleset, regulations) from None
