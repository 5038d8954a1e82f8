"""Probe: what the site answers while Redis is stopped, while its database connections are
killed and while its mail server refuses (issue 28). Prints the count of answers by phase, by
kind of request and by status, and fails unless every 5xx is one of the documented 503s
(docs/security.md, "Faults") and every stored protest's e-mail arrived exactly once.

Run (PostgreSQL up; `redis-server` on the PATH; nothing else of the site needed):
    .venv/bin/python bench/probe_faults.py [--seconds 8] [--redis-port 6390]

It starts everything it stops, on a site it starts itself:

- a Redis server of its own on --redis-port (loopback; the site's broker is its db 0, its cache
  db 1), stopped and started again by the probe (never a shared one);
- a scratch database `probe_faults` (dropped at the end unless --keep), migrated and seeded
  with a published list, its players and an arbiter's tournament (tests/factories.py);
- gunicorn (2 workers, DEBUG=0) on a free loopback port, with REPORT_INLINE_BYTES=100 so every
  upload goes to the worker, and one Celery worker (prefork, one child: its main process
  answers /healthz's ping while the child works) and Celery beat (the outbox's periodic task,
  every second here). Each kind of request is made twice before the phases (the workers load
  the code), and /healthz asked until it answers 200;
- an SMTP server of its own (bench/smtp_sink.py) on a free loopback port, the site's mail
  server, with the outbox retrying within seconds (bench/probe_smtp.py, site_env).

Three threads make requests without pause, each with a 30 s timeout: the home page, a search, a
player's card, a published list's page, the API's players and a list's entries (throttled, so
through the cache), an upload by the API (202 when queued), /healthz and /healthz/web; a fourth
submits a protest by the API every 1/--protests-per-second s, each by a player of its own.
Phases, each --seconds long: `baseline`; `redis-down` (Redis shut down); `redis-back` (started
again); `db-kills` (every 0.3 s, pg_terminate_backend on every backend of the scratch database
but the probe's own); `smtp-down` (the mail server answers every connection with 421 and
closes it); `after`. Then the probe waits for the outbox to empty and checks that every stored
protest's e-mail was received once (none lost, none twice).

Documented 503s: an upload and /healthz while Redis is away (and /healthz while the worker
reconnects once Redis is back); any request while its database
connection is killed under it. A request is counted in the phase it started in, and judged
by every phase it spanned. Everything else must answer as in `baseline`, and the number of
upload jobs stored must equal the number of 202 answers (nothing half-written). A protest
answers 201 in every phase but `db-kills` (a 503 there): neither Redis away nor the mail server
refusing fails it.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import psycopg

from bench import probe_smtp
from bench.common import scratch_create, scratch_drop
from bench.smtp_sink import SmtpSink

ROOT = Path(__file__).resolve().parents[1]
NAME = os.environ.get("PROBE_FAULTS_DB", "probe_faults")  # a scratch database of its own
#: (phase, kind) pairs where a 503 is the documented answer.
DOCUMENTED_503 = {
    ("redis-down", "upload"),
    ("redis-down", "healthz"),
    # The worker reconnects to the restarted Redis within seconds; /healthz names it meanwhile.
    ("redis-back", "healthz"),
    *(("db-kills", kind) for kind in ("home", "search", "card", "list", "api-players",
                                      "api-entries", "upload", "healthz", "healthz-web",
                                      "protest")),
}  # fmt: skip


def documented(kind: str, status: str, phases: set[str]) -> bool:
    """Whether an answer is one the site is meant to give: any answer below 500, or a 503
    documented for this kind of request in a phase the request spanned."""
    if not status.isdigit():
        return False  # no answer at all (a timeout, a reset connection)
    if not status.startswith("5"):
        return True
    return status == "503" and any((p, kind) in DOCUMENTED_503 for p in phases)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_start(port: int) -> None:
    subprocess.run(
        ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", str(port),
         "--save", "", "--appendonly", "no"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout != (
        b"PONG\n"
    ):
        if time.monotonic() > deadline:
            raise RuntimeError(f"redis on port {port} did not start")
        time.sleep(0.1)


def redis_stop(port: int) -> None:
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)


def seed(protesters: int) -> dict[str, Any]:
    """Migrate the scratch database and fill it (in this process, tasks eager)."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from core.api.tokens import token_create
    from tests.factories import make_player, make_published, make_tournament, make_user

    def capture(execute: bool = True) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()  # no transaction around: on_commit runs at once

    system, _period, players, _rated, published = make_published(capture)
    players += [make_player(surname=f"Probe{n}") for n in range(40)]
    arbiter = make_user("probe-arbiter", role="arbiter")
    tournament = make_tournament(system, arbiter)
    _token, key = token_create(user=arbiter, name="probe")
    protest_tokens = probe_smtp.protesters_seed(published, protesters)
    from django.db import connections

    connections.close_all()
    return {
        "card": f"/players/{players[0].fed_id}/",
        "list": f"/ratings/lists/{published.pk}/",
        "api-entries": f"/api/v1/lists/{published.pk}/entries/",
        "upload": f"/api/v1/tournaments/{tournament.pk}/reports/",
        "tournament": tournament.pk,
        "token": key,
        "published": published.pk,
        "protest_tokens": protest_tokens,
    }


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\nauto\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.trf"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--redis-port", type=int, default=6390)
    parser.add_argument("--threads", type=int, default=3)
    parser.add_argument("--protests-per-second", type=float, default=3.0)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    base_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    admin_url = base_url.rsplit("/", 1)[0] + "/postgres"
    port = free_port()
    broker = f"redis://127.0.0.1:{args.redis_port}/0"
    cache = f"redis://127.0.0.1:{args.redis_port}/1"
    redis_stop(args.redis_port)
    redis_start(args.redis_port)
    admin = scratch_create(admin_url=admin_url, name=NAME)
    sink = SmtpSink()
    os.environ.pop("CELERY_BROKER_URL", None)  # seeding runs its tasks in-process
    os.environ.pop("CACHE_URL", None)
    os.environ.setdefault("DEBUG", "1")
    site: subprocess.Popen[bytes] | None = None
    worker: subprocess.Popen[bytes] | None = None
    beat: subprocess.Popen[bytes] | None = None
    log = Path(f"/tmp/probe-faults-{port}.log")
    try:
        phases = ("baseline", "redis-down", "redis-back", "db-kills", "smtp-down", "after")
        world = seed(int(args.protests_per_second * args.seconds * len(phases) * 1.2) + 20)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DEBUG": "0",
            "SECRET_KEY": "probe-faults-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "STATIC_MANIFEST": "0",
            "CELERY_BROKER_URL": broker,
            "CACHE_URL": cache,
            "REPORT_INLINE_BYTES": "100",
            # Throttles on (they go through the cache) but never reached by the probe.
            "API_THROTTLE_ANON": "100000/minute",
            "API_THROTTLE_USER": "100000/minute",
            **probe_smtp.site_env(sink),
        }
        gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
        site = subprocess.Popen(
            [gunicorn or "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", "2", "--timeout", "60"],
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        worker = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--pool",
             "prefork", "--concurrency", "1", "--without-gossip", "--without-mingle",
             "-l", "warning"],
            cwd=ROOT, env=env, stdout=Path(f"/tmp/probe-faults-{port}-worker.log").open("w"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        beat = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "config", "beat", "-l", "warning",
             "--schedule", f"/tmp/probe-faults-{port}-beat"],
            cwd=ROOT, env=env, stdout=Path(f"/tmp/probe-faults-{port}-beat.log").open("w"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if site.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "the site did not start:\n" + log.read_text()[-3000:]
                    ) from None
                time.sleep(0.3)

        from tests.tournaments.test_flow import sample_trf

        upload_body, upload_type = multipart(sample_trf())
        requests: list[tuple[str, str, str, bytes | None, dict[str, str]]] = [
            ("home", "GET", "/", None, {}),
            ("search", "GET", "/players/?q=Probe", None, {}),
            ("card", "GET", world["card"], None, {}),
            ("list", "GET", world["list"], None, {}),
            ("api-players", "GET", "/api/v1/players/?limit=20", None, {}),
            ("api-entries", "GET", world["api-entries"], None, {}),
            ("upload", "POST", world["upload"], upload_body,
             {"Content-Type": upload_type, "Authorization": f"Token {world['token']}"}),
            ("healthz", "GET", "/healthz?format=json", None, {}),
            ("healthz-web", "GET", "/healthz/web?format=json", None, {}),
        ]  # fmt: skip

        def ask(method: str, path: str, body: bytes | None, headers: dict[str, str]) -> str:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request(method, path, body=body, headers=headers)
                answer = conn.getresponse()
                answer.read()
                conn.close()
                return str(answer.status)
            except (OSError, http.client.HTTPException) as exc:
                return type(exc).__name__

        warm_accepted = 0
        for kind, method, path, body, headers in requests * 2:  # both gunicorn workers
            answer = ask(method, path, body, headers)
            warm_accepted += (kind, answer) == ("upload", "202")
        deadline = time.monotonic() + 90
        while ask("GET", "/healthz", None, {}) != "200":  # the Celery worker is up
            if time.monotonic() > deadline:
                raise RuntimeError("/healthz never answered 200 before the faults")
            time.sleep(1)

        counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
        bad: collections.Counter[tuple[str, str, str]] = collections.Counter()
        phase = ["baseline"]
        stop = threading.Event()
        lock = threading.Lock()

        def hammer(offset: int) -> None:
            i = offset
            while not stop.is_set():
                kind, method, path, body, headers = requests[i % len(requests)]
                i += 1
                started = phase[0]
                status = ask(method, path, body, headers)
                key = (started, kind, status)
                judged = documented(kind, status, {started, phase[0]})
                with lock:
                    counts[key] += 1
                    if not judged:
                        bad[key] += 1

        def terminate_backends() -> None:
            with psycopg.connect(admin_url, autocommit=True) as killer:
                while phase[0] == "db-kills" and not stop.is_set():
                    killer.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = %s AND pid <> pg_backend_pid()",
                        [NAME],
                    )
                    time.sleep(0.3)

        protest_answers: collections.Counter[str] = collections.Counter()

        def protest() -> None:
            """A protest by a player of its own every 1/--protests-per-second seconds."""
            for token in world["protest_tokens"]:
                if stop.is_set():
                    return
                started = phase[0]
                status = ask(*probe_smtp.protest_request(world["published"], token))
                judged = documented("protest", status, {started, phase[0]})
                with lock:
                    counts[(started, "protest", status)] += 1
                    protest_answers[status] += 1
                    if not judged:
                        bad[(started, "protest", status)] += 1
                stop.wait(1 / args.protests_per_second)

        threads = [threading.Thread(target=hammer, args=(n,)) for n in range(args.threads)]
        threads.append(threading.Thread(target=protest))
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        phase[0] = "redis-down"
        redis_stop(args.redis_port)
        time.sleep(args.seconds)
        phase[0] = "redis-back"
        redis_start(args.redis_port)
        time.sleep(args.seconds)
        phase[0] = "db-kills"
        killer = threading.Thread(target=terminate_backends)
        killer.start()
        time.sleep(args.seconds)
        phase[0] = "smtp-down"
        killer.join()
        sink.refusing.set()
        time.sleep(args.seconds)
        phase[0] = "after"
        sink.refusing.clear()
        time.sleep(args.seconds)
        stop.set()
        for t in threads:
            t.join()
        mail = probe_smtp.mail_wait(
            sink, admin_url.rsplit("/", 1)[0] + "/" + NAME, world["published"], timeout=60
        )

        accepted = warm_accepted + sum(
            n for (_p, kind, status), n in counts.items() if (kind, status) == ("upload", "202")
        )
        with psycopg.connect(admin_url.rsplit("/", 1)[0] + "/" + NAME) as db:
            by_status: dict[str, int] = dict(
                db.execute(
                    "SELECT status, count(*) FROM tournaments_reportuploadjob "
                    "WHERE tournament_id = %s GROUP BY status",
                    [world["tournament"]],
                ).fetchall()
            )
        jobs = sum(by_status.values())
    finally:
        for process in (site, worker, beat):
            if process is not None:
                process.terminate()
                process.wait(30)
        redis_stop(args.redis_port)
        redis_start(args.redis_port)  # left as it was found: running
        scratch_drop(admin, name=NAME, keep=args.keep)
        sink.close()

    print(f"{'phase':<11} {'request':<12} answers by status")
    for p in phases:
        for kind in [*(r[0] for r in requests), "protest"]:
            row = {s: n for (ph, k, s), n in counts.items() if ph == p and k == kind}
            print(f"{p:<11} {kind:<12} " + ", ".join(f"{s} × {n}" for s, n in sorted(row.items())))
    totals: collections.Counter[str] = collections.Counter()
    for (_p, _k, s), n in counts.items():
        totals[s] += n
    print("all:", ", ".join(f"{s} × {n}" for s, n in sorted(totals.items())))

    undocumented = sum(bad.values())
    print(f"5xx outside the documented 503s (and failed connections): {undocumented}")
    for key, n in sorted(bad.items()):
        print(f"  {key}: {n}")
    print(f"uploads answered 202: {accepted}; upload jobs stored: {jobs} {by_status}")
    for line in mail.lines(protest_answers["201"]):
        print(line)
    problems = []
    if undocumented:
        problems.append("answers outside the documented ones")
    if accepted != jobs:
        problems.append("upload jobs stored differ from the uploads accepted (half-written)")
    if mail.lost or mail.twice or mail.strays:
        problems.append("protests' e-mails lost, sent twice or unknown")
    if protest_answers["201"] > len(mail.protests):
        problems.append("protests answered 201 but not stored")
    if not problems:
        print("OK")
        return 0
    print("FAILED: " + "; ".join(problems) + f" (site log: {log})")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
