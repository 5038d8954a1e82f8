"""Query parameters read strictly, as the schema declares them (docs/api.md, "The schema tells
the truth"): a parameter given twice, a typed parameter given empty, a number, date or boolean
spelled otherwise than the schema says, or a value out of its declared bounds is 400 naming
the parameter; nothing is read as a default or clamped in silence.

``query_schema`` is the one description of a typed parameter: the schema shows it
(core.api.schema) and ``query_refusal`` checks a request against it, so they cannot disagree."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from rest_framework.exceptions import ValidationError

from core.middleware import ALLOWED_IN_VALUES

#: What the API reads as a boolean (django-filter's spellings), in any case.
BOOLEAN_WORDS = {"true": True, "false": False, "1": True, "0": False}
#: The largest id of a table (bigint primary keys).
MAX_ID = 2**63 - 1
_INTEGER = re.compile(r"-?[0-9]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: Django's sentence (in the office's catalogues too, as the other sentences of Django's here).
CHOICE_REFUSED = gettext_noop(
    "Select a valid choice. That choice is not one of the available choices."
)
#: Strings hold no control character (core.middleware refuses them in every query string).
STRING_SCHEMA: dict[str, Any] = {"type": "string", "pattern": ALLOWED_IN_VALUES}


def integer_schema(minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def query_refusal(schema: Mapping[str, Any], values: list[str]) -> str | None:
    """Why the values given for one parameter of this schema are refused, or None."""
    if len(values) > 1:
        return _("Give this parameter once.")
    (value,) = values
    kind = schema.get("type", "string")
    if kind == "string" and "enum" not in schema and "format" not in schema:
        # Text: its pattern, if any (control characters: core.middleware refused them already).
        pattern = schema.get("pattern")
        return None if pattern is None or re.search(pattern, value) else _("Enter a valid value.")
    if value == "":
        return _("Give a value, or leave the parameter out.")
    if "enum" in schema:
        return None if value in schema["enum"] else _(CHOICE_REFUSED)
    if kind == "boolean":
        return None if value.lower() in BOOLEAN_WORDS else _("Give true or false.")
    if kind == "integer":
        if not _INTEGER.fullmatch(value):
            return _("A whole number is required.")
        number = int(value)
        if "minimum" in schema and number < schema["minimum"]:
            return _("Ensure this value is greater than or equal to %(limit_value)s.") % {
                "limit_value": schema["minimum"]
            }
        if "maximum" in schema and number > schema["maximum"]:
            return _("Ensure this value is less than or equal to %(limit_value)s.") % {
                "limit_value": schema["maximum"]
            }
        return None
    if schema.get("format") == "date" and not _DATE.fullmatch(value):
        return _("Enter a valid date.")
    return None


def query_check(query: Any, schemas: Mapping[str, Mapping[str, Any]]) -> None:
    """Refuse (400, each parameter named) what ``query_refusal`` refuses among ``schemas``,
    the parameters an operation declares; others are left to the view."""
    errors = {}
    for name, schema in schemas.items():
        if name in query:
            reason = query_refusal(schema, query.getlist(name))
            if reason is not None:
                errors[name] = [reason]
    if errors:
        raise ValidationError(errors)


def query_int(query: Any, name: str, *, default: int, minimum: int, maximum: int) -> int:
    """One integer parameter, checked against its bounds (400 outside them)."""
    if name not in query:
        return default
    query_check(query, {name: integer_schema(minimum, maximum)})
    return int(query[name])


def query_text(query: Any, name: str, schema: Mapping[str, Any] = STRING_SCHEMA) -> str:
    """One text parameter ("" when absent); given twice, or off its pattern, it is refused."""
    if name not in query:
        return ""
    query_check(query, {name: schema})
    return str(query[name])
