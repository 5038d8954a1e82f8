from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProtestsConfig(AppConfig):
    name = "protests"
    verbose_name = _("Protests")

    def ready(self) -> None:
        # Connect the receivers of the signals of the apps below (ratings.publication.signals),
        # as Django's documentation advises.
        from players.personal_data import personal_data_provider_register
        from protests import receivers  # noqa: F401
        from protests.personal_data import protests_rows

        # The sections of a player's own data they keep (players.personal_data).
        personal_data_provider_register(section="protests", provider=protests_rows)
