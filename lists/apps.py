from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ListsConfig(AppConfig):
    name = "lists"
    verbose_name = _("List imports and downloads")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web too): services enqueue them by
        # name (core.tasks), as Django registers signal handlers in ready().
        from lists import tasks  # noqa: F401
