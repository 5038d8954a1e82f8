"""core.redis_cache: Django's Redis cache with one client per connection pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.conf import settings

from config import env
from core.redis_cache import SharedClientRedisCache


def _default() -> dict[str, Any]:
    return cast(dict[str, Any], settings.CACHES["default"])


@pytest.fixture
def redis_cache() -> Iterator[SharedClientRedisCache]:
    default = _default()
    if default["BACKEND"] != "core.redis_cache.SharedClientRedisCache":
        pytest.skip("no Redis cache configured (CACHE_URL)")
    backend = SharedClientRedisCache(
        default["LOCATION"], {"KEY_PREFIX": "test-redis-cache", "TIMEOUT": 60}
    )
    yield backend
    backend.delete_many(["a", "b"])


def test_one_client_serves_every_call(redis_cache: SharedClientRedisCache) -> None:
    client = cast(Any, redis_cache)._cache
    first = client.get_client("a", write=True)
    assert client.get_client("b") is first  # one server: reads and writes share the pool
    redis_cache.set("a", {"rating": 2101}, 30)
    assert redis_cache.get("a") == {"rating": 2101}
    assert redis_cache.get("b", "missing") == "missing"
    redis_cache.set("b", [1, 2], 30)
    assert redis_cache.get_many(["a", "b"]) == {"a": {"rating": 2101}, "b": [1, 2]}
    assert client.get_client("a") is first


def test_the_site_uses_it_when_a_redis_url_is_set() -> None:
    if not env.get_str("CACHE_URL"):
        pytest.skip("no CACHE_URL")
    assert _default()["BACKEND"] == "core.redis_cache.SharedClientRedisCache"
