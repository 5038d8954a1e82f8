"""Messages stored for later display: an English msgid with ``%(name)s`` placeholders and its
parameters (calculation notes, list-import problems), kept as JSON and shown in the reader's
language. Stored rows outlive engine versions and catalogue edits, so a message that does not
fit its parameters still renders: nothing here raises on a page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

MISSING = "?"  # shown in place of a parameter the message does not carry
# A template formats only if every "%" is "%%" or a named conversion: with a mapping, a bare
# "% s" would print the whole mapping instead of failing.
_FORMAT = re.compile(r"(?:[^%]|%%|%\([^()]*\)[-+ #0]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])*", re.DOTALL)
_JSON_SCALARS = (str, int, float, bool, type(None))


class _Params(dict[str, Any]):
    """The message's parameters; a placeholder without a value reads as MISSING."""

    def __missing__(self, key: str) -> str:
        return MISSING


def stored_message(template: str, params: Mapping[str, Any]) -> str:
    """``gettext(template) % params``. If the translation does not fit the parameters (a
    translator's typo, a parameter of the wrong type), the English template; if neither
    formats, the template as it is."""
    values = _Params(params)
    for candidate in dict.fromkeys((gettext(template), template)):
        if not _FORMAT.fullmatch(candidate):
            continue
        try:
            return candidate % values
        except (TypeError, ValueError, OverflowError):
            continue
    return template


def json_ready(value: Any) -> Any:
    """What json.loads(json.dumps(value, default=str)) gives (a date becomes its text), without
    the text round trip: it was a quarter of the first-ratings pass of a semester."""
    if isinstance(value, _JSON_SCALARS):
        return value
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    return str(value)
