"""The calculator's JSON: read a period (``PeriodInput``), write a result (``PeriodResult``).

Fields are read generically from the dataclasses in ``types.py`` (by their annotations), so a
field a regulation appends there is accepted here without edits. Every problem raises
``EngineInputError`` naming the item and the field, e.g.
``tournaments[0].games[4].white: unknown player "1099"``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types as _pytypes
import typing
from collections.abc import Mapping
from datetime import date
from typing import Any

from .common import _, check_game_players, normalise_result
from .errors import EngineInputError
from .registry import get_regulation
from .types import (
    Decision,
    Game,
    PeriodInput,
    PeriodResult,
    PlayerInput,
    TournamentInput,
)

__all__ = [
    "dumps_result",
    "loads_period",
    "period_from_dict",
    "period_to_dict",
    "result_to_dict",
]

#: A date is written YYYY-MM-DD (date.fromisoformat alone also reads 20261001 or 2026-W40-1).
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: str fields that also accept a JSON integer (ids are often numeric in exports).
ID_FIELDS = frozenset({"id", "white", "black", "tournament"})
TOP_KEYS = ("ruleset", "period", "parameters", "players", "tournaments")


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _wrong_type(item: str, field: str, expected: str, value: object) -> EngineInputError:
    return EngineInputError(
        item,
        field,
        _("must be %(expected)s (got %(type)s %(value)s)"),
        {"expected": expected, "type": _type_name(value), "value": json.dumps(value)[:40]},
    )


def _convert(item: str, field: str, tp: Any, value: object) -> object:
    """Convert a JSON value to the annotated type ``tp``."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, _pytypes.UnionType):
        args = typing.get_args(tp)
        if value is None:
            if type(None) in args:
                return None
            raise _wrong_type(item, field, "not null", value)
        inner = [a for a in args if a is not type(None)]
        return _convert(item, field, inner[0], value)
    if tp is str:
        if isinstance(value, str):
            return value
        if field in ID_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        raise _wrong_type(item, field, "a string", value)
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _wrong_type(item, field, "true or false", value)
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise _wrong_type(item, field, "an integer", value)
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise _wrong_type(item, field, "a number", value)
    if tp is date:
        if not isinstance(value, str):
            raise _wrong_type(item, field, "a date YYYY-MM-DD", value)
        try:
            if not _DATE.fullmatch(value):
                raise ValueError(value)
            return date.fromisoformat(value)
        except ValueError:
            raise EngineInputError(
                item, field, _("bad date %(value)r (use YYYY-MM-DD)"), {"value": value}
            ) from None
    if origin is tuple:
        (elem, _ellipsis) = typing.get_args(tp)
        if not isinstance(value, list):
            raise _wrong_type(item, field, "an array", value)
        prefix = f"{item}.{field}" if item else field
        if dataclasses.is_dataclass(elem):
            return tuple(_read_dataclass(elem, f"{prefix}[{i}]", v) for i, v in enumerate(value))
        return tuple(_convert(prefix, f"[{i}]", elem, v) for i, v in enumerate(value))
    if origin in (Mapping, dict) or tp is Mapping:
        if not isinstance(value, dict):
            raise _wrong_type(item, field, "an object", value)
        return dict(value)
    raise TypeError(f"jsonio cannot read type {tp!r}")  # a programming error, not bad input


