from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProtestsConfig(AppConfig):
    name = "protests"
    verbose_name = _("Protests")

    def ready(self) -> None:
        # Connect the receivers of the signals of the apps below (ratings.publication.signals),
        # as Django's documentation advises.
        from protests import receivers  # noqa: F401
