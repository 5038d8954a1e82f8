from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web too): services enqueue them by
        # name (core.tasks), as in ratings/apps.py.
        from tournaments import tasks  # noqa: F401
