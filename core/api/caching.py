"""Two levels of cache for the API's hot reads: the process's own memory (no round trip),
then the shared cache (Redis in production), then the database. For what does not change
(a page of a published list) or may lag a little (a player's card: a minute at most).
Keys carry the release (core.release): a deploy starts from an empty cache."""

from __future__ import annotations

from typing import Any

from django.core.cache import caches

from core.release import release

#: Longest time an entry stays in a process's memory (the shared cache keeps its own timeout).
LOCAL_SECONDS = 60


def cached_get(key: str) -> Any:
    key = f"{release()}:{key}"
    local = caches["local"]
    value = local.get(key)
    if value is None:
        value = caches["default"].get(key)
        if value is not None:
            local.set(key, value, LOCAL_SECONDS)
    return value


def cached_set(key: str, value: Any, timeout: int) -> None:
    key = f"{release()}:{key}"
    caches["default"].set(key, value, timeout)
    caches["local"].set(key, value, min(timeout, LOCAL_SECONDS))
