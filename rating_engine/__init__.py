"""The rating engine: pure Python (no Django), typed, one module or package per regulation.

``rate_period(period)`` looks the regulation up by ``period.ruleset`` and rates the period.
Every result names the ruleset id and the regulation's version (``Regulation.version``,
``"fide-2024/2"``: rating_engine/version.py).
"""

from __future__ import annotations

from .registry import get_regulation
from .types import PeriodInput, PeriodResult
from .version import ENGINE_VERSION

__all__ = ["ENGINE_VERSION", "rate_period"]


def rate_period(period: PeriodInput) -> PeriodResult:
    """Rate a period under its regulation (``UnknownRulesetError`` for an unknown id)."""
    regulation = get_regulation(period.ruleset)
    regulation.validate_parameters(period.parameters)
    return regulation.rate(period)
