"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

Why: Django's RedisCacheClient.get_client builds a new `redis.Redis` for every get and set,
and each one copies redis-py's table of about 80 response callbacks. Measured on a player
search's first request (four cache calls: the page and the results, looked up then kept),
that was about 0.2 ms of CPU per call, a sixth of the request's Python time
(docs/benchmarks.md, "Cold searches"). A `redis.Redis` is safe to share: it takes a connection
from its pool for each command. Everything else (serialisation, timeouts, keys) is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    """RedisCacheClient keeping the client it makes for each pool."""

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


class SharedClientRedisCache(RedisCache):
    """settings.CACHES backend: django.core.cache.backends.redis.RedisCache with
    SharedClientRedisCacheClient."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
