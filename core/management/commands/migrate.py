"""`manage.py migrate`, connected as the owner when DATABASE_OWNER_URL is set.

The site connects as DATABASE_URL's role, which owns nothing (core/pg/roles.py). With
DATABASE_OWNER_URL set, the migrations run as that role instead (it owns, or comes to own,
every table), and then the site's role is created if missing and given exactly its privileges.
Unset (the test suite, a site still connecting as the owner), this is Django's migrate.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import migrate
from django.db import DEFAULT_DB_ALIAS, connections

from core.pg.roles import DatabaseRoleError, app_role_apply, connected_as


class Command(migrate.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        using = options["database"]
        owner = settings.DATABASE_OWNER
        if owner is None or using != DEFAULT_DB_ALIAS:
            super().handle(*args, **options)
            return
        app = connections[using].settings_dict
        role, password = app["USER"], app.get("PASSWORD") or None
        try:
            with connected_as(account=owner, using=using):
                super().handle(*args, **options)
                app_role_apply(role=role, password=password, using=using)
        except DatabaseRoleError as exc:
            raise CommandError(str(exc)) from None
        if options["verbosity"] >= 1:
            self.stdout.write(f"Database role {role}: privileges applied (core/pg/roles.py).")
