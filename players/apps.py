from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        from players.roles import roles_ensure

        # Permissions exist only after migrate; groups are (re)granted then.
        post_migrate.connect(roles_ensure, sender=self, dispatch_uid="players.roles_ensure")
