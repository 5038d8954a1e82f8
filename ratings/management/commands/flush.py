"""`manage.py flush`, allowed to empty the published lists.

Published lists and their entries refuse TRUNCATE in PostgreSQL (ratings/models/published.py,
IMMUTABLE). Flushing removes every row of every table on purpose (Django's test runner flushes
the database after each transactional test), so this command runs Django's flush with those two
triggers ignored, for its own statements only (pgtrigger.ignore).
"""

from __future__ import annotations

from typing import Any

import pgtrigger
from django.core.management.commands import flush

TRUNCATE_TRIGGERS = (
    "ratings.PublishedList:immutable_truncate",
    "ratings.ListEntry:immutable_truncate",
)


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        with pgtrigger.ignore(*TRUNCATE_TRIGGERS, databases=[options["database"]]):
            super().handle(**options)