def _read_dataclass(cls: Any, item: str, obj: object) -> Any:
    if not isinstance(obj, dict):
        raise EngineInputError(
            item, "", _("must be an object (got %(type)s)"), {"type": _type_name(obj)}
        )
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in obj:
        if key not in fields:
            raise EngineInputError(
                item, str(key), _("unknown field (known: %(known)s)"), {"known": ", ".join(fields)}
            )
    kwargs: dict[str, object] = {}
    for name, f in fields.items():
        if name in obj:
            kwargs[name] = _convert(item, name, hints[name], obj[name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise EngineInputError(item, name, _("is required"))
    return cls(**kwargs)


def _check_non_negative(item: str, obj: object) -> None:
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        value = getattr(obj, f.name)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise EngineInputError(
                item, f.name, _("must not be negative (got %(value)s)"), {"value": value}
            )


def period_from_dict(data: object) -> PeriodInput:
    """Build a PeriodInput from parsed JSON; raises EngineInputError."""
    if not isinstance(data, dict):
        raise EngineInputError(
            "", "", _("the input must be a JSON object (got %(type)s)"), {"type": _type_name(data)}
        )
    for key in data:
        if key not in TOP_KEYS:
            raise EngineInputError(
                "", str(key), _("unknown field (known: %(known)s)"), {"known": ", ".join(TOP_KEYS)}
            )
    if "ruleset" not in data:
        raise EngineInputError("", "ruleset", _("is required"))
    ruleset = _convert("", "ruleset", str, data["ruleset"])
    assert isinstance(ruleset, str)
    regulation = get_regulation(ruleset)

    period = data.get("period")
    if not isinstance(period, dict):
        raise _wrong_type("", "period", 'an object {"start": ..., "end": ...}', period)
    for key in period:
        if key not in ("start", "end"):
            raise EngineInputError("period", str(key), _("unknown field (known: start, end)"))
    for key in ("start", "end"):
        if key not in period:
            raise EngineInputError("period", key, _("is required"))
    start = _convert("period", "start", date, period["start"])
    end = _convert("period", "end", date, period["end"])
    assert isinstance(start, date) and isinstance(end, date)
    if end < start:
        raise EngineInputError("period", "end", _("ends before it starts"))

    raw_parameters = data.get("parameters", {})
    if not isinstance(raw_parameters, dict):
        raise _wrong_type("", "parameters", "an object", raw_parameters)
    parameters = regulation.validate_parameters(raw_parameters)

    raw_players = data.get("players", [])
    if not isinstance(raw_players, list):
        raise _wrong_type("", "players", "an array", raw_players)
    players: list[PlayerInput] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_players):
        item = f"players[{i}]"
        player = _read_dataclass(PlayerInput, item, raw)
        _check_non_negative(item, player)
        for j, prior in enumerate(player.prior_results):
            pitem = f"{item}.prior_results[{j}]"
            _check_non_negative(pitem, prior)
            if prior.score not in (0.0, 0.5, 1.0):
                raise EngineInputError(
                    pitem, "score", _("must be 0, 0.5 or 1 (got %(value)s)"), {"value": prior.score}
                )
        if player.id in seen:
            raise EngineInputError(item, "id", _("duplicate player id %(id)r"), {"id": player.id})
        seen.add(player.id)
        players.append(player)

    raw_tournaments = data.get("tournaments", [])
    if not isinstance(raw_tournaments, list):
        raise _wrong_type("", "tournaments", "an array", raw_tournaments)
    tournaments: list[TournamentInput] = []
    for t, raw in enumerate(raw_tournaments):
        item = f"tournaments[{t}]"
        tournament: TournamentInput = _read_dataclass(TournamentInput, item, raw)
        _check_non_negative(item, tournament)
        games: list[Game] = []
        for g, game in enumerate(tournament.games):
            gitem = f"{item}.games[{g}]"
            check_game_players(gitem, game, seen)
            code = normalise_result(game.result)
            if code is None:
                raise EngineInputError(
                    gitem,
                    "result",
                    _("bad result code %(result)s (use 1-0, 0-1 or 1/2-1/2)"),
                    {"result": json.dumps(game.result)},
                )
            _check_non_negative(gitem, game)
            games.append(dataclasses.replace(game, result=code))
        tournaments.append(dataclasses.replace(tournament, games=tuple(games)))

    return PeriodInput(
        ruleset=ruleset,
        start=start,
        end=end,
        parameters=parameters,
        players=tuple(players),
        tournaments=tuple(tournaments),
    )


def loads_period(text: str) -> PeriodInput:
    """Parse the calculator JSON; malformed JSON is reported with its line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise EngineInputError(
            "",
            "json",
            _("malformed JSON at line %(line)s column %(column)s: %(problem)s"),
            {"line": err.lineno, "column": err.colno, "problem": err.msg},
        ) from None
    return period_from_dict(data)


def _plain(value: object) -> object:
    if isinstance(value, Decision):
        return {
            "code": value.code,
            "article": value.article,
            "message": value.message,
            "template": value.template,
            "params": {k: _plain(v) for k, v in value.params.items()},
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def result_to_dict(result: PeriodResult) -> dict[str, object]:
    out = _plain(result)
    assert isinstance(out, dict)
    return out


def period_to_dict(period: PeriodInput) -> dict[str, object]:
    """The inverse of ``period_from_dict`` (all fields written)."""
    return {
        "ruleset": period.ruleset,
        "period": {"start": period.start.isoformat(), "end": period.end.isoformat()},
        "parameters": _plain(period.parameters),
        "players": _plain(period.players),
        "tournaments": _plain(period.tournaments),
    }


def dumps_result(result: PeriodResult, *, indent: int | None = 2) -> str:
    return json.dumps(result_to_dict(result), indent=indent, ensure_ascii=False)
