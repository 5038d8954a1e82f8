"""`make run`: migrate, load the demo federation and serve http://127.0.0.1:8000 with DEBUG=1.

With DATABASE_URL unset it runs on the private PostgreSQL of config/embedded_db.py, stopped
when this command ends. With CELERY_BROKER_URL unset it sets `filesystem://` (a queue of files
in .celery/, see config/settings.py) and starts a Celery worker in the background, so a
calculation started from a page runs outside the request and its progress moves; the worker
is stopped when runserver ends. With a broker configured, your own workers run the tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence

from config import embedded_db

ADDRESS = "127.0.0.1:8000"
#: kombu's file transport (config/settings.py gives it the .celery/ folders). The host name is
#: not used; giving one spares a warning from kombu in every process.
LOCAL_BROKER = "filesystem://localhost/"
#: One process, one task at a time: enough for a development site, and the lightest.
WORKER = [
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
    env["DEBUG"] = env.get("DEBUG") or "1"
    try:
        env["DATABASE_URL"] = embedded_db.database_url()
    except embedded_db.EmbeddedDatabaseError as exc:
        print(f"make run: {exc}", file=sys.stderr)
        return 2
    manage = [sys.executable, "manage.py"]
    for step in (["migrate", "--noinput"], ["demo_federation"]):
        status = embedded_db.run([*manage, *step], env)
        if status:
            return status
    worker = None
    if not env.get("CELERY_BROKER_URL"):
        env["CELERY_BROKER_URL"] = LOCAL_BROKER
        # A session of its own: Ctrl-C goes to runserver only, and the worker is stopped after.
        worker = embedded_db.spawn([sys.executable, *WORKER], env, session=True)
    try:
        return embedded_db.run([*manage, "runserver", *argv, ADDRESS], env)
    finally:
        if worker is not None:
            _stop(worker)


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
