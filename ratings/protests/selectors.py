"""Reads of protests."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet

from ratings.models import Protest, ProtestStatus, PublishedList


def protest_open_until(*, published: PublishedList) -> dt.datetime:
    return published.published_at + dt.timedelta(days=published.system.protest_days)


def protest_get(*, pk: int) -> Protest:
    return Protest.objects.select_related("published_list__system", "player", "decided_by").get(
        pk=pk
    )


def protest_list_pending() -> QuerySet[Protest]:
    return Protest.objects.filter(status=ProtestStatus.SUBMITTED).select_related(
        "published_list__system", "player", "submitted_by"
    )
