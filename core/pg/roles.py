"""The database roles: the owner, who runs the migrations, and the site's role, which owns nothing.

The site (web, workers, beat) connects as DATABASE_URL's role; `manage.py migrate` connects as
DATABASE_OWNER_URL's role when it is set (core/management/commands/migrate.py), which owns every
table, and then calls `app_role_apply` for DATABASE_URL's role. Why: an owner may `ALTER TABLE …
DISABLE TRIGGER` and a superuser may `SET session_replication_role = replica`, and either turns
off the triggers that keep published lists immutable (ratings/models/published.py). The site's
role has neither right, so a hole in the site cannot change a published list.

What the site's role gets (and nothing else; everything is revoked and granted again, so a
second run changes nothing and a privilege granted by hand is taken back):

- the database: CONNECT and TEMPORARY (the list import's staging tables are temporary);
- the schema `public`: USAGE (not CREATE);
- every table: SELECT, INSERT, UPDATE, DELETE; never TRUNCATE, REFERENCES or TRIGGER. Except:
  history event tables (django-pghistory, written by triggers, never changed) SELECT and INSERT
  only; `django_migrations` SELECT only; `core_deferred_index` nothing (only the functions
  below touch it);
- every sequence: USAGE, SELECT and UPDATE (a bulk load moves a sequence past the ids it
  reserved with setval: core/pg/ids.py);
- EXECUTE on the SECURITY DEFINER functions of core/pg/indexes.py (a bulk load's index
  rebuild, which takes ownership);
- default privileges: tables and sequences the owner creates later get the same, until the next
  `migrate` applies the exceptions.

The role is created (LOGIN, with DATABASE_URL's password) when missing. A role that is a
superuser, may create roles or databases, replicates or bypasses row security, owns a table of
the schema, or is a member of the owner (or of any superuser) is refused: `DatabaseRoleError`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pghistory.models
from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.backends.utils import CursorWrapper
from psycopg import errors

#: Privileges on an ordinary table.
TABLE_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
#: History event tables: append-only for the site (django-pghistory's triggers insert).
EVENT_TABLE_PRIVILEGES = "SELECT, INSERT"
#: Read by `migrate --check` and runserver's "unapplied migrations" notice, never written.
READ_ONLY_TABLES = ("django_migrations",)
#: Touched only by the SECURITY DEFINER functions (ratings/migrations/0023).
NO_ACCESS_TABLES = ("core_deferred_index",)
SEQUENCE_PRIVILEGES = "USAGE, SELECT, UPDATE"
#: The SECURITY DEFINER functions the site calls (core/pg/indexes.py).
FUNCTIONS = (
    "core_indexes_drop(regclass[])",
    "core_indexes_restore(regclass[])",
    "core_indexes_restore_unique(regclass[])",
)

_ROLE = """
SELECT oid, rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls
FROM pg_roles WHERE rolname = %s
"""
# Roles whose rights the app role would have through membership (SET ROLE or inheritance): the
# owner, any other owner of a table of the schema, any superuser.
_POWERFUL_MEMBERSHIPS = """
SELECT r.rolname FROM pg_roles r
WHERE r.oid <> %(role)s::oid AND pg_has_role(%(role)s::oid, r.oid, 'MEMBER')
  AND (r.rolsuper OR r.rolname = current_user
       OR EXISTS (SELECT 1 FROM pg_class c
                  WHERE c.relowner = r.oid AND c.relnamespace = 'public'::regnamespace))
ORDER BY r.rolname
"""
_OWNED = """
SELECT c.relname FROM pg_class c
WHERE c.relowner = %s::oid AND c.relnamespace = 'public'::regnamespace
ORDER BY c.relname LIMIT 5
"""
_TABLES = """
SELECT c.relname FROM pg_class c
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
ORDER BY c.relname
"""


class DatabaseRoleError(Exception):
    """The site's role cannot be used as it is; the message says why and what to do."""


def event_tables() -> set[str]:
    """The tables of the history event models (django-pghistory)."""
    return {
        model._meta.db_table
        for model in apps.get_models()
        if issubclass(model, pghistory.models.Event) and not model._meta.proxy
    }


