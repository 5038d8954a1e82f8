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


def cached_get(key: str, *, shared: bool = True) -> Any:
    """The value kept under `key`: from the process's memory, else (`shared`) from the shared
    cache."""
    key = f"{release()}:{key}"
    local = caches["local"]
    value = local.get(key)
    if value is None and shared:
        value = caches["default"].get(key)
        if value is not None:
            local.set(key, value, LOCAL_SECONDS)
    return value


def cached_set(key: str, value: Any, timeout: int, *, shared: bool = True) -> None:
    """Keep `value` under `key` for `timeout` seconds: in the shared cache and for at most
    LOCAL_SECONDS in the process's memory; with `shared=False` only in the process's memory,
    for `timeout` (what is seldom asked twice, where a round trip to the shared cache would
    cost more than it saves: core.caching.page_cached)."""
    key = f"{release()}:{key}"
    if not shared:
        caches["local"].set(key, value, timeout)
        return
    caches["default"].set(key, value, timeout)
    caches["local"].set(key, value, min(timeout, LOCAL_SECONDS))
