"""Health pages, built on django-health-check (4.x: a view given its checks; no sub-apps, no
HEALTH_CHECK_* settings, no URL include).

- ``/healthz`` (monitoring): each part, named in the answer: the database, the cache (Redis
  in production: the check writes a key and reads it back, so with Redis away, whose errors
  the cache ignores, the read misses and the check fails; this page is where a cache outage
  shows, not the logs, config/settings.py) and, when a broker is configured, the broker's
  Redis and a Celery worker answering a ping.
- ``/healthz/web`` (the web container's own health check, docker-compose.yml, and a load
  balancer's): the database only, the one part the web process cannot serve without. Why not
  the cache or the worker: with Redis away the pages and the API still answer (the cache fails
  open: django-redis with DJANGO_REDIS_IGNORE_EXCEPTIONS; uploads for the worker answer 503,
  docs/security.md), and a stopped worker is not the web process's fault; failing this page
  would make an orchestrator restart, or a load balancer drop, a web container that works
  (issue 28).

Both answer 200 when every check passes and 503 when one fails (the library's 500, changed:
a part that is away is "Service Unavailable", not a server error, and the fault probe,
bench/probe_faults.py, counts every 500 as a bug). The format follows the Accept
header (HTML, text/plain, application/json) or ``?format=json``.

With no broker (eager mode: the embedded default and the test suite) tasks run in-process and
there is no worker or broker to ask, so those two checks are left out instead of failing the
page. The checks are chosen per request from the settings, so tests can switch mode.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Generator, Iterator
from typing import Any

import celery
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check import Cache, Database, HealthCheck
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as AsyncRedis

from config.celery import app as celery_app

#: How long the worker check waits for a pong. Why 2 s, not the library's 1 s: on a small machine
#: a rating calculation keeps the cores busy and the worker's main process answers late.
WORKER_PING_TIMEOUT = dt.timedelta(seconds=2)


@dataclasses.dataclass
class WorkerPing(Ping):
    """The library's Celery ping, named without the app in its repr.

    Why: a check's repr is its key in the JSON answer; the library's includes the Celery app's
    memory address, which changes with every process and would break a monitor reading it.
    """

    app: celery.Celery = dataclasses.field(default_factory=lambda: celery_app, repr=False)


def broker_in_use() -> bool:
    """Whether tasks go through a broker to workers. Why not test CELERY_BROKER_URL: with no
    broker configured, settings put the `memory://` placeholder there and turn eager mode on."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def _redis_broker_url() -> str | None:
    url: str = settings.CELERY_BROKER_URL
    return url if url.startswith(("redis://", "rediss://")) else None


def site_checks(*, full: bool) -> Iterator[HealthCheck]:
    """The checks of a health page: always the database; with ``full`` (/healthz) the cache
    too, and the broker's Redis and a worker when a broker is in use."""
    yield Database()
    if not full:
        return
    yield Cache()
    if not broker_in_use():
        return
    broker_url = _redis_broker_url()
    if broker_url:
        # A fresh client per run (the library closes it); a short connect timeout so a dead
        # Redis fails the check instead of hanging the page.
        yield Redis(
            client_factory=functools.partial(
                AsyncRedis.from_url, broker_url, socket_connect_timeout=3, socket_timeout=3
            )
        )
    # limit=1: return as soon as one worker answers instead of waiting out the timeout.
    yield WorkerPing(timeout=WORKER_PING_TIMEOUT, limit=1)


class SiteHealthView(HealthCheckView):
    """HealthCheckView whose checks come from ``site_checks`` at request time."""

    full: bool = True

    def get_checks(self) -> Generator[HealthCheck, None, None]:
        yield from site_checks(full=self.full)

    async def get(  # type: ignore[override]  # the library's view is async; django-stubs' is not
        self, request: HttpRequest, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        response: HttpResponse = await super().get(request, *args, **kwargs)
        if response.status_code == 500:  # a check failed (see the module's text)
            response.status_code = 503
        return response


healthz = SiteHealthView.as_view(full=True)
healthz_web = SiteHealthView.as_view(full=False)
