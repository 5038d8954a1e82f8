"""The rating engine: pure Python (no Django), typed, one module per regulation.

``rate_period(period)`` looks the regulation up by ``period.ruleset`` and rates the period.
Every stored result names the ruleset id and ``ENGINE_VERSION``.
"""

from __future__ import annotations

from .types import PeriodInput, PeriodResult

__all__ = ["ENGINE_VERSION", "rate_period"]

ENGINE_VERSION = "1.0.0"


def rate_period(period: PeriodInput) -> PeriodResult:
    """Rate a period under its regulation (``UnknownRulesetError`` for an unknown id)."""
    from .registry import get_regulation

    regulation = get_regulation(period.ruleset)
    regulation.validate_parameters(period.parameters)
    return regulation.rate(period)
