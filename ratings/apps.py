from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web too): services enqueue them by
        # name (core.tasks), as Django registers signal handlers in ready().
        from ratings import tasks  # noqa: F401
