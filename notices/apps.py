from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = _("Notices")

    def ready(self) -> None:
        # The receivers of the signals of the apps below (ratings.publication.signals,
        # tournaments.signals), and the tasks, registered in every process: services enqueue
        # them by name (core.tasks).
        from notices import receivers, tasks  # noqa: F401
