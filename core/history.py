"""History of the office's records: who changed what, and when (django-pghistory).

Writes happen in PostgreSQL: a model decorated with ``@pghistory.track(...)`` gets triggers
that copy each inserted, updated or deleted row into its event table, in the same transaction,
whatever wrote it (the ORM, a bulk UPDATE, COPY, raw SQL). The tracked models and why each is
tracked the way it is: docs/audit.md. Every tracker here is statement-level: one trigger call
per statement, its rows read from the statement's transition table, so a bulk write stays one
set-based INSERT … SELECT into the event table and never becomes row by row.

Who and where: events point to a context row (pghistory.Context) whose metadata the
application sets for the current transaction. ``HistoryMiddleware`` puts the request's user id
and path there; a Celery task's name is put there by ``task_history_enter`` (connected in
config/celery.py), a management command's by its own ``history_context(command=...)``.

Reads: ``object_history`` and ``model_history`` (newest first, limited, one query for the
events and one per kind of related row shown). Who may see them: ``history_visible``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

import pghistory
import pghistory.middleware
from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.utils import formats, timezone
from django.utils.text import Truncator, capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pghistory.models import MiddlewareEvents

from core.rules import is_officer

#: Events shown on a page.
HISTORY_LIMIT = 50

_ACTIONS = {
    "insert": gettext_lazy("created"),
    "update": gettext_lazy("changed"),
    "delete": gettext_lazy("deleted"),
}


# --------------------------------------------------------------------------- context (writes)


def history_context(**metadata: Any) -> contextlib.AbstractContextManager[Any]:
    """Attach ``metadata`` (e.g. ``user=<id>``, ``task="ratings.import_list"``) to the events of
    the statements run inside the block. Nested blocks add to the outer one's metadata."""
    return pghistory.context(**metadata)


_task_contexts: dict[str, contextlib.AbstractContextManager[Any]] = {}


def task_history_enter(*, task_id: str | None, name: str) -> None:
    """From Celery's task_prerun (config/celery.py): the task's events name the task. In eager
    mode inside a request, the name is added to the request's context."""
    context = history_context(task=name)
    context.__enter__()
    _task_contexts[task_id or ""] = context


def task_history_exit(*, task_id: str | None) -> None:
    context = _task_contexts.pop(task_id or "", None)
    if context is not None:
        context.__exit__(None, None, None)


class HistoryMiddleware(pghistory.middleware.HistoryMiddleware):
    """pghistory's middleware: the user id and the path of the request as the context of every
    event the request writes."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return super().__call__(request)


# --------------------------------------------------------------------------- reads


def history_visible(*, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Who sees the history sections: rating officers. The one place to change that rule."""
    return bool(is_officer(user))


@dataclass(frozen=True)
class Change:
    field: str
    old: str
    new: str


@dataclass(frozen=True)
class HistoryEvent:
    at: dt.datetime
    action: str
    what: str
    user: str
    path: str
    changes: tuple[Change, ...]


def object_history(
    *, obj: models.Model, limit: int = HISTORY_LIMIT, related: bool = False
) -> list[HistoryEvent]:
    """The events of ``obj``, newest first; with ``related``, also those of the tracked rows
    that refer to it (a tournament's reports and games, a list's protests)."""
    events = MiddlewareEvents.objects.all()
    events = events.references(obj) if related else events.tracks(obj)
    return _events(events, limit)


def model_history(*, model: type[models.Model], limit: int = HISTORY_LIMIT) -> list[HistoryEvent]:
    """The latest events of every row of ``model``, newest first. The rows are picked from the
    newest events first, so the diff query reads the events of at most ``limit`` rows."""
    event_model = model.pgh_event_model  # type: ignore[attr-defined]
    ids = set(event_model.objects.order_by("-pgh_id").values_list("pgh_obj_id", flat=True)[:limit])
    if not ids:
        return []
    rows = [model(pk=pk) for pk in sorted(ids)]  # deleted rows too: only their pk is read
    return _events(MiddlewareEvents.objects.tracks(rows), limit)


