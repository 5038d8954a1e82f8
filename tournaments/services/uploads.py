"""Uploads: store the bytes with their SHA-256, parse, reject or accept and write the lines."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_noop

from formats.reports import ParsedReport, ReportDecodeError, decode_report, parse_report
from periods import selectors as period_selectors
from periods.models import RatingPeriod
from tournaments import selectors, signals
from tournaments.models import Report, ReportFormat, ReportStatus, Tournament, TournamentStatus
from tournaments.officials.matching import chief_arbiter_link
from tournaments.part_selectors import (
    part_period_choose,
    tournament_awaits_part,
    tournament_parts_rule,
)

from .access import LOCKED, report_change_authorize
from .problems import problem_plain, problem_to_dict
from .validation import locked_replacement_problems, report_lines_write, tournament_revalidate

_FAMILY_BY_EXT = {
    "trf": "trf",
    "txt": "trf",
    "trfx": "trf",
    "csv": "csv",
    "asc": "feda",
    "ascii": "feda",
    "feda": "feda",
}
TOO_LARGE = gettext_noop("The file is %(size)s bytes; the limit is %(limit)s bytes")


def _family(*, filename: str, declared: str | None) -> str | None:
    if declared and declared not in ("", "auto", "form"):
        return {"trf16": "trf", "trf26": "trf"}.get(declared, declared)
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return _FAMILY_BY_EXT.get(ext)


def _next_submission(*, tournament: Tournament) -> int:
    last = tournament.reports.aggregate(m=Max("submission"))["m"]
    return (last or 0) + 1


def rejected_bytes_drop(*, tournament: Tournament) -> int:
    """The quota of rejected uploads: the bytes of the newest REPORT_REJECTED_KEEP rejected
    reports of the tournament are kept, older rejected reports keep their record (file name,
    size, SHA-256, problems) with the bytes dropped. One UPDATE; returns how many it emptied.
    Accepted and superseded reports are never touched."""
    holding = Report.objects.filter(tournament=tournament, status=ReportStatus.REJECTED).exclude(
        data=b""
    )
    beyond = holding.order_by("-submission").values("pk")[settings.REPORT_REJECTED_KEEP :]
    return Report.objects.filter(pk__in=beyond).update(data=b"")


def report_reject_oversize(
    *, tournament: Tournament, user: Any, filename: str, size: int
) -> Report:
    """Refused before reading or parsing: only the rejection record (without the bytes)."""
    report_change_authorize(tournament=tournament, user=user)
    limit = settings.REPORT_MAX_BYTES
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        report = Report.objects.create(
            tournament=tournament,
            submission=_next_submission(tournament=tournament),
            filename=filename[:255],
            format=ReportFormat.CSV if filename.lower().endswith(".csv") else ReportFormat.TRF16,
            data=b"",
            sha256="",
            size=size,
            status=ReportStatus.REJECTED,
            uploaded_by=user,
            problems=[problem_plain("too_large", TOO_LARGE, size=size, limit=limit)],
        )
        _rejected_tell(tournament=tournament, report=report)
        return report


def _rejected_tell(*, tournament: Tournament, report: Report) -> None:
    """Signal that the upload was rejected (tournaments/signals.py)."""
    signals.report_needs_arbiter.send(
        sender=Tournament,
        tournament=tournament,
        report=report,
        reason=signals.REJECTED,
        errors=sum(1 for p in report.problems if p.get("severity", "error") == "error"),
        unmatched=0,
    )


def report_upload(
    *,
    tournament: Tournament,
    user: Any,
    data: bytes,
    filename: str = "",
    declared_format: str | None = None,
    form: bool = False,
) -> Report:
    """Store the bytes with their SHA-256, parse, check and (if accepted) write the lines.

    Returns the Report: ``status`` rejected (with its problems) or accepted.
    """
    report_change_authorize(tournament=tournament, user=user)
    if len(data) > settings.REPORT_MAX_BYTES:
        return report_reject_oversize(
            tournament=tournament, user=user, filename=filename, size=len(data)
        )
    sha = hashlib.sha256(data).hexdigest()
    family = _family(filename=filename, declared=declared_format)
    parsed, problems = _report_parse(data=data, family=family)
    fmt = ReportFormat.FORM if form else _report_format(parsed=parsed, family=family)
    rejected, problems = _replacement_check(tournament=tournament, parsed=parsed, problems=problems)
    with transaction.atomic():
        # One upload at a time per tournament (the submission number is unique).
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        report = Report(
            tournament=locked,
            submission=_next_submission(tournament=locked),
            filename=filename[:255],
            format=fmt,
            data=data,
            sha256=sha,
            size=len(data),
            uploaded_by=user,
            status=ReportStatus.REJECTED if rejected else ReportStatus.ACCEPTED,
            problems=problems,
        )
        if rejected:
            report.save()
            rejected_bytes_drop(tournament=locked)
            _rejected_tell(tournament=locked, report=report)
            return report
        assert parsed is not None
        companion = _report_accept(report=report, tournament=locked, parsed=parsed, fmt=fmt)
        # The report's chief arbiter (TRF line 102) named from the registry when the
        # tournament names none yet (by FIDE ID, else name): feda-1996 1.1's check reads it.
        chief_arbiter_link(tournament=locked, header=parsed.header.chief_arbiter)
        _tournament_report_received(tournament=locked)
        tournament_revalidate(tournament=locked, parsed=None if companion else parsed)
        tournament.refresh_from_db()
        report.refresh_from_db()
        return report


def _report_parse(
    *, data: bytes, family: str | None
) -> tuple[ParsedReport | None, list[dict[str, Any]]]:
    """The parsed report (none when the bytes do not decode) and its problems."""
    problems: list[dict[str, Any]] = []
    parsed: ParsedReport | None = None
    try:
        text = decode_report(data, max_bytes=settings.REPORT_MAX_BYTES)
    except ReportDecodeError as exc:
        problems = [
            {
                **problem_plain(exc.code, exc.template, **exc.params),
                "line": exc.line,
                "column": exc.column,
            }
        ]
    else:
        parsed = parse_report(text, format=family)
        problems = [problem_to_dict(p) for p in parsed.problems]
    return parsed, problems


def _replacement_check(
    *, tournament: Tournament, parsed: ParsedReport | None, problems: list[dict[str, Any]]
) -> tuple[bool, list[dict[str, Any]]]:
    """Whether the report is rejected, and its problems with those of the replacement checks."""
    rejected = parsed is None or not parsed.ok
    if (
        not rejected
        and tournament.status in LOCKED
        and not tournament_awaits_part(tournament=tournament)
    ):
        # A rated tournament's report is replaced (by an officer) only by one the checks pass:
        # a blocking error rejects it, the report in force stays and so does the status.
        assert parsed is not None
        found = locked_replacement_problems(tournament, parsed)
        if any(p["severity"] == "error" for p in found):
            problems = problems + found
            rejected = True
    return rejected, problems


def _report_accept(
    *, report: Report, tournament: Tournament, parsed: ParsedReport, fmt: str
) -> bool:
    """The accepted report supersedes the one of its kind and its lines are written (not those
    of a FEDA ASCII companion). Returns whether it is such a companion."""
    current = selectors.report_current(tournament=tournament)
    # The FEDA ASCII file (feda-1996 10.31) accompanies a TRF/CSV report; alone, it is the
    # report.
    companion = (
        fmt == ReportFormat.FEDA and current is not None and current.format != ReportFormat.FEDA
    )
    accepted = tournament.reports.filter(status=ReportStatus.ACCEPTED)
    same_kind = (
        accepted.filter(format=ReportFormat.FEDA)
        if fmt == ReportFormat.FEDA
        else accepted.exclude(format=ReportFormat.FEDA)
    )
    same_kind.update(status=ReportStatus.SUPERSEDED)
    report.byes = sum(1 for g in parsed.games if g.black_rank is None)
    report.paired_games = len(parsed.games) - report.byes
    report.save()
    if not companion:
        report_lines_write(tournament=tournament, parsed=parsed)
    return companion


def _tournament_report_received(*, tournament: Tournament) -> None:
    """The tournament has received its report (and its period, unless rated); a change after
    rating marks the period for recalculation. A tournament rated in parts whose current part
    is published receives its next part: it goes to the next period, not a correction."""
    if tournament_awaits_part(tournament=tournament):
        tournament.status = TournamentStatus.REPORT_RECEIVED
    was_locked = tournament.status in LOCKED
    now = timezone.now()
    tournament.report_received_at = now
    if tournament.status == TournamentStatus.REGISTERED:
        tournament.status = TournamentStatus.REPORT_RECEIVED
    if not was_locked and tournament_parts_rule(tournament=tournament) is not None:
        # fide-2024 4.1, fide-2000 4.11: the report as it stands goes to the period whose
        # closing date it meets (docs/periods.md "Tournaments in parts").
        period = part_period_choose(tournament=tournament, received_on=timezone.localdate(now))
        if period is not None:
            tournament.period = period
    elif not was_locked:
        assignment = period_selectors.period_for_tournament(tournament=tournament)
        if assignment.period is not None:
            tournament.period = assignment.period
    tournament.save(update_fields=["report_received_at", "status", "period"])
    if was_locked and tournament.period_id:
        # A change after rating: the period must be recalculated.
        RatingPeriod.objects.filter(pk=tournament.period_id).update(needs_recalculation=True)


def _report_format(*, parsed: ParsedReport | None, family: str | None) -> str:
    if (
        parsed is not None
        and parsed.header.format in ReportFormat.values
        and (parsed.players or family is None)
    ):
        return parsed.header.format
    return {"trf": ReportFormat.TRF16, "csv": ReportFormat.CSV, "feda": ReportFormat.FEDA}.get(
        family or "", ReportFormat.TRF16
    )
