"""A paginator for the tables of millions of rows (a list's entries, ranks and filter rows, the
drafts of every calculation: 24 lists of 500,000 players): Django's Paginator counts the rows
of every page it shows, a scan of the whole table (seconds) for an admin list page that reads
100 of them. This one asks PostgreSQL's planner how many rows the query would return (an
``EXPLAIN``, which reads the table's statistics, not its rows) and counts exactly only when
the planner expects few: small tables and narrow filters keep their exact count, a page of a
huge table says "about" (its figure is the planner's, and the last pages it offers may be
empty).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.utils.functional import cached_property

#: Below this many rows expected, the rows are counted (a count of that many is milliseconds).
EXACT_COUNT_BELOW = 100_000


def queryset_estimate(queryset: QuerySet[Any]) -> int:
    """The rows PostgreSQL's planner expects the queryset to return (EXPLAIN, no scan); 0 for
    a queryset Django knows is empty (``none()``, ``pk__in=[]``), which it never sends to the
    database (its EXPLAIN is an empty string)."""
    output = queryset.order_by().explain(format="json")
    if not output:
        return 0
    plan = json.loads(output)
    return int(plan[0]["Plan"]["Plan Rows"])


class EstimatedCountPaginator(Paginator):
    """Django's Paginator whose count is the planner's estimate when that is large."""

    #: Whether the count is the planner's estimate (a template may say "about").
    estimated = False

    def __init__(self, *args: Any, exact_below: int = EXACT_COUNT_BELOW, **kwargs: Any) -> None:
        """`exact_below`: the rows are counted when the planner expects fewer (a page whose
        rows are wide or filtered by a condition no index serves counts fewer exactly)."""
        super().__init__(*args, **kwargs)
        self.exact_below = exact_below

    @cached_property
    def count(self) -> int:
        rows = self.object_list
        if isinstance(rows, QuerySet):
            estimate = queryset_estimate(rows)
            if estimate >= self.exact_below:
                self.estimated = True
                return estimate
        return int(super().count)
