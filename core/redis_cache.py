"""Django's Redis cache, with one Redis client per connection pool instead of one per call,
and reads and writes that fall back when Redis cannot be reached.

One client per pool. Why: Django's RedisCacheClient.get_client builds a new `redis.Redis` for
every get and set, and each one copies redis-py's table of about 80 response callbacks.
Measured on a player search's first request (four cache calls: the page and the results,
looked up then kept), that was about 0.2 ms of CPU per call, a sixth of the request's Python
time (docs/benchmarks.md, "Cold searches"). A `redis.Redis` is safe to share: it takes a
connection from its pool for each command. Everything else (serialisation, timeouts, keys) is
Django's.

Failing open (issue 28). Why: everything the site keeps in this cache can be made again (pages,
downloads, counts) or may be forgotten (the API's throttle counters), and Django's own Redis
backend, unlike django-redis (IGNORE_EXCEPTIONS), lets a connection error through, so a stopped
Redis turned every API request into a 500. Here a read that cannot reach Redis is a miss, a write
is dropped, and the site carries on from the database; the throttles count nothing while Redis
is away (they fail open). One warning is logged when Redis goes away and one line when it
answers again, not one per call. `delete`, `incr` and `clear` are not covered: a dropped
delete would leave a stale entry for when Redis is back, and their callers need the truth
(nothing in the site calls them on a request).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

#: What "Redis cannot be reached" is: refused or reset connections, and timeouts.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

_F = TypeVar("_F", bound=Callable[..., Any])


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


def _fail_open(fallback: Callable[..., Any]) -> Callable[[_F], _F]:
    """Run the client's method; when Redis cannot be reached, answer `fallback(*args)`."""

    def decorate(method: _F) -> _F:
        @functools.wraps(method)
        def wrapper(self: Any, *args: Any) -> Any:
            try:
                result = method(self, *args)
            except UNREACHABLE as exc:
                outage.failed(exc)
                return fallback(*args)
            outage.answered()
            return result

        return wrapper  # type: ignore[return-value]

    return decorate


def _nothing(*_args: Any) -> None:
    return None


def _false(*_args: Any) -> bool:
    return False


class SharedClientRedisCacheClient(RedisCacheClient):
    """RedisCacheClient keeping the client it makes for each pool, failing open (see the
    module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        this: Any = self  # django-stubs do not declare the client's private members
        pool = this._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = this._client(connection_pool=pool)
        return client

    # A read that cannot reach Redis is a miss; a write is dropped (nothing was kept).
    get = _fail_open(lambda _key, default=None: default)(RedisCacheClient.get)
    get_many = _fail_open(lambda *_args: {})(RedisCacheClient.get_many)
    has_key = _fail_open(_false)(RedisCacheClient.has_key)
    add = _fail_open(_false)(RedisCacheClient.add)
    set = _fail_open(_nothing)(RedisCacheClient.set)
    set_many = _fail_open(_nothing)(RedisCacheClient.set_many)
    touch = _fail_open(_false)(RedisCacheClient.touch)


class SharedClientRedisCache(RedisCache):
    """settings.CACHES backend: django.core.cache.backends.redis.RedisCache with
    SharedClientRedisCacheClient."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
