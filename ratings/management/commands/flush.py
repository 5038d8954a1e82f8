"""`manage.py flush`, allowed to empty the published lists.

Published lists, their entries, ranks and filter rows refuse TRUNCATE in PostgreSQL
(ratings/models/published.py, IMMUTABLE), and no connection can ask those triggers to step aside
(core/pg/triggers.py: they ignore `pgtrigger.ignore`). Flushing removes every row of every table
on purpose (Django's test runner flushes the database after each transactional test), so this
command runs Django's TRUNCATE with `session_replication_role = replica`, under which PostgreSQL
fires no ordinary trigger, for that statement only. Setting it takes a superuser: the test
runner's connection is one; the site's role is not (core/pg/roles.py), so as the site's role
`flush` is refused, as it should be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.commands import flush
from django.db import connections


def _truncate_without_triggers(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    if not sql.lstrip().upper().startswith("TRUNCATE"):
        return execute(sql, params, many, context)
    # SET LOCAL: inside the flush's own transaction; put back at once in case that transaction
    # is a savepoint of a longer one (a failure rolls the setting back with the savepoint).
    execute("SET LOCAL session_replication_role = replica", None, False, context)
    result = execute(sql, params, many, context)
    execute("SET LOCAL session_replication_role = DEFAULT", None, False, context)
    return result


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        with connections[options["database"]].execute_wrapper(_truncate_without_triggers):
            super().handle(**options)
