from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """What every app of the office shares: roles, stored messages, jobs, the PostgreSQL
    toolbox, the API's common parts; its one table is the API tokens'."""

    name = "core"
    verbose_name = _("Rating office")

    def ready(self) -> None:
        # Django's rule, not a cycle: models may be imported only once the registry is ready.
        from axes.signals import user_locked_out

        from core.lockout import lockout_logged
        from core.roles import roles_ensure

        # Permissions exist only after migrate; groups are (re)granted then.
        # core is last in INSTALLED_APPS: every app's permissions exist when its turn comes.
        post_migrate.connect(roles_ensure, sender=self, dispatch_uid="core.roles_ensure")
        user_locked_out.connect(lockout_logged, dispatch_uid="core.lockout_logged")
