"""Problems stored as JSON on a report: the parser's and the checks', untranslated."""

from __future__ import annotations

from typing import Any

from formats.reports import Problem


def _jsonable(value: object) -> object:
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)


def problem_to_dict(p: Problem) -> dict[str, Any]:
    params = {k: _jsonable(v) for k, v in dict(p.params).items()}
    return {
        "severity": p.severity,
        "code": p.code,
        "template": p.template,
        "params": params,
        "line": p.line,
        "column": p.column,
        "field": p.field,
        "article": params.get("article", ""),
    }


def problem_plain(code: str, template: str, **params: object) -> dict[str, Any]:
    return {
        "severity": "error",
        "code": code,
        "template": template,
        "params": {k: _jsonable(v) for k, v in params.items()},
        "line": None,
        "column": None,
        "field": "",
        "article": "",
    }
