"""Issue 28: what the site does when a part of the stack fails while it serves.

- The cache's Redis away: the pages and the API still answer, the API's throttles and the
  accounts' limits count nothing and let the request through (django-redis with
  DJANGO_REDIS_IGNORE_EXCEPTIONS, config/settings.py); no log line per call, and a Redis that
  hangs costs each call at most its socket timeouts.
- The database connection lost mid-request: 503 with Retry-After, in the API's error shape under
  /api/ and as a friendly translated page elsewhere; what the request was writing is rolled
  back (config/api_urls.server_error, core/errors.py).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.limits import limit_count, limit_exceeded, limit_reached
from core.errors import RETRY_AFTER_SECONDS
from tests.factories import make_player, make_user
from tests.tournaments.test_flow import sample_trf, setup  # noqa: F401 (fixture)
from tournaments.models import Report, Tournament

pytestmark = pytest.mark.django_db

#: Nothing listens on the discard port of loopback: a connection there is refused at once.
AWAY = "redis://127.0.0.1:9/0"
LOCMEM = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}


def _redis_cache(location: str) -> dict[str, Any]:
    """The site's Redis cache (config/settings.py: backend and options) at `location`."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": location,
        "OPTIONS": settings.CACHE_REDIS_OPTIONS,
    }


def _caches_away() -> dict[str, Any]:
    return {"default": _redis_cache(AWAY), "local": LOCMEM}


@pytest.fixture
def cache_away() -> Iterator[None]:
    with override_settings(CACHES=_caches_away()):
        yield


# --- the cache away ---------------------------------------------------------------------------


def test_a_cache_that_cannot_be_reached_misses_and_drops_writes_without_a_log_line(
    caplog, cache_away
) -> None:
    cache = caches["default"]
    with caplog.at_level(logging.DEBUG):
        assert cache.get("a", "missing") == "missing"
        cache.set("a", 1, 30)
        assert not cache.add("a", 1, 30)
        assert cache.get_many(["a", "b"]) == {}
        assert not cache.has_key("a")
        assert cache.incr("a") is None
        assert not cache.delete("a")
        assert cache.get_or_set("b", lambda: "made", 30) == "made"
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.fixture
def hung_redis() -> Iterator[str]:
    """A server that takes connections (the kernel's backlog) and never answers; it goes away
    after 10 seconds, so a client without timeouts would wait about that long."""
    server = socket.create_server(("127.0.0.1", 0), backlog=64)
    closer = threading.Timer(10, server.close)
    closer.start()
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        closer.cancel()
        server.close()


def test_a_cache_that_hangs_costs_a_call_its_timeouts_only(hung_redis) -> None:
    options = settings.CACHE_REDIS_OPTIONS
    bound = options.get("SOCKET_CONNECT_TIMEOUT", 0) + options.get("SOCKET_TIMEOUT", 0)
    assert 0 < bound <= 2  # a dead Redis must not hold a request for long
    with override_settings(CACHES={"default": _redis_cache(hung_redis), "local": LOCMEM}):
        started = time.perf_counter()
        assert caches["default"].get("a", "missing") == "missing"
        took = time.perf_counter() - started
    assert took < bound + 0.5, took


#: One request a minute: the second is refused (429) whenever the throttle can count.
_TIGHT = {"anon": "1/minute", "user": "1/minute", "calculator": None}
_OFF = {"anon": None, "user": None, "calculator": None}


def test_the_api_answers_and_its_throttle_fails_open_with_the_cache_away() -> None:
    make_player(surname="Vidal", given_name="Marc")
    counted = {"default": LOCMEM, "local": LOCMEM}
    with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", _TIGHT):
        with override_settings(CACHES=counted):  # the throttle works: the second is refused
            up = [APIClient().get("/api/v1/players/").status_code for _ in range(2)]
        with override_settings(CACHES=_caches_away()):
            away = [APIClient().get("/api/v1/players/") for _ in range(3)]
    assert up == [200, 429]
    assert [a.status_code for a in away] == [200, 200, 200]  # nothing counted, nothing refused
    assert away[0].json()["count"] == 1


