"""PostgreSQL COPY text format, shared by every bulk writer (generator, calculation drafts).

One encoder so that NULL, booleans, JSON and the escapes of backslash, tab and newlines are
written the same way everywhere.
"""
from __future__ import annotations

import json
from typing import Any

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value: Any) -> str:
    """One field of a COPY … FROM STDIN line (text format)."""
    if value is None:
        return r"\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, (list, dict)):
        value = json.dumps(value)
    if isinstance(value, str):
        return value.translate(_ESCAPES)
    return str(value)  # int, float, Decimal, date, aware datetime: ISO forms PostgreSQL accepts
