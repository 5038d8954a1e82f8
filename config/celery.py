"""The Celery application.

With no broker configured (`CELERY_BROKER_URL` unset) settings turn on eager mode and every
task runs in-process: the test suite and manage.py commands. `make run` sets `filesystem://`
and starts a worker reading the queue folder .celery/ (config/localrun.py). With a broker,
real workers run the tasks; see docker-compose.yml (`worker`, `beat`).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rating_office")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
