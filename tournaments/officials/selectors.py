"""Reads of the arbiters' and organisers' registry: the lists (officers: every state; the
public: approved ones), a record's tournaments, and the match of a report's chief arbiter."""

from __future__ import annotations

import re

from django.db.models import Count, Q, QuerySet

from tournaments.models import Tournament, TournamentStatus
from tournaments.officials.models import Arbiter, Organiser, RecordState

#: A FIDE ID in TRF line 102 ("IA Jane Doe (12345678)"): 4 to 10 digits on their own.
_FIDE_ID = re.compile(r"\b(\d{4,10})\b")
#: A title before the name ("IA", "FA", "NA", "IO": FIDE's arbiter and organiser titles).
_TITLE = re.compile(r"^(?:IA|FA|NA|IO)\b\.?\s*", re.IGNORECASE)


def chief_arbiter_parts(text: str) -> tuple[str, int | None]:
    """The name and the FIDE ID (None when absent) of a report's chief arbiter line."""
    match = _FIDE_ID.search(text)
    fide_id = int(match.group(1)) if match else None
    name = _FIDE_ID.sub(" ", text).replace("(", " ").replace(")", " ")
    name = _TITLE.sub("", " ".join(name.split()))
    return " ".join(name.strip(" ,;-").split()), fide_id


def arbiter_find(*, name: str, fide_id: int | None) -> Arbiter | None:
    """The registry's arbiter with this FIDE ID; else the only one with this name (any case)."""
    if fide_id is not None:
        found = Arbiter.objects.filter(fide_id=fide_id).first()
        if found is not None:
            return found
    if not name:
        return None
    named = list(Arbiter.objects.filter(name__iexact=name)[:2])
    return named[0] if len(named) == 1 else None


def arbiter_list(*, public: bool, state: str = "", q: str = "") -> QuerySet[Arbiter]:
    """Arbiters with the number of tournaments each directs; the public sees approved ones."""
    rows = Arbiter.objects.annotate(tournament_count=Count("tournaments_directed"))
    if public:
        rows = rows.filter(state=RecordState.APPROVED)
    elif state:
        rows = rows.filter(state=state)
    if q:
        rows = rows.filter(
            Q(name__icontains=q) | Q(fide_id__startswith=q) if q.isdigit() else Q(name__icontains=q)
        )
    return rows.order_by("name", "id")


def organiser_list(*, public: bool, state: str = "", q: str = "") -> QuerySet[Organiser]:
    rows = Organiser.objects.annotate(tournament_count=Count("tournaments"))
    if public:
        rows = rows.filter(state=RecordState.APPROVED)
    elif state:
        rows = rows.filter(state=state)
    if q:
        rows = rows.filter(name__icontains=q)
    return rows.order_by("name", "id")


def arbiter_tournaments(*, arbiter: Arbiter) -> QuerySet[Tournament]:
    """The tournaments the arbiter directed, latest first (his public page)."""
    return arbiter.tournaments_directed.select_related("rating_system").order_by(
        "-end_date", "name"
    )


def organiser_tournaments(*, organiser: Organiser) -> QuerySet[Tournament]:
    return organiser.tournaments.select_related("rating_system").order_by("-end_date", "name")


def arbiter_tournaments_to_check(*, arbiter: Arbiter) -> QuerySet[Tournament]:
    """His tournaments whose report is in and not yet rated: checked again on a decision."""
    return arbiter.tournaments_directed.filter(
        status__in=(TournamentStatus.REPORT_RECEIVED, TournamentStatus.VALIDATED)
    )


def officials_pending_count() -> int:
    """Records waiting for the officer's decision (the registry page's heading)."""
    return (
        Arbiter.objects.filter(state=RecordState.PENDING).count()
        + Organiser.objects.filter(state=RecordState.PENDING).count()
    )
