"""The site's database role for tests: created with core.pg.roles (the service `migrate` calls) in
the test database, a psycopg connection as it, and Django's connection switched to it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection

from core.pg.roles import app_role_apply, connected_as

PASSWORD = "site-role-test-password"


@dataclass(frozen=True)
class SiteRole:
    name: str
    password: str

    def account(self) -> dict[str, Any]:
        """Django's settings for the default database, as this role."""
        return {**connection.settings_dict, "USER": self.name, "PASSWORD": self.password}

    def connect(self) -> psycopg.Connection[Any]:
        """A plain autocommit psycopg connection as this role (not Django's)."""
        settings = connection.settings_dict
        return psycopg.connect(
            host=settings["HOST"] or None,
            port=settings["PORT"] or None,
            dbname=settings["NAME"],
            user=self.name,
            password=self.password,
            autocommit=True,
        )

    @contextmanager
    def django(self) -> Iterator[None]:
        """Django's default connection as this role within the block (services, tasks)."""
        with connected_as(account=self.account()):
            yield


def role_name() -> str:
    """One role per test database (each xdist worker has its own): roles are the cluster's."""
    return f"{connection.settings_dict['NAME']}_site"[:63]


@contextmanager
def site_role() -> Iterator[SiteRole]:
    """The role created and granted as `migrate` does (connected as the test database's owner,
    a superuser), dropped afterwards with its privileges."""
    role = SiteRole(role_name(), PASSWORD)
    app_role_apply(role=role.name, password=role.password)
    try:
        yield role
    finally:
        connection.close()  # in case a block left it as the site's role
        with connection.cursor() as cursor:
            name = connection.ops.quote_name(role.name)
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                [role.name],
            )
            cursor.execute(f"DROP OWNED BY {name}")
            cursor.execute(f"DROP ROLE {name}")
