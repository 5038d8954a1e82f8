"""How a model declares its history (core/history.py reads it; docs/audit.md): one decorator.

Every tracked model records statement-level events (one trigger call per statement, so bulk
writes stay set-based) of inserts, updates and deletes unless it names its own events.
"""

from __future__ import annotations

from typing import Any

import pghistory


def history_track(*events: Any, **options: Any) -> Any:
    """``@pghistory.track`` with the office's defaults: ``events`` (all of insert, update and
    delete when none is named) at statement level; ``options`` as pghistory takes them
    (``exclude``, ``meta``…)."""
    trackers = events or (pghistory.InsertEvent(), pghistory.UpdateEvent(), pghistory.DeleteEvent())
    return pghistory.track(*trackers, level=pghistory.Statement, **options)
