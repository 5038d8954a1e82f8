"""The notices of a published list: "a new list" to the players on it who have an account and
to the users who follow its rating system, and "your tournament is rated" to the players and
the arbiter of each tournament the list rates.

Asked for in the publication's transaction (receivers.py: a ListNotices row and a task sent
once it commits), written by a worker (tasks.py), never in the officer's request. With the
broker away at commit, the watchdog (`list_notices_watch`, Celery beat) sends the task again.
The task can run twice: each notice has its key, and an advisory lock keeps two workers off
the same list."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from core.pg.locks import advisory_try_lock, advisory_unlock
from core.tasks import task_enqueue_or_leave_on_commit
from notices import texts
from notices.models import ListNotices, NoticeKind, NoticePreference
from notices.services import Item, notices_send
from ratings.models import ListEntry, PublishedList
from tournaments.models import Tournament, TournamentPlayer, TournamentStatus

TASK = "notices.list_published"
WATCHDOG = "notices.watch_lists"
#: Advisory-lock namespace (core/pg/locks.py): one worker per list's notices.
LOCK = 7310
#: A request left undone this long is sent again by the watchdog.
STALE = dt.timedelta(minutes=10)


def list_notices_request(*, published: PublishedList) -> None:
    """In the publication's transaction: record that the list's notices are due and send the
    task once it commits."""
    ListNotices.objects.get_or_create(published_list=published)
    task_enqueue_or_leave_on_commit(TASK, published.pk, watchdog=WATCHDOG)


def list_notices_send(*, list_id: int) -> int:
    """Write the list's notices (see the module's docstring); the number written. Nothing when
    another worker holds the list."""
    if not advisory_try_lock(LOCK, list_id):
        return 0
    try:
        published = PublishedList.objects.select_related("system", "period").get(pk=list_id)
        written = notices_send(kind=NoticeKind.LIST_PUBLISHED, items=_list_items(published))
        written += notices_send(kind=NoticeKind.EVENT_RATED, items=_event_items(published))
        ListNotices.objects.filter(published_list_id=list_id).update(done_at=timezone.now())
        return written
    finally:
        advisory_unlock(LOCK, list_id)


def _list_items(published: PublishedList) -> Iterator[Item]:
    """The players on the list with an account (with their rating), then the followers of its
    system who are not on it."""
    link = reverse("ratings:list", args=[published.pk])
    key = f"list:{published.pk}"
    on_list: set[int] = set()
    entries = (
        ListEntry.objects.filter(published_list=published, player__user__isnull=False)
        .values_list("player__user_id", "rating", "change")
        .order_by("player__user_id")
    )
    for user_id, rating, change in entries.iterator(chunk_size=2000):
        on_list.add(user_id)
        yield Item(
            user_id=user_id,
            key=key,
            compose=_list_message(published, link, rating=rating, change=change),
        )
    followers = (
        NoticePreference.objects.filter(systems=published.system)
        .values_list("user_id", flat=True)
        .order_by("user_id")
    )
    for user_id in followers.iterator(chunk_size=2000):
        if user_id not in on_list:
            yield Item(user_id=user_id, key=key, compose=_list_message(published, link))


def _list_message(
    published: PublishedList, link: str, *, rating: int | None = None, change: int | None = None
) -> texts.CallableMessage:
    # str(published) is worded in the active language: the recipient's, when called.
    return lambda: texts.list_published(
        list_name=str(published), link=link, rating=rating, change=change
    )


def _event_items(published: PublishedList) -> Iterator[Item]:
    """Each player with an account and each arbiter of a tournament the list rates (its
    period's, published), one notice per tournament: a correction of the list tells nobody
    again."""
    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(
            period_id=published.period_id, status=TournamentStatus.PUBLISHED
        ).only("pk", "name", "start_date", "arbiter_id")
    }
    if not tournaments:
        return
    pairs = set(
        TournamentPlayer.objects.filter(
            tournament_id__in=list(tournaments), player__user__isnull=False
        )
        .annotate(user_id=F("player__user_id"))
        .values_list("user_id", "tournament_id")
    )
    pairs |= {(t.arbiter_id, t.pk) for t in tournaments.values()}
    for user_id, tournament_id in sorted(pairs):
        tournament = tournaments[tournament_id]
        yield Item(
            user_id=user_id,
            key=f"event:{tournament_id}",
            compose=_event_message(published, tournament),
        )


def _event_message(published: PublishedList, tournament: Tournament) -> texts.CallableMessage:
    link = reverse("tournaments:detail", args=[tournament.pk])
    return lambda: texts.event_rated(
        tournament=str(tournament), list_name=str(published), link=link
    )


def list_notices_watch(*, now: dt.datetime | None = None) -> list[int]:
    """The watchdog (Celery beat): send the task again for each list whose notices were asked
    for more than STALE ago and are not done. The lists' ids."""
    now = now or timezone.now()
    ids = list(
        ListNotices.objects.filter(done_at__isnull=True, requested_at__lt=now - STALE)
        .order_by("requested_at")
        .values_list("published_list_id", flat=True)
    )
    for list_id in ids:
        task_enqueue_or_leave_on_commit(TASK, list_id, watchdog=WATCHDOG)
    return ids
