from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Register the Celery tasks in every process (web too): services enqueue them by
        # name (core.tasks), as Django registers signal handlers in ready().
        from players.personal_data import personal_data_provider_register
        from ratings import tasks  # noqa: F401
        from ratings.personal_data import list_entries_rows, ratings_rows

        # The sections of a player's own data they keep (players.personal_data).
        personal_data_provider_register(section="ratings", provider=ratings_rows)
        personal_data_provider_register(section="list_entries", provider=list_entries_rows)
