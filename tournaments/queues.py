"""What waits for the rating officer about tournaments, for his desk (desk/selectors.py, the
desk's API): tournaments validated after their period's list was published, and report lines
whose FIDE ID the registry gives to someone else (issue 23, docs/arbiters.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import BigIntegerField, Case, Exists, F, OuterRef, QuerySet, When
from django.db.models.functions import Cast

from players.models import Player
from tournaments.models import Tournament, TournamentPlayer, TournamentStatus
from tournaments.selectors import fide_id_int


def tournaments_moved_after_publication() -> QuerySet[Tournament]:
    """Validated after the list of their period was published, moved to the open period
    (tournaments.services.period_moves), and not yet rated: the officer may still choose to
    rate them in their own period as a correction."""
    return (
        Tournament.objects.filter(
            status=TournamentStatus.VALIDATED, moved_from_period__isnull=False
        )
        .exclude(period=F("moved_from_period"))
        .select_related("period", "moved_from_period", "arbiter")
        .order_by("validated_at", "id")
    )


#: How many FIDE ID conflicts the officer's desk lists (newest first).
FIDE_ID_CONFLICTS_SHOWN = 100


@dataclass(frozen=True)
class FideIdConflict:
    line: TournamentPlayer  # with its tournament and registry player
    owner: Player  # the registry player the reported FIDE ID belongs to


def fide_id_conflicts(*, limit: int = FIDE_ID_CONFLICTS_SHOWN) -> list[FideIdConflict]:
    """Lines linked to a registry player other than the one their reported FIDE ID belongs to
    (a new player created without it, issue 23): the officer's desk lists them until the
    records agree (the owner's FIDE ID corrected, or the line relinked). One query."""
    # The reported ID as the registry's bigint, only when it is ASCII digits (CASE: the cast is
    # never tried on anything else).
    reported = Case(
        When(fide_id__regex=r"^[0-9]{1,18}$", then=Cast("fide_id", BigIntegerField())),
        default=None,
    )
    lines = list(
        TournamentPlayer.objects.filter(player__isnull=False)
        .exclude(fide_id="")
        .annotate(reported=reported)
        .filter(
            Exists(
                Player.objects.filter(fide_id=OuterRef("reported")).exclude(
                    pk=OuterRef("player_id")
                )
            )
        )
        .select_related("tournament", "player")
        .order_by("-id")[:limit]
    )
    owners = {
        p.fide_id: p
        for p in Player.objects.filter(
            fide_id__in={fide_id_int(line.fide_id) for line in lines} - {None}
        )
    }
    return [
        FideIdConflict(line=line, owner=owners[fide_id])
        for line in lines
        if (fide_id := fide_id_int(line.fide_id)) in owners
    ]