def test_the_pages_answer_with_the_cache_away(client, cache_away) -> None:
    player = make_player(surname="Vidal", given_name="Marc")
    for url in ("/", "/players/?q=Vidal", f"/players/{player.fed_id}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Vidal" in response.content.decode() or url == "/", url


def test_the_limits_count_with_the_cache_up_and_let_everything_through_with_it_away(
    caplog,
) -> None:
    with override_settings(CACHES={"default": LOCMEM, "local": LOCMEM}):
        counts = [limit_count(scope="t", who="a@x.org", seconds=60) for _ in range(3)]
        reached = limit_reached(scope="t", who="a@x.org", limit=3)
        exceeded = limit_exceeded(scope="t", who="a@x.org", limit=3, seconds=60)
    assert (counts, reached, exceeded) == ([1, 2, 3], True, True)
    with override_settings(CACHES=_caches_away()), caplog.at_level(logging.WARNING):
        counts = [limit_count(scope="t", who="a@x.org", seconds=60) for _ in range(3)]
        reached = limit_reached(scope="t", who="a@x.org", limit=1)
        exceeded = limit_exceeded(scope="t", who="a@x.org", limit=0, seconds=60)
    assert (counts, reached, exceeded) == ([0, 0, 0], False, False)
    lines = [r.getMessage() for r in caplog.records if r.name == "accounts.limits"]
    assert lines == ["accounts: the cache is unreachable, t not counted"] * 4


def _sign_up(client: Client, n: int) -> int:
    return client.post(
        "/accounts/signup/",
        {
            "username": f"away{n}",
            "email": f"away{n}@example.org",
            "password1": "a long and unusual passphrase 7",
            "password2": "a long and unusual passphrase 7",
        },
    ).status_code


@override_settings(ACCOUNTS_SIGNUPS_PER_HOUR=1)
def test_sign_ups_are_let_through_with_the_cache_away(cache_away) -> None:
    client = Client(REMOTE_ADDR="192.0.2.78")
    assert [_sign_up(client, n) for n in range(3)] == [302, 302, 302]
    assert get_user_model().objects.filter(username__startswith="away").count() == 3


# --- the database connection lost -------------------------------------------------------------


def _failing_on(sql_start: str, fail: Callable[[], None]) -> Callable[..., Any]:
    """An execute wrapper (connection.execute_wrapper) calling `fail` before the first query
    whose SQL starts with `sql_start`."""

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any):
        if sql.lstrip().upper().startswith(sql_start):
            fail()
        return execute(sql, params, many, context)

    return wrapper


def _dropped() -> None:
    raise OperationalError("terminating connection due to administrator command")


def test_a_lost_connection_answers_503_in_the_api_error_shape() -> None:
    make_player(surname="Vidal", given_name="Marc")
    with (
        mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", _OFF),
        connection.execute_wrapper(_failing_on("SELECT", _dropped)),
    ):
        response = APIClient(raise_request_exception=False).get("/api/v1/players/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = response.json()
    assert set(body) == {"status", "code", "message", "errors"}
    assert body["status"] == 503 and body["code"] == "unavailable" and body["errors"] == []
    assert "database" in body["message"]


def test_a_lost_connection_answers_a_friendly_translated_page() -> None:
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(_failing_on("SELECT", _dropped)):
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
        english = client.get("/")
    assert response.status_code == 503 and english.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    html = response.content.decode()
    assert 'id="error-reason"' in html and ("<nav" in html or "<header" in html)  # the layout
    assert "base de datos" in html  # translated
    assert "Server error" not in english.content.decode()
    assert "could not reach its database" in english.content.decode()


def test_another_server_error_stays_a_500() -> None:
    client = Client(raise_request_exception=False)

    def crash() -> None:
        raise ZeroDivisionError

    with (
        mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", _OFF),
        connection.execute_wrapper(_failing_on("SELECT", crash)),
    ):
        page = client.get("/")
        api = APIClient(raise_request_exception=False).get("/api/v1/players/")
    assert page.status_code == 500 and api.status_code == 500
    assert api.json()["code"] == "server_error"


@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_while_writing_stores_nothing(setup) -> None:  # noqa: F811
    """A real kill: pg_terminate_backend on the request's own backend just before the report
    is written, from another connection, as an operator (or a failover) would."""
    client = Client(raise_request_exception=False)
    tournament = setup["tournament"]
    client.force_login(setup["arbiter"])

    def kill() -> None:
        pid = connection.connection.info.backend_pid
        dsn = connection.get_connection_params()
        with psycopg.connect(
            dbname=dsn["dbname"],
            host=dsn.get("host"),
            port=dsn.get("port"),
            user=dsn.get("user"),
            password=dsn.get("password"),
            autocommit=True,
        ) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])

    try:
        with connection.execute_wrapper(_failing_on('INSERT INTO "TOURNAMENTS_REPORT"', kill)):
            response = client.post(
                reverse("tournaments:upload", args=[tournament.pk]),
                {"file": SimpleUploadedFile("r.trf", sample_trf()), "format": "auto"},
            )
    finally:
        connection.close()  # the killed connection; the next query opens a new one
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert not Report.objects.exists()  # the upload's transaction was rolled back
    assert Tournament.objects.get(pk=tournament.pk).status == "registered"
    assert make_user("after-the-fault")  # the site carries on with a new connection
