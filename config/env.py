"""Reading settings from the environment, with one clear message per bad value.

Every reader raises ImproperlyConfigured whose message starts with the variable's name, so
`manage.py` (and the tests) can print exactly one line that tells the operator what to fix.
"""

from __future__ import annotations

import os
import zoneinfo
from typing import Any
from urllib.parse import unquote

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
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off (got {raw!r})"
    )


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


#: The only database this site runs on (django-environ's names for PostgreSQL URLs).
POSTGRES_SCHEMES = ("postgres", "postgresql", "pgsql")
#: The backend used while the URL is unset: any use of the database names the variable.
UNSET_DATABASE = {"ENGINE": "config.no_database", "NAME": ""}


def get_database(name: str) -> dict[str, Any]:
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return dict(UNSET_DATABASE)
    scheme = raw.split(":", 1)[0]
    if "://" not in raw or scheme not in POSTGRES_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} must be a PostgreSQL URL, postgres://user:password@host:port/name "
            f"(got {raw!r}); PostgreSQL is the only database"
        )
    try:
        config: dict[str, Any] = _env.db_url_config(raw)
    except Exception as exc:  # django-environ raises several kinds
        raise ImproperlyConfigured(f"{name} could not be parsed: {exc}") from None
    # A Unix-socket folder is written percent-encoded in the host, as libpq reads it
    # (postgres://postgres@%2Fpath%2Fto%2F.pgdata/name); django-environ leaves it encoded.
    if "%" in str(config.get("HOST", "")):
        config["HOST"] = unquote(config["HOST"])
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
