"""The officer's desk: what waits for the rating officer in every app (late registrations,
reports, periods not yet published, periods to recalculate, pending protests, recent list
imports, e-mails that keep failing, claims of player records and data corrections to decide).
It sits above the apps whose queues it gathers (pyproject's layers contract)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.db.models import QuerySet

from accounts.models import ClaimRequest, CorrectionRequest
from accounts.selectors import claims_pending, corrections_pending
from core.outbox import outbox_trouble
from lists.models import ListImportJob
from periods.models import PeriodStatus, RatingPeriod
from protests.models import Protest
from protests.selectors import protest_list_pending
from ratings.calculation import selectors as calculation_selectors
from ratings.models import CalculationRun
from ratings.office.selectors import (
    CONTENTS_TTL,
    PeriodContents,
    contents_state,
    period_contents_kept,
)
from ratings.statistics.selectors import Drift, drift_alerts
from tournaments.decision_selectors import decisions_waiting
from tournaments.fide_export import tournaments_fide_unsent
from tournaments.models import Tournament, TournamentDecision, TournamentStatus
from tournaments.queues import (
    FideIdConflict,
    fide_id_conflicts,
    tournaments_moved_after_publication,
)


@dataclass(frozen=True)
class PeriodCard:
    period: RatingPeriod
    run: CalculationRun | None

    @cached_property
    def contents(self) -> PeriodContents:
        """Read when the card's fragment is not kept (desk/desk.html, {% cache %} by
        ``Desk.contents_state``): counting a month of 300,000 games takes seconds."""
        return period_contents_kept(period=self.period)


@dataclass(frozen=True)
class Desk:
    late_registrations: QuerySet[Tournament]
    reports_waiting: QuerySet[Tournament]
    periods: dict[str, list[PeriodCard]]  # by period status, in the order of the cycle
    recalculation: QuerySet[RatingPeriod]
    protests: QuerySet[Protest]
    imports: QuerySet[ListImportJob]
    mail: dict[str, int]  # e-mails "failed" for good and "retrying" (core.outbox)
    claims: QuerySet[ClaimRequest]  # pending claims of player records (accounts)
    corrections: QuerySet[CorrectionRequest]  # pending data corrections (accounts)
    # Systems whose top-50 average moved more than the officer's threshold (feda-1996 11.1,
    # fide-2000 12.3; ratings.statistics).
    drift: list[Drift]
    # validated after their period's list was published, moved to the open period (issue 23)
    moved_after_publication: QuerySet[Tournament]
    # lines linked to another player than their reported FIDE ID's owner (issue 23)
    fide_id_conflicts: list[FideIdConflict]
    # rated tournaments of published periods not yet sent to FIDE (fide-2024 9.1)
    fide_unsent: QuerySet[Tournament]
    # the officer's decisions waiting: reports returned for correction, appeals to decide
    decisions: QuerySet[TournamentDecision]
    # the key of the period cards' fragments (ratings.office.selectors.contents_state)
    contents_state: str = ""
    contents_ttl: int = CONTENTS_TTL
    # a period's status group of more tournaments shows its totals only (the period's pages list
    # them)
    lines_max: int = 50


DESK_IMPORTS = 8
DESK_FIDE_UNSENT = 50


def desk_for_officer() -> Desk:
    """What waits for the officer: late registrations to approve, reports to validate (the
    arbiter validates; the officer sees who is behind), periods not yet published with what
    they contain, periods marked for recalculation, pending protests, recent list imports,
    e-mails that could not be sent."""
    periods: dict[str, list[PeriodCard]] = {}
    for period in (
        RatingPeriod.objects.exclude(status=PeriodStatus.PUBLISHED)
        .select_related("system")
        .order_by("system__name", "start")
    ):
        periods.setdefault(period.status, []).append(
            PeriodCard(period=period, run=calculation_selectors.run_latest(period=period))
        )
    ordered = {s: periods[s] for s in PeriodStatus.values if s in periods}
    return Desk(
        late_registrations=Tournament.objects.filter(
            late_registration=True, approved_at__isnull=True
        )
        .select_related("arbiter", "rating_system")
        .order_by("start_date"),
        reports_waiting=Tournament.objects.filter(status=TournamentStatus.REPORT_RECEIVED)
        .select_related("arbiter", "period")
        .order_by("report_received_at"),
        periods=ordered,
        recalculation=RatingPeriod.objects.filter(needs_recalculation=True)
        .select_related("system")
        .order_by("system__name", "start"),
        protests=protest_list_pending().order_by("submitted_at"),
        imports=ListImportJob.objects.select_related("system").order_by("-requested_at")[
            :DESK_IMPORTS
        ],
        mail=outbox_trouble(),
        claims=claims_pending(),
        corrections=corrections_pending(),
        drift=drift_alerts(),
        moved_after_publication=tournaments_moved_after_publication(),
        fide_id_conflicts=fide_id_conflicts(),
        fide_unsent=tournaments_fide_unsent()[:DESK_FIDE_UNSENT],
        decisions=decisions_waiting(),
        contents_state=contents_state() if ordered else "",
    )


def desk_counts() -> dict[str, int]:
    """How much of each kind of work waits for the officer, by name (the officers' daily
    digest, notices/digest.py, words each name): the desk's queues, counted."""
    desk = desk_for_officer()
    return {
        "reports_waiting": desk.reports_waiting.count(),
        "protests": desk.protests.count(),
        "late_registrations": desk.late_registrations.count(),
        "recalculation": desk.recalculation.count(),
        "mail_failed": desk.mail["failed"],
    }
