"""The Celery application.

With no broker configured (`CELERY_BROKER_URL` unset) settings turn on eager mode and every
task runs in-process: the test suite and manage.py commands. `make run` sets `filesystem://`
and starts a worker reading the queue folder .celery/ (config/localrun.py). With a broker,
real workers run the tasks; see docker-compose.yml (`worker`, `beat`).
"""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rating_office")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# History (core/history.py): the events a task's writes cause name the task. Imported when the
# task runs, once Django is set up.
@task_prerun.connect
def _history_context_enter(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    from core.history import task_history_enter

    task_history_enter(task_id=task_id, name=getattr(task, "name", ""))


@task_postrun.connect
def _history_context_exit(task_id: str | None = None, **_: Any) -> None:
    from core.history import task_history_exit

    task_history_exit(task_id=task_id)
