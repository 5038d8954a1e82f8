"""A real Celery worker for the tests that need one (Redis broker, PostgreSQL), and a way to
make a calculation stall half-way through writing its draft.

The worker is a subprocess (`celery -A config worker --pool solo -Q <own queue>`) pointed at
pytest's test database through DATABASE_URL; `django_db(transaction=True)` commits the rows it
must see. A queue of its own keeps other suites' tasks apart. The fixtures are registered for
the whole suite by tests/conftest.py.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from config.celery import app
from tests.polling import wait_for

ROOT = Path(__file__).resolve().parents[1]
# Celery gives the CELERY_BROKER_URL environment variable precedence over its configuration, so
# when CI sets it the test process sends there whatever the settings say: the worker must use
# the same broker. Each test has a queue of its own, so sharing the database is harmless.
_env_broker = os.environ.get("CELERY_BROKER_URL", "")
REDIS_URL = os.environ.get("RATINGS_TEST_REDIS_URL") or (
    _env_broker if _env_broker.startswith("redis://") else "redis://127.0.0.1:6379/11"
)


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


class Worker:
    def __init__(self, queue: str, **env: str):
        db = connection.settings_dict
        # A socket folder (the private server of config/embedded_db.py) goes percent-encoded.
        host = quote(db["HOST"] or "127.0.0.1", safe="")
        url = f"postgres://{db['USER']}@{host}:{db['PORT'] or 5432}/{db['NAME']}"
        self.log = Path(f"/tmp/ratings-worker-{queue}-{uuid.uuid4().hex[:6]}.log")
        environment = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": REDIS_URL, **env}
        self.proc = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "-l",
                "info",
                "-n",
                f"{queue}@%h",
            ],
            cwd=ROOT,
            env=environment,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 40
        while "ready" not in self.log.read_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("worker did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.2)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def celery_broker():
    """Send tasks to Redis (not eagerly) on a queue of our own; yields a worker factory."""
    if not redis_up():
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    queue = f"ratings-test-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    _reset_pools(app)
    workers: list[Worker] = []

    def start(**env: str) -> Worker:
        worker = Worker(queue, **env)
        workers.append(worker)
        return worker

    # Celery reads the CELERY_* Django settings live (namespace "CELERY").
    with override_settings(
        RATINGS_QUEUE=queue, CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=REDIS_URL
    ):
        assert not app.conf.task_always_eager
        yield start
        for worker in workers:
            worker.stop()
    _reset_pools(app)


def _reset_pools(app) -> None:
    """Forget the producer connections so the next send uses the current broker URL."""
    app._pool = None
    app.amqp._producer_pool = None


def current_queue() -> str:
    return str(settings.RATINGS_QUEUE)  # type: ignore[misc]  # set only by the celery_broker fixture


def redeliver_unacked(*, queue: str) -> int:
    """Restore the unacknowledged messages of our queue (kombu's restore after the visibility
    timeout)."""

    restored = 0
    with app.connection_for_write() as conn:
        channel: Any = conn.default_channel  # kombu's Redis channel: client, unacked_key, qos
        client = channel.client
        for tag, raw in client.hgetall(channel.unacked_key).items():
            _message, _exchange, routing_key = json.loads(raw)
            if routing_key == queue:
                channel.qos.restore_by_tag(tag.decode() if isinstance(tag, bytes) else tag, client)
                restored += 1
    return restored


@pytest.fixture
def stalled_writes():
    """Make the next calculation stall in the middle of writing its draft, without a hook in
    the product: a trigger made here, in the test database, sleeps in the first row the worker
    COPYs into the packed game lines (its player rows are already written, uncommitted).

    `stalled()` says whether a worker sits there now. `release()` drops the trigger once the
    stalled server process is gone: PostgreSQL notices that the killed worker's socket closed
    (client_connection_check_interval, set here for the database, PostgreSQL 14+) and aborts
    its transaction, which releases its locks as a crash does."""
    name = connection.settings_dict["NAME"]

    def arm(seconds: int = 120) -> None:
        """From now on (for connections opened from now on: start the worker after this), the
        next draft write sleeps `seconds` at its first packed game line."""
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{name}" SET client_connection_check_interval = 500')
            cursor.execute(
                "CREATE OR REPLACE FUNCTION test_stall() RETURNS trigger LANGUAGE plpgsql AS "
                f"$$ BEGIN PERFORM pg_sleep({int(seconds)}); RETURN NEW; END $$"
            )
            cursor.execute(
                "CREATE TRIGGER test_stall BEFORE INSERT ON ratings_drafttournament "
                "FOR EACH ROW EXECUTE FUNCTION test_stall()"
            )

    def sleeping() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' "
                "AND datname = current_database()"
            )
            return int(cursor.fetchone()[0])

    def release() -> None:
        wait_for(
            lambda: sleeping() == 0, timeout=30, what="the dead worker's server process to end"
        )
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS test_stall ON ratings_drafttournament")

    yield SimpleNamespace(arm=arm, stalled=lambda: sleeping() > 0, release=release)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE wait_event = 'PgSleep' AND datname = current_database()"
        )
        cursor.execute("DROP TRIGGER IF EXISTS test_stall ON ratings_drafttournament")
        cursor.execute("DROP FUNCTION IF EXISTS test_stall()")
        cursor.execute(f'ALTER DATABASE "{name}" RESET client_connection_check_interval')