def _events(events: Any, limit: int) -> list[HistoryEvent]:
    rows = list(events.select_related("user").order_by("-pgh_created_at", "-pgh_id")[:limit])
    labels = _related_labels(rows)
    names = _object_names(rows)
    out = []
    for row in rows:
        model = apps.get_model(row.pgh_obj_model)
        columns = {f.column: f for f in model._meta.concrete_fields}
        changes = []
        if row.pgh_label == "update":
            for column, (old, new) in sorted((row.pgh_diff or {}).items()):
                field = columns.get(column)
                if field is None:
                    continue
                show = _shower(field, labels)
                changes.append(Change(field=str(field.verbose_name), old=show(old), new=show(new)))
        out.append(
            HistoryEvent(
                at=row.pgh_created_at,
                action=str(_ACTIONS.get(row.pgh_label, row.pgh_label)),
                what=_what(model, row.pgh_obj_id, names),
                user=row.user.get_username() if row.user else "",
                path=row.url or "",
                changes=tuple(changes),
            )
        )
    return out


def _object_names(rows: Iterable[Any]) -> dict[tuple[str, str], str]:
    """str() of the rows the events are about that still exist, one query per model: the
    officer reads "Open Sitges 2026", not a primary key."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        wanted[row.pgh_obj_model].add(str(row.pgh_obj_id))
    names = {}
    for label, ids in wanted.items():
        model = apps.get_model(label)
        # Their names may read related rows (a protest is "player / list"): joined in the
        # same query (every non-null foreign key), not one query per event.
        rows_named = model._default_manager.select_related().in_bulk(list(ids))
        for pk, obj in rows_named.items():
            names[(label, str(pk))] = str(obj)
    return names


def _what(model: type[models.Model], pk: Any, names: dict[tuple[str, str], str]) -> str:
    kind = capfirst(model._meta.verbose_name)
    name = names.get((model._meta.label, str(pk)))
    # A deleted row keeps its number only.
    if name:
        return _("%(kind)s “%(name)s”") % {"kind": kind, "name": name}
    return _("%(kind)s #%(number)s") % {"kind": kind, "number": pk}


def _related_labels(rows: Iterable[Any]) -> dict[tuple[type[models.Model], str], str]:
    """str() of the rows that changed foreign keys point to, one query per related model."""
    wanted: dict[type[models.Model], set[str]] = defaultdict(set)
    for row in rows:
        if row.pgh_label != "update" or not row.pgh_diff:
            continue
        model = apps.get_model(row.pgh_obj_model)
        columns = {f.column: f for f in model._meta.concrete_fields}
        for column, values in row.pgh_diff.items():
            field = columns.get(column)
            if field is not None and field.is_relation and field.related_model is not None:
                wanted[field.related_model].update(str(v) for v in values if v is not None)
    labels = {}
    for related_model, pks in wanted.items():
        for pk, target in related_model._base_manager.in_bulk(list(pks)).items():
            labels[(related_model, str(pk))] = str(target)
    return labels


def _shower(
    field: models.Field[Any, Any], labels: dict[tuple[type[models.Model], str], str]
) -> Callable[[Any], str]:
    """How a stored (JSON) value of ``field`` is shown: a choice's label, a related row's name,
    a date or a time in the reader's format and time zone, yes/no, text cut at 80 characters."""

    def show(value: Any) -> str:
        if value is None or value == "":
            return "—"
        if field.is_relation and field.related_model is not None:
            related = cast("type[models.Model]", field.related_model)  # never "self" once loaded
            return labels.get((related, str(value)), f"#{value}")
        if field.choices:
            return str(dict(field.flatchoices).get(value, value))
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(field, models.DateField | models.DecimalField):
            try:
                parsed = field.to_python(value)
            except ValidationError:  # a value stored by an older version of the field
                return str(value)
            if isinstance(parsed, dt.datetime) and timezone.is_aware(parsed):
                parsed = timezone.localtime(parsed)
            return str(formats.localize(parsed))
        return Truncator(str(value)).chars(80)

    return show
