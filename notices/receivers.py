"""What the notices app does when the apps below it signal (connected in apps.py)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.urls import reverse

from notices import texts
from notices.models import NoticeKind
from notices.publication import list_notices_request
from notices.services import notice_create
from periods.models import RatingPeriod
from ratings.models import PublishedList
from ratings.publication.signals import list_published
from tournaments.models import Report, Tournament
from tournaments.signals import report_needs_arbiter


@receiver(list_published, dispatch_uid="notices.list_published")
def _list_published(
    sender: Any, *, published: PublishedList, period: RatingPeriod, **_: Any
) -> None:
    # Only a row and a task here: the notices are written by a worker (publication.py).
    list_notices_request(published=published)


@receiver(report_needs_arbiter, dispatch_uid="notices.report_needs_arbiter")
def _report_needs_arbiter(
    sender: Any,
    *,
    tournament: Tournament,
    report: Report,
    reason: str,
    errors: int,
    unmatched: int,
    **_: Any,
) -> None:
    link = reverse("tournaments:manage", args=[tournament.pk])

    def compose() -> texts.Message:
        return texts.report(
            tournament=str(tournament),
            reason=reason,
            errors=errors,
            unmatched=unmatched,
            link=link,
        )

    notice_create(
        user=tournament.arbiter,
        kind=NoticeKind.REPORT,
        compose=compose,
        key=f"report:{report.pk}:{reason}",
    )
