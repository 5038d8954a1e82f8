"""`make run`: migrate, load the demo federation and serve http://127.0.0.1:8000 with DEBUG=1
(another port: `make run PORT=8080`, or PORT in the environment).

With DATABASE_URL unset it runs on the private PostgreSQL of config/embedded_db.py, stopped
when this command ends, with two roles as in production (docs/security.md): `migrate` runs as
the server's superuser (DATABASE_OWNER_URL), which owns the tables, and creates the site's role,
`ratings_app`; the demo data, runserver and the worker connect as that role. With DATABASE_URL
set, migrate runs as DATABASE_OWNER_URL's role if that is set too, and the rest as
DATABASE_URL's. With CELERY_BROKER_URL unset it sets `filesystem://` (a queue of files
in .celery/, see config/settings.py) and starts a Celery worker in the background, so a
calculation started from a page runs outside the request and its progress moves; the worker
is stopped when runserver ends. With a broker configured, your own workers run the tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence

from config import embedded_db

HOST = "127.0.0.1"
PORT = 8000
#: kombu's file transport (config/settings.py gives it the .celery/ folders). The host name is
#: not used; giving one spares a warning from kombu in every process.
LOCAL_BROKER = "filesystem://localhost/"
#: One process, one task at a time: enough for a development site, and the lightest.
#: -W: Celery warns "You're running the worker with superuser privileges" when the developer
#: runs `make run` as root (a container, a throw-away VM); the filter names the message, as a
#: -W category outside builtins cannot be imported that early. Safe to silence here: this worker is
#: the developer's own process on their own machine, with the rights of the runserver started
#: by the same command, and it accepts JSON only (Celery still refuses to start as root if
#: pickle were accepted: that is an error, not this warning). Production workers run as an
#: unprivileged user (Dockerfile) and keep the warning.
WORKER = [
    "-W",
    "ignore:You're running the worker with superuser privileges",
    "-m",
    "celery",
    "-A",
    "config",
    "worker",
    "--pool",
    "solo",
    "--without-gossip",
    "--without-mingle",
    "--loglevel",
    "INFO",
]


def main(argv: Sequence[str]) -> int:
    embedded_db.exit_on_termination()
    os.chdir(embedded_db.BASE_DIR)
    env = dict(os.environ)
    try:
        address = f"{HOST}:{port(env)}"
    except ValueError as exc:
        print(f"make run: {exc}", file=sys.stderr)
        return 2
    env["DEBUG"] = env.get("DEBUG") or "1"
    # runserver's "This is a development server" banner: `make run` is exactly that.
    env.setdefault("DJANGO_RUNSERVER_HIDE_WARNING", "true")
    try:
        env["DATABASE_URL"] = embedded_db.database_url()
    except embedded_db.EmbeddedDatabaseError as exc:
        print(f"make run: {exc}", file=sys.stderr)
        return 2
    migrate_env, env = role_envs(env, embedded=embedded_db.started_here())
    manage = [sys.executable, "manage.py"]
    status = embedded_db.run([*manage, "migrate", "--noinput"], migrate_env)
    if status:
        return status
    status = embedded_db.run([*manage, "demo_federation"], env)
    if status:
        return status
    worker = None
    if not env.get("CELERY_BROKER_URL"):
        env["CELERY_BROKER_URL"] = LOCAL_BROKER
        # A session of its own: Ctrl-C goes to runserver only, and the worker is stopped after.
        worker = embedded_db.spawn([sys.executable, *WORKER], env, session=True)
    try:
        return embedded_db.run([*manage, "runserver", *argv, address], env)
    finally:
        if worker is not None:
            _stop(worker)


def role_envs(env: Mapping[str, str], *, embedded: bool) -> tuple[dict[str, str], dict[str, str]]:
    """The environments of `migrate` and of everything else. On the private server, migrate
    connects as its superuser (DATABASE_OWNER_URL) and the rest as the site's role; elsewhere as
    the environment says. The site's processes never get the owner's URL."""
    migrate = dict(env)
    if embedded:
        migrate["DATABASE_OWNER_URL"] = env["DATABASE_URL"]
        migrate["DATABASE_URL"] = embedded_db.app_url(env["DATABASE_URL"])
    site = {key: value for key, value in migrate.items() if key != "DATABASE_OWNER_URL"}
    return migrate, site


def port(env: Mapping[str, str]) -> int:
    """The port to serve on: PORT from the environment (`make run PORT=8080` puts it there),
    8000 when unset or empty."""
    value = env.get("PORT", "").strip()
    if not value:
        return PORT
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) < 65536:
        raise ValueError(f"PORT must be a number from 1 to 65535, not {value!r}")
    return int(value)


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """A warm shutdown (the task in hand finishes) for a while, then SIGKILL."""
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
