from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web too): services enqueue them by
        # name (core.tasks), as in ratings/apps.py.
        from players.personal_data import personal_data_provider_register
        from tournaments import tasks  # noqa: F401
        from tournaments.personal_data import games_rows

        # The sections of a player's own data they keep (players.personal_data).
        personal_data_provider_register(section="games", provider=games_rows)
