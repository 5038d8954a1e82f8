"""The calculator's input (``jsonio.period_from_dict``) as a JSON Schema, built from the same
annotations the reader reads (``types.py``) and the regulations' parameters, so that a field a
regulation appends is described without edits. The API publishes it (the calculator's request
body) and tells a body that does not match it (400) from one the engine refuses for what it
says (422: an unknown player in a game, an end before the start).

``nullable="openapi"`` writes an optional value as OpenAPI 3.0 does (``nullable: true``);
``nullable="json-schema"`` as JSON Schema does (``anyOf`` with ``{"type": "null"}``)."""

from __future__ import annotations

import dataclasses
import types as _pytypes
import typing
from collections.abc import Mapping
from datetime import date
from typing import Any, Literal

from .common import RESULT_SPELLINGS
from .jsonio import ID_FIELDS, TOP_KEYS
from .registry import all_regulations
from .types import Game, PlayerInput, PriorResult, TournamentInput

__all__ = ["period_input_schema"]

Nullable = Literal["openapi", "json-schema"]


def _escape(character: str) -> str:
    """A character of a result in a pattern every regex dialect reads alike (re.escape's
    ``\\-`` is an error in ECMA's unicode mode)."""
    return "\\." if character == "." else character


#: What a schema cannot say from an annotation alone: the reader's own checks.
_SPECIAL: dict[tuple[type, str], dict[str, Any]] = {
    # normalise_result: an alias, surrounding whitespace and inner spaces ignored.
    (Game, "result"): {
        "type": "string",
        "pattern": r"^\s*(?:"
        + "|".join(" *".join(_escape(c) for c in spelling) for spelling in RESULT_SPELLINGS)
        + r")\s*$",
        "description": "1-0, 0-1 or 1/2-1/2 (½-½, 0.5-0.5 and .5-.5 accepted).",
    },
    (PriorResult, "score"): {"type": "number", "enum": [0, 0.5, 1]},
}


def _nullable(schema: dict[str, Any], style: Nullable) -> dict[str, Any]:
    if style == "openapi":
        return {**schema, "nullable": True}
    return {"anyOf": [schema, {"type": "null"}]}


def _field_schema(owner: type, name: str, tp: Any, style: Nullable) -> dict[str, Any]:
    """The schema of one annotated field (jsonio._convert's reading of it)."""
    if (owner, name) in _SPECIAL:
        return dict(_SPECIAL[owner, name])
    origin = typing.get_origin(tp)
    if origin in (typing.Union, _pytypes.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _nullable(_field_schema(owner, name, inner[0], style), style)
    if tp is str:
        if name in ID_FIELDS:  # an id may be given as a JSON integer
            return {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        return {"type": "string"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:  # every count and rating of the input is non-negative (_check_non_negative)
        return {"type": "integer", "minimum": 0}
    if tp is float:
        return {"type": "number"}
    if tp is date:
        return {"type": "string", "format": "date"}
    if origin is tuple:
        (elem, _ellipsis) = typing.get_args(tp)
        items = (
            _object_schema(elem, style)
            if dataclasses.is_dataclass(elem)
            else _field_schema(owner, name, elem, style)
        )
        return {"type": "array", "items": items}
    if origin in (Mapping, dict) or tp is Mapping:
        return {"type": "object"}
    raise TypeError(f"no schema for {tp!r}")  # a programming error, as in jsonio


def _object_schema(cls: Any, style: Nullable) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    required = [
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: _field_schema(cls, f.name, hints[f.name], style) for f in fields},
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def _parameter_schema(field: dataclasses.Field[Any]) -> dict[str, Any]:
    """A regulation parameter, as Regulation.validate_parameters reads it (by its default)."""
    default = field.default
    if isinstance(default, bool):
        return {"type": "boolean"}
    if isinstance(default, int):
        return (
            {"type": "integer", "minimum": 0}
            if field.metadata.get("non_negative")
            else {"type": "integer"}
        )
    if isinstance(default, float):
        return {"type": "number"}
    if isinstance(default, str):
        return {"type": "string"}
    return {}


def _parameters_schema() -> dict[str, Any]:
    """Every regulation's parameters; a name another regulation uses only is refused by the
    period's own regulation (a 422 at the API), a name no regulation has by the schema."""
    properties: dict[str, dict[str, Any]] = {}
    for regulation in all_regulations().values():
        for field in dataclasses.fields(regulation.parameters_type):
            schema = _parameter_schema(field)
            known = properties.get(field.name)
            if known is None:
                properties[field.name] = schema
            elif known != schema and schema not in known.get("anyOf", []):
                properties[field.name] = {"anyOf": [*known.get("anyOf", [known]), schema]}
    return {
        "type": "object",
        "description": "The regulation's parameters (each with its default when left out).",
        "properties": dict(sorted(properties.items())),
        "additionalProperties": False,
    }


def period_input_schema(*, nullable: Nullable = "openapi") -> dict[str, Any]:
    """The calculator's JSON input (docs/calculator.md) as a schema."""
    properties = {
        "ruleset": {"type": "string", "enum": sorted(all_regulations())},
        "period": {
            "type": "object",
            "properties": {
                "start": {"type": "string", "format": "date"},
                "end": {"type": "string", "format": "date"},
            },
            "required": ["start", "end"],
            "additionalProperties": False,
        },
        "parameters": _parameters_schema(),
        "players": {"type": "array", "items": _object_schema(PlayerInput, nullable)},
        "tournaments": {"type": "array", "items": _object_schema(TournamentInput, nullable)},
    }
    assert tuple(properties) == TOP_KEYS  # the reader's keys, in its order
    return {
        "type": "object",
        "properties": properties,
        "required": ["ruleset", "period"],
        "additionalProperties": False,
    }
