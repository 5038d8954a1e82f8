"""Django's own Redis cache (django.core.cache.backends.redis.RedisCache), failing open: its
public reads and writes only are wrapped; nothing of its client is touched.

Failing open (issue 28). Why: everything the site keeps in this cache can be made again (pages,
fragments, downloads, counts) or may be forgotten (the API's throttle counters, the sign-up
counters of accounts/limits.py), and Django's Redis backend, unlike django-redis
(IGNORE_EXCEPTIONS), lets a connection error through, so a stopped Redis turned every API
request into a 500. Here a read that cannot reach Redis is a miss, a write is dropped, and the
site carries on from the database; the throttles count nothing while Redis is away (they fail
open). One warning is logged when Redis goes away and one line when it answers again, not one
per call. `delete`, `incr` and `clear` are not covered: a dropped delete would leave a stale
entry for when Redis is back, and their callers need the truth (accounts/limits.py catches
UNREACHABLE around its own `incr`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

#: What "Redis cannot be reached" is: refused or reset connections, and timeouts.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

_T = TypeVar("_T")


class _Outage:
    """Whether this process last found the cache away: one log line per change, not per call."""

    def __init__(self) -> None:
        self.away = False
        self._lock = threading.Lock()

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            if self.away:
                return
            self.away = True
        log.warning("cache unreachable (%s): serving without it until it answers", exc)

    def answered(self) -> None:
        if not self.away:  # the usual case: no lock taken
            return
        with self._lock:
            if not self.away:
                return
            self.away = False
        log.warning("cache reachable again")


outage = _Outage()


def _open(call: Callable[[], _T], fallback: _T) -> _T:
    """`call()`; `fallback` when Redis cannot be reached."""
    try:
        result = call()
    except UNREACHABLE as exc:
        outage.failed(exc)
        return fallback
    outage.answered()
    return result


class FailOpenRedisCache(RedisCache):
    """settings.CACHES backend: Django's RedisCache whose reads miss and whose writes are
    dropped while Redis cannot be reached (see the module's text)."""

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return _open(lambda: super(FailOpenRedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return _open(lambda: super(FailOpenRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return _open(lambda: super(FailOpenRedisCache, self).has_key(key, version), False)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return _open(
            lambda: super(FailOpenRedisCache, self).add(key, value, timeout, version), False
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        _open(lambda: super(FailOpenRedisCache, self).set(key, value, timeout, version), None)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return _open(lambda: super(FailOpenRedisCache, self).set_many(data, timeout, version), [])

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return _open(lambda: super(FailOpenRedisCache, self).touch(key, timeout, version), False)
