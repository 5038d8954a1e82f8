"""Reads of protests: a player's own, the officers' list (filtered), one protest with what its
page shows (history, deadlines, the tournaments and games a protest may name)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from core import history
from core.rules import is_officer
from protests.deadlines import (
    Window,
    appeal_deposit_required,
    appeal_window,
    protest_window,
)
from protests.models import DECIDED_STATUSES, OPEN_STATUSES, Protest, ProtestStatus
from ratings.models import PublishedList
from tournaments.models import Game, Tournament

_RELATED = (
    "published_list__system",
    "published_list__period",
    "player",
    "submitted_by",
    "tournament",
    "corrected_list",
)

#: The officers' groups of statuses: open (to decide: submitted, or appealed to the board),
#: waiting (for the player's information), decided.
STATUS_GROUPS: dict[str, tuple[str, ...]] = {
    "open": (ProtestStatus.SUBMITTED, ProtestStatus.APPEALED),
    "waiting": (ProtestStatus.WAITING,),
    "decided": DECIDED_STATUSES,
}


def protest_open_until(*, published: PublishedList) -> dt.datetime:
    """The first moment the list is closed to protests (00:00 after its last day)."""
    return protest_window(published=published).closes_at


def protest_get(*, pk: int) -> Protest:
    return Protest.objects.select_related(*_RELATED, "game", "decided_by").get(pk=pk)


def protest_list_for_player(*, user: Any) -> QuerySet[Protest]:
    """His protests, open and decided: those he submitted and those about his player."""
    if not user.is_authenticated:
        return Protest.objects.none()
    return (
        Protest.objects.filter(Q(submitted_by=user) | Q(player__user=user))
        .select_related(*_RELATED)
        .order_by("-submitted_at", "-id")
    )


def protest_list_for_office(
    *, status_group: str = "", system_id: int | None = None, search: str = ""
) -> QuerySet[Protest]:
    """Every protest, filtered by a group of STATUS_GROUPS, a rating system and a player's
    name or federation ID; the open ones first, then the newest."""
    protests = Protest.objects.select_related(*_RELATED)
    if status_group in STATUS_GROUPS:
        protests = protests.filter(status__in=STATUS_GROUPS[status_group])
    if system_id is not None:
        protests = protests.filter(published_list__system_id=system_id)
    for word in search.split()[:4]:
        protests = protests.filter(
            Q(player__surname__icontains=word)
            | Q(player__given_name__icontains=word)
            | Q(player__fed_id=word)
        )
    return protests.order_by("-submitted_at")


def protest_list_pending() -> QuerySet[Protest]:
    """Protests an officer must act on (the officer's desk links here)."""
    return protest_list_for_office(status_group="open")


def protest_counts() -> dict[str, int]:
    """How many protests in each of STATUS_GROUPS."""
    counts = {group: 0 for group in STATUS_GROUPS}
    for status in Protest.objects.values_list("status", flat=True):
        for group, statuses in STATUS_GROUPS.items():
            if status in statuses:
                counts[group] += 1
    return counts


def protest_open_exists(*, published: PublishedList, player: Any) -> bool:
    return Protest.objects.filter(
        published_list=published, player=player, status__in=OPEN_STATUSES
    ).exists()


def protest_subjects(
    *, published: PublishedList, player: Any
) -> tuple[QuerySet[Tournament], QuerySet[Game]]:
    """What a protest against ``published`` may name: the tournaments rated in its period,
    and the player's games in them."""
    tournaments = Tournament.objects.filter(period_id=published.period_id).order_by(
        "-end_date", "name"
    )
    games = (
        Game.objects.filter(tournament__period_id=published.period_id)
        .filter(Q(white__player=player) | Q(black__player=player))
        .select_related("tournament", "white", "black")
        .order_by("tournament__name", "round")
    )
    return tournaments, games


@dataclass(frozen=True)
class ProtestPage:
    """What a protest's page shows besides the protest."""

    window: Window
    appeal: Window | None
    #: What an appeal deposits (cnxc-2000 4.3), None without a deposit.
    appeal_deposit: Decimal | None
    events: list[Any]


def protest_page(*, protest: Protest) -> ProtestPage:
    return ProtestPage(
        window=protest_window(published=protest.published_list),
        appeal=appeal_window(protest=protest),
        appeal_deposit=(
            settings.PROTEST_APPEAL_DEPOSIT if appeal_deposit_required(protest=protest) else None
        ),
        events=history.object_history(obj=protest),
    )


def protests_for_user(*, user: Any) -> QuerySet[Protest]:
    """The protests ``protests.view_protest`` lets `user` see (the rule's predicates as a
    query): all for an officer, else his own (``protest_list_for_player``)."""
    if is_officer(user):
        return Protest.objects.select_related(*_RELATED).order_by("-submitted_at", "-id")
    return protest_list_for_player(user=user)
