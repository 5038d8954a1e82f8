"""The admin at federation scale (issue 28): every admin page rendered within a query budget
and a time budget, without a <select> of a large table, on the world of admin_scale_world.py.
Shared by tests/project/test_admin_scale.py and bench/admin_pages.py (which prints the slowest
pages for docs/benchmarks.md).

The pages are discovered from ``admin.site._registry``: a new admin is covered without
touching this module, and the test fails until the world has rows of its model.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.admin.filters import (
    AllValuesFieldListFilter,
    FieldListFilter,
    RelatedFieldListFilter,
)
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from lists.models import ListImportChunk, ListImportJob
from periods.models import RatingPeriod, RatingSystem
from protests.models import Protest, ProtestAttachment
from ratings.models import CalculationRun, PublishedList
from tournaments.models import Report, ReportUploadJob, Tournament

#: At most this many SQL statements per page (savepoints included, as assertNumQueries counts
#: them). A page measures 3–15 today; a query per row of a list page (100 rows) or per option
#: of a <select> breaks it at once.
QUERY_BUDGET = 30
#: At most this long per page, rendered in-process on the 2-core machine the suite runs on,
#: shared with the other xdist worker and whatever else runs: the slowest page takes 0.2 s
#: alone (bench/admin_pages.py, docs/benchmarks.md) and was seen at 2.8 s under a load of 5.
#: The budget catches what the issue saw (120 s for one page), not a few hundred ms: the query
#: budget and the <select> check are what bind; the medians are the benchmark's business.
SECONDS_BUDGET = 5.0
#: No <select> of a rendered page has more options than this: the largest legitimate one is
#: the permissions of the user and group forms (one per model and action).
SELECT_OPTIONS_LIMIT = 1_000

#: Tables of configuration, not of the federation's data: a form may offer their rows in a
#: <select> and a list may filter by them. Every other relation is chosen by id
#: (raw_id_fields or autocomplete_fields) and never listed whole.
SMALL_TABLES: frozenset[type[Model]] = frozenset({RatingSystem, Group, Permission, ContentType})
#: …and the office's own records, one per period, list version, run, import, tournament, report,
#: upload or protest: thousands, not the hundreds of thousands of players, games, entries or
#: logins. A list filter may list a column's values (SELECT DISTINCT) on these tables only.
OFFICE_TABLES: frozenset[type[Model]] = SMALL_TABLES | {
    RatingPeriod,
    PublishedList,
    CalculationRun,
    ListImportJob,
    ListImportChunk,
    Tournament,
    Report,
    ReportUploadJob,
    Protest,
    ProtestAttachment,
}


# ------------------------------------------------------------------------------- the pages


@dataclass(frozen=True)
class AdminPage:
    model: type[Model]
    kind: str  # "changelist", "add" or "change"

    @property
    def name(self) -> str:
        return f"{self.model._meta.label_lower}:{self.kind}"

    def url(self, pk: Any = None) -> str:
        opts = self.model._meta
        args = [pk] if self.kind == "change" else []
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_{self.kind}", args=args)


def admin_pages(request: Any) -> list[AdminPage]:
    """Every registered admin's list page and change page, and its add page where the admin
    allows adding (``request.user``: a superuser)."""
    pages = []
    for model, model_admin in sorted(admin.site._registry.items(), key=lambda i: i[0]._meta.label):
        pages.append(AdminPage(model, "changelist"))
        if model_admin.has_add_permission(request):
            pages.append(AdminPage(model, "add"))
        pages.append(AdminPage(model, "change"))
    return pages


class QueryBudgetExceeded(Exception):
    """Raised from the database cursor as soon as a page runs one query over its budget, so a
    page with a query per option or per row fails in milliseconds instead of running for
    minutes (the game <select> of issue 28 ran 300,000 queries)."""


@contextmanager
def query_guard(budget: int = QUERY_BUDGET) -> Iterator[list[str]]:
    """The SQL run on Django's connection in the block; QueryBudgetExceeded past ``budget``."""
    executed: list[str] = []

    def count(execute: Callable[..., Any], sql: str, params: Any, many: bool, ctx: Any) -> Any:
        executed.append(sql)
        if len(executed) > budget:
            raise QueryBudgetExceeded(
                f"query {len(executed)} over a budget of {budget}: {sql[:300]}"
            )
        return execute(sql, params, many, ctx)

    with connection.execute_wrapper(count):
        yield executed


_SELECT = re.compile(r"<select\b[^>]*>(.*?)</select>", re.S)


def largest_select(html: str) -> int:
    """Options of the largest <select> of a page (0 without one)."""
    return max((s.count("<option") for s in _SELECT.findall(html)), default=0)


@dataclass(frozen=True)
class Rendered:
    page: str
    status: int
    queries: int
    seconds: float
    largest_select: int


def page_render(client: Client, page: AdminPage, pk: Any, budget: int = QUERY_BUDGET) -> Rendered:
    """One GET of the page (under query_guard), timed from request to rendered response."""
    with query_guard(budget) as executed:
        started = time.perf_counter()
        response = client.get(page.url(pk))
        seconds = time.perf_counter() - started
    html = response.content.decode()
    return Rendered(page.name, response.status_code, len(executed), seconds, largest_select(html))


def _form_fields(owner: Any, request: Any) -> set[str]:
    """The fields of an admin's (or inline's) form; none when it only shows rows."""
    if isinstance(owner, InlineModelAdmin):
        if owner.has_change_permission(request) or owner.has_add_permission(request, None):
            return set(owner.get_formset(request).form.base_fields)
    elif owner.has_change_permission(request) or owner.has_add_permission(request):
        return set(owner.get_form(request).base_fields)
    return set()


def relation_problems(model_admin: admin.ModelAdmin[Any], request: Any) -> list[str]:
    """The relations of an admin's form (and of its inlines' forms) that would list a large
    table in a <select>, and the list filters that would list one's rows or scan one for its
    values: what must be empty."""
    problems = []
    for owner in (model_admin, *model_admin.get_inline_instances(request)):
        fields = _form_fields(owner, request)
        by_id = set(owner.raw_id_fields) | set(owner.get_autocomplete_fields(request))
        for f in owner.model._meta.get_fields():
            if not f.is_relation or f.auto_created or not (f.concrete or f.many_to_many):
                continue
            if f.name in fields and f.related_model not in SMALL_TABLES and f.name not in by_id:
                problems.append(f"{owner.model._meta.label}.{f.name}: a <select> of every row")
    # Django's choice of filter for a field named in list_filter: the first that accepts it.
    defaults = vars(FieldListFilter)["_field_list_filters"]
    for entry in model_admin.get_list_filter(request):
        path: Any
        chosen: Any
        if isinstance(entry, str):
            path, chosen = entry, None
        elif isinstance(entry, (tuple, list)):
            path, chosen = entry
        else:
            continue  # a SimpleListFilter (core.admin's among them): its own choices
        field = get_fields_from_path(model_admin.model, path)[-1]
        kind = chosen or next(c for test, c in defaults if test(field))
        label = f"{model_admin.model._meta.label} list_filter {path}"
        if issubclass(kind, RelatedFieldListFilter) and field.related_model not in SMALL_TABLES:
            problems.append(f"{label}: a link per row of {field.related_model._meta.label}")
        if issubclass(kind, AllValuesFieldListFilter) and field.model not in OFFICE_TABLES:
            problems.append(f"{label}: a SELECT DISTINCT over {field.model._meta.label}")
    return problems
