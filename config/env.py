"""Reading settings from the environment, with one clear message per bad value.

Every reader raises ImproperlyConfigured whose message starts with the variable's name, so
`manage.py` (and the tests) can print exactly one line that tells the operator what to fix.
"""
from __future__ import annotations

import os
import zoneinfo
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

_env = environ.Env()
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def get_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip()


def require_str(name: str) -> str:
    value = get_str(name)
    if not value:
        raise ImproperlyConfigured(f"{name} is not set; it is required in this configuration")
    return value


def get_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off (got {raw!r})")


def get_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number (got {raw!r})") from None


def get_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def get_database(name: str, default: str) -> dict[str, Any]:
    raw = os.environ.get(name) or default
    scheme = raw.split(":", 1)[0]
    if "://" not in raw or scheme not in _env.DB_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} is not a database URL this site understands (got {raw!r}); "
            "use postgres://user:password@host:port/name or sqlite:///path"
        )
    try:
        config: dict[str, Any] = _env.db_url_config(raw)
    except Exception as exc:  # django-environ raises several kinds
        raise ImproperlyConfigured(f"{name} could not be parsed: {exc}") from None
    return config


def get_timezone(name: str, default: str) -> str:
    value = get_str(name, default) or default
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"{name} is not a known time zone (got {value!r}); e.g. Europe/Madrid"
        ) from None
    return value


def get_url(name: str, schemes: tuple[str, ...]) -> str:
    value = get_str(name, "") or ""
    if value and not value.startswith(tuple(f"{s}://" for s in schemes)):
        raise ImproperlyConfigured(
            f"{name} must start with one of {', '.join(s + '://' for s in schemes)} (got {value!r})"
        )
    return value