def app_role_apply(*, role: str, password: str | None, using: str = DEFAULT_DB_ALIAS) -> None:
    """Create the site's role if missing and apply exactly its privileges (module docstring),
    connected as the owner. Idempotent."""
    connection = connections[using]
    qn = connection.ops.quote_name
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute("SELECT current_user, current_database()")
        owner, database = cursor.fetchone()
        if role == owner:
            raise DatabaseRoleError(
                f"the site's role {role} (DATABASE_URL) is the owner that runs the migrations "
                "(DATABASE_OWNER_URL): name a role of its own in DATABASE_URL"
            )
        role_oid = _role_ensure(cursor, role=role, password=password)
        _role_check(cursor, role=role, role_oid=role_oid)
        name = qn(role)
        cursor.execute(f"GRANT CONNECT, TEMPORARY ON DATABASE {qn(database)} TO {name}")
        # PostgreSQL 15+ revokes CREATE on `public` from PUBLIC already; older ones do not.
        cursor.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        cursor.execute(f"REVOKE ALL ON SCHEMA public FROM {name}")
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {name}")
        cursor.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {name}")
        cursor.execute(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {name}")
        cursor.execute(f"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM {name}")
        cursor.execute(_TABLES)
        events = event_tables()
        for (table,) in cursor.fetchall():
            privileges = _table_privileges(table, events)
            if privileges:
                cursor.execute(f"GRANT {privileges} ON {qn(table)} TO {name}")
        cursor.execute(f"GRANT {SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA public TO {name}")
        for function in FUNCTIONS:
            cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL", [function])
            if cursor.fetchone()[0]:  # absent only before ratings/0023 is applied
                cursor.execute(f"GRANT EXECUTE ON FUNCTION {function} TO {name}")
        default = f"ALTER DEFAULT PRIVILEGES FOR ROLE {qn(owner)} IN SCHEMA public"
        cursor.execute(f"{default} GRANT {TABLE_PRIVILEGES} ON TABLES TO {name}")
        cursor.execute(f"{default} GRANT {SEQUENCE_PRIVILEGES} ON SEQUENCES TO {name}")


def _table_privileges(table: str, events: set[str]) -> str:
    if table in NO_ACCESS_TABLES:
        return ""
    if table in READ_ONLY_TABLES:
        return "SELECT"
    if table in events:
        return EVENT_TABLE_PRIVILEGES
    return TABLE_PRIVILEGES


def _role_ensure(cursor: CursorWrapper, *, role: str, password: str | None) -> int:
    """The role's oid, creating it when missing; its password set to `password` if given."""
    qn = cursor.db.ops.quote_name
    cursor.execute(_ROLE, [role])
    found = cursor.fetchone()
    if found is None:
        try:
            cursor.execute(
                f"CREATE ROLE {qn(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
                "NOBYPASSRLS" + (" PASSWORD %s" if password else ""),
                [password] if password else None,
            )
        except DatabaseError as exc:
            if not isinstance(exc.__cause__, errors.InsufficientPrivilege):
                raise
            raise DatabaseRoleError(
                f"the site's role {role} (DATABASE_URL) does not exist and the owner may not "
                f"create it: CREATE ROLE {role} LOGIN PASSWORD '…' as a superuser, or run "
                "migrate as one"
            ) from None
        cursor.execute(_ROLE, [role])
        found = cursor.fetchone()
    elif password:
        # A password changed in the environment takes effect; an owner without the right to
        # change it (not a superuser, no ADMIN on the role) leaves it as the DBA set it.
        try:
            with transaction.atomic(using=cursor.db.alias):
                cursor.execute(f"ALTER ROLE {qn(role)} PASSWORD %s", [password])
        except DatabaseError as exc:
            if not isinstance(exc.__cause__, errors.InsufficientPrivilege):
                raise
    oid, privileged = found
    if privileged:
        raise DatabaseRoleError(
            f"the site's role {role} (DATABASE_URL) is a superuser or may create roles or "
            f"databases, replicate or bypass row security: ALTER ROLE {role} NOSUPERUSER "
            "NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS, or name another role"
        )
    return int(oid)


def _role_check(cursor: CursorWrapper, *, role: str, role_oid: int) -> None:
    cursor.execute(_POWERFUL_MEMBERSHIPS, {"role": role_oid})
    memberships = [row[0] for row in cursor.fetchall()]
    if memberships:
        raise DatabaseRoleError(
            f"the site's role {role} (DATABASE_URL) is a member of {', '.join(memberships)}, "
            f"and so has an owner's or a superuser's rights: REVOKE that membership"
        )
    cursor.execute(_OWNED, [role_oid])
    owned = [row[0] for row in cursor.fetchall()]
    if owned:
        raise DatabaseRoleError(
            f"the site's role {role} (DATABASE_URL) owns {', '.join(owned)}: an owner can "
            f"disable triggers. As a superuser: REASSIGN OWNED BY {role} TO <the owner>"
        )


@contextmanager
def connected_as(*, account: Mapping[str, Any], using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Within the block, connection `using` connects as `account` (a database settings dict:
    DATABASE_OWNER_URL's for migrate; the site's role in tests): its user, password, host and
    port. It must name the same database. The connection is closed on entry and on exit."""
    connection = connections[using]
    if account.get("NAME") != connection.settings_dict["NAME"]:
        raise DatabaseRoleError(
            f"DATABASE_OWNER_URL names the database {account.get('NAME')!r} and DATABASE_URL "
            f"{connection.settings_dict['NAME']!r}: they must name the same one"
        )
    keys = ("USER", "PASSWORD", "HOST", "PORT")
    saved = {key: connection.settings_dict.get(key) for key in keys}
    connection.close()
    connection.settings_dict.update({key: account.get(key) or "" for key in keys})
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)
