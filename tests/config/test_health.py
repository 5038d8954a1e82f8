"""/healthz and /healthz/web (config/health.py, django-health-check): which checks run in which
mode, the JSON answer, and a failing check turning the page into an error."""

from __future__ import annotations

import os
from unittest import mock

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from health_check.checks import Database
from health_check.contrib.celery import Ping
from health_check.exceptions import ServiceUnavailable

from tests.workers import redis_up

JSON = {"HTTP_ACCEPT": "application/json"}
DATABASE = "Database(alias='default')"
CACHE = "Cache(alias='default')"
WORKER = "WorkerPing()"
# The broker the tests may use: the one CI (or the developer) configured, if it is Redis.
_env_broker = os.environ.get("CELERY_BROKER_URL", "")
BROKER = _env_broker if _env_broker.startswith("redis://") else "redis://127.0.0.1:6379/8"


needs_redis = pytest.mark.skipif(not redis_up(), reason="Redis is not reachable on 127.0.0.1:6379")


def with_broker(url: str = BROKER) -> override_settings:
    """Tasks go through a broker (the conftest's autouse fixture turns eager mode on)."""
    return override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=url)


def _redis_key() -> str:
    """How the broker check names itself: host, port and db of BROKER (no password)."""
    host_port, db = BROKER.removeprefix("redis://").rsplit("@", 1)[-1].split("/")
    host, port = host_port.split(":")
    return f"Redis(db={int(db)}, host={host!r}, port={int(port)})"


@pytest.mark.django_db
def test_eager_mode_checks_database_and_cache_and_answers_200_in_json(client) -> None:
    response = client.get("/healthz", **JSON)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {DATABASE: "OK", CACHE: "OK"}
    assert reverse("healthz") == "/healthz"


@pytest.mark.django_db
def test_the_page_is_never_cached(client) -> None:
    response = client.get("/healthz", **JSON)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/healthz", "/healthz/web"])
def test_a_failing_database_check_fails_the_page(client, url: str) -> None:
    def down(self: Database) -> None:
        raise ServiceUnavailable("connection failed")

    with mock.patch.object(Database, "run", down):
        response = client.get(url, **JSON)
        text = client.get(url, HTTP_ACCEPT="text/plain")
    assert response.status_code in (500, 503)
    expected = {DATABASE: "Unavailable: connection failed"}
    if url == "/healthz":
        expected[CACHE] = "OK"
    assert response.json() == expected
    assert text.status_code in (500, 503)
    assert f"{DATABASE}: Unavailable: connection failed" in text.content.decode()


@pytest.mark.django_db
def test_an_unexpected_error_in_a_check_fails_the_page_without_leaking_it(client) -> None:
    def crash(self: Database) -> None:
        raise RuntimeError("password=hunter2")

    with mock.patch.object(Database, "run", crash):
        response = client.get("/healthz", **JSON)
    assert response.status_code in (500, 503)
    assert "hunter2" not in response.content.decode()


@pytest.mark.django_db
def test_the_html_page_lists_the_checks(client) -> None:
    response = client.get("/healthz", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Database(alias=&#x27;default&#x27;)" in html
    assert "Cache(alias=&#x27;default&#x27;)" in html


@needs_redis
@pytest.mark.django_db
def test_with_a_broker_the_broker_and_a_worker_are_checked(client) -> None:
    """The worker's ping is stubbed here (the real one is below): the broker's Redis is real."""
    with with_broker(), mock.patch.object(Ping, "run", lambda self: None):
        response = client.get("/healthz", **JSON)
        web = client.get("/healthz/web", **JSON)
    assert response.status_code == 200, response.content
    assert response.json() == {DATABASE: "OK", CACHE: "OK", _redis_key(): "OK", WORKER: "OK"}
    # The web container's own check never asks for the worker or the broker.
    assert web.status_code == 200 and web.json() == {DATABASE: "OK"}


@needs_redis
@pytest.mark.django_db
def test_with_a_broker_and_no_worker_the_page_fails(client) -> None:
    with with_broker(), override_settings(CELERY_TASK_DEFAULT_QUEUE="ratings-health-nobody-here"):
        response = client.get("/healthz", **JSON)
        web = client.get("/healthz/web", **JSON)
    assert response.status_code in (500, 503)
    assert response.json()[WORKER].startswith("Unavailable: ")
    assert response.json()[DATABASE] == "OK"
    assert web.status_code == 200


@pytest.mark.django_db
def test_the_web_check_asks_the_database_only_and_the_full_page_names_each_part(client) -> None:
    """Issue 28: with the cache's Redis away the site still serves (django-redis ignores the
    errors, config/settings.py), so /healthz/web, which a load balancer reads, stays 200;
    /healthz says the cache is away (its check reads back a key it wrote: with writes dropped
    the read misses)."""
    away = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens: refused at once
            "OPTIONS": settings.CACHE_REDIS_OPTIONS,
        },
        "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    with override_settings(CACHES=away):
        web = client.get("/healthz/web", **JSON)
        full = client.get("/healthz", **JSON)
    assert web.status_code == 200 and web.json() == {DATABASE: "OK"}
    assert full.status_code == 503  # a part away, not a server error
    assert full.json()[DATABASE] == "OK"
    assert full.json()[CACHE].startswith("Unavailable: ")
    # The same page with the site's own cache: the check passes again.
    assert client.get("/healthz", **JSON).json()[CACHE] == "OK"


@pytest.mark.django_db
def test_an_unreachable_broker_fails_the_page(client) -> None:
    # Port 9 (discard) on loopback: nothing listens there, the connection is refused at once.
    with with_broker("redis://127.0.0.1:9/0"), mock.patch.object(Ping, "run", lambda self: None):
        response = client.get("/healthz", **JSON)
    assert response.status_code in (500, 503)
    assert response.json()["Redis(db=0, host='127.0.0.1', port=9)"].startswith("Unavailable: ")


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_answers_the_ping(client, celery_broker) -> None:
    """A worker started on the fixture's own queue (made the default queue here, so the check
    looks for a worker consuming it)."""

    with override_settings(CELERY_TASK_DEFAULT_QUEUE=settings.RATINGS_QUEUE):  # type: ignore[misc]  # set by the worker fixture
        assert client.get("/healthz", **JSON).json()[WORKER].startswith("Unavailable: ")
        celery_broker()
        response = client.get("/healthz", **JSON)
    assert response.status_code == 200, response.content
    assert response.json()[WORKER] == "OK"
