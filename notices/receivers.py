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
from players.models import Player
from ratings.live.signals import live_ratings_changed
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


@receiver(live_ratings_changed, dispatch_uid="notices.live_ratings_changed")
def _live_ratings_changed(
    sender: Any, *, period: RatingPeriod, changed: dict[int, tuple[int | None, int]], **_: Any
) -> None:
    """Tell each player with an account whose live figure changed (once per figure: the key)."""
    players = Player.objects.filter(pk__in=changed, user__isnull=False).select_related("user")
    system = str(period.system)
    for player in players:
        after, change = changed[player.pk]
        link = reverse("players:live", args=[player.fed_id, period.pk])

        def compose(
            after: int | None = after, change: int = change, link: str = link
        ) -> texts.Message:
            return texts.live_rating(system=system, rating_after=after, change=change, link=link)

        notice_create(
            user=player.user,
            kind=NoticeKind.LIVE_RATING,
            compose=compose,
            key=f"live:{period.pk}:{player.pk}:{after}:{change}",
        )
