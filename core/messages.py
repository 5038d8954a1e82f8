"""Messages stored for later display: an English msgid with ``%(name)s`` placeholders and its
parameters (calculation notes, list-import problems), kept as JSON and shown in the reader's
language. Stored rows outlive engine versions and catalogue edits, so a message that does not
fit its parameters still renders: nothing here raises on a page.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext

MISSING = "?"  # shown in place of a parameter the message does not carry
# A template formats only if every "%" is "%%" or a named conversion: with a mapping, a bare
# "% s" would print the whole mapping instead of failing.
_FORMAT = re.compile(r"(?:[^%]|%%|%\([^()]*\)[-+ #0]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])*", re.DOTALL)
_JSON_SCALARS = (str, int, float, bool, type(None))


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DECIMAL = re.compile(r"^-?\d+\.(\d+)$")
_TEXT_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def param_localized(value: Any) -> Any:
    """A stored parameter as the reader writes it: an ISO date (``2026-09-10``, as JSON stores
    dates) in the locale's date format, a decimal number (a float, or a text such as
    ``"1589.40"`` the engine formatted) with the locale's decimal separator and the same
    decimals ("1589,40" in Spanish, beside the tables' "5,5"). Anything else as it is."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return number_format(value)
    if isinstance(value, str):
        if _ISO_DATE.match(value):
            try:
                return date_format(dt.date.fromisoformat(value), "DATE_FORMAT")
            except ValueError:
                return value
        decimal = _DECIMAL.match(value)
        if decimal:
            return number_format(float(value), decimal_pos=len(decimal.group(1)))
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return date_format(value, "DATE_FORMAT")
    return value


def params_localized(template: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters a template prints as text (``%(name)s``) localized (param_localized);
    the ones it formats itself (``%(x).1f``, ``%(n)d``) left as numbers."""
    texts = set(_TEXT_PLACEHOLDER.findall(template))
    return {k: param_localized(v) if k in texts else v for k, v in params.items()}


class _Params(dict[str, Any]):
    """The message's parameters; a placeholder without a value reads as MISSING."""

    def __missing__(self, key: str) -> str:
        return MISSING


def stored_message(template: str, params: Mapping[str, Any]) -> str:
    """``gettext(template) % params``. If the translation does not fit the parameters (a
    translator's typo, a parameter of the wrong type), the English template; if neither
    formats, the template as it is."""
    for candidate in dict.fromkeys((gettext(template), template)):
        if not _FORMAT.fullmatch(candidate):
            continue
        values = _Params(params_localized(candidate, params))
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
