"""The database backend used while DATABASE_URL is unset: every use of the database says so.

Why not refuse to start: commands that never touch the database (`check`, `collectstatic` in
the Docker build, `compilemessages`) must work without one. Anything that does touch it raises
ImproperlyConfigured naming DATABASE_URL, which manage.py prints as one line. PostgreSQL is
the only database; `make run` and `make test` set DATABASE_URL to a private server
(config/embedded_db.py) when it is unset.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.dummy import base as dummy

MESSAGE = (
    "DATABASE_URL is not set; set it to postgres://user:password@host:port/name "
    "(make run and make test start a private PostgreSQL when it is unset)"
)


def complain(*args: Any, **kwargs: Any) -> NoReturn:
    raise ImproperlyConfigured(MESSAGE)


class DatabaseOperations(dummy.DatabaseOperations):
    quote_name = complain


class DatabaseClient(dummy.DatabaseClient):
    runshell = complain


class DatabaseIntrospection(dummy.DatabaseIntrospection):
    get_table_list = complain
    get_table_description = complain
    get_relations = complain
    get_indexes = complain


class DatabaseWrapper(dummy.DatabaseWrapper):
    vendor = "unset"
    display_name = "no database (DATABASE_URL is unset)"
    _cursor = complain
    ensure_connection = complain
    _commit = complain
    _savepoint_commit = complain
    _set_autocommit = complain
    client_class = DatabaseClient
    introspection_class = DatabaseIntrospection
    ops_class = DatabaseOperations
