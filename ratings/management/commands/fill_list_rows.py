"""manage.py fill_list_rows: write the filter rows (and ranks) of every published list that
has none: lists published before migration 0019, whose pages otherwise read the entries
joined to their players (the same pages, slower)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings.lists import ranks
from ratings.models import PublishedList


class Command(BaseCommand):
    help = "Write the list page's filter rows and the card's ranks of every published list."

    def handle(self, *args: Any, **options: Any) -> None:
        for list_id in PublishedList.objects.order_by("id").values_list("id", flat=True):
            started = time.perf_counter()
            written = ranks.list_ranks_fill(list_id=list_id)
            rows = ranks.list_rows_fill(list_id=list_id)
            if written or rows:
                took = time.perf_counter() - started
                self.stdout.write(
                    f"list {list_id}: {rows} filter rows, {written} ranks, {took:.1f} s"
                )
