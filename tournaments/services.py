"""Writes for the arbiter's flow: registration, uploads, matching, validation.

Decisions (docs/arbiters.md):
- An upload whose bytes cannot be read, whose content does not match its declared format or
  whose parser finds an error is *rejected*: one Report row (status rejected, the problems) and
  nothing else.
- An accepted upload supersedes the previous accepted report of the same kind (the FEDA ASCII
  file of feda-1996 10.31 is a companion of the TRF/CSV report, not a replacement), and its
  lines are written in the same transaction, matched to the registry where the match is sure.
- "Validated" = the current report and the regulation checks have no error AND every line is
  matched to a registry player. Only then are the games written (set-based).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from decimal import Decimal
from typing import Any

import pgtrigger
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Max, Model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import Refused
from periods import selectors as period_selectors
from periods.models import RatingPeriod, RatingSystem
from players.models import Player, Title
from players.names import fold
from tournaments import checks, selectors
from tournaments.models import (
    Game,
    GameKind,
    GameResult,
    Report,
    ReportFormat,
    ReportStatus,
    Tournament,
    TournamentPlayer,
    TournamentStatus,
)
from tournaments.reports import (
    ParsedReport,
    Problem,
    ReportDecodeError,
    decode_report,
    parse_report,
)
from tournaments.rules import RATED_STATUSES

LOCKED = RATED_STATUSES  # only an officer changes these tournaments' reports (submit_report)
_FAMILY_BY_EXT = {
    "trf": "trf",
    "txt": "trf",
    "trfx": "trf",
    "csv": "csv",
    "asc": "feda",
    "ascii": "feda",
    "feda": "feda",
}
#: Game's delete-event trigger (tournaments/models.py). A rewrite of the games from the current
#: report skips it: the report is the record of that rewrite (its insert event and SHA-256), and
#: a delete event per game at every revalidation would repeat it. Corrections are still recorded.
GAME_DELETE_EVENT = "tournaments.Game:delete_delete"
TOO_LARGE = gettext_noop("The file is %(size)s bytes; the limit is %(limit)s bytes")
NOT_ALLOWED = gettext_noop("The tournament is rated: only a rating officer can change its report")


class ReportLocked(PermissionDenied):
    pass


# --------------------------------------------------------------------------- problems as JSON


def _jsonable(value: object) -> object:
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)


def problem_to_dict(p: Problem) -> dict[str, Any]:
    params = {k: _jsonable(v) for k, v in dict(p.params).items()}
    return {
        "severity": p.severity,
        "code": p.code,
        "template": p.template,
        "params": params,
        "line": p.line,
        "column": p.column,
        "field": p.field,
        "article": params.get("article", ""),
    }


def _plain_problem(code: str, template: str, **params: object) -> dict[str, Any]:
    return {
        "severity": "error",
        "code": code,
        "template": template,
        "params": {k: _jsonable(v) for k, v in params.items()},
        "line": None,
        "column": None,
        "field": "",
        "article": "",
    }


# --------------------------------------------------------------------------- set-based writes


def _insert_rows(model: type[Model], columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert many rows set-based, by COPY (typed rows: psycopg adapts each value)."""
    if not rows:
        return
    table = model._meta.db_table
    qn = connection.ops.quote_name
    cols = ", ".join(qn(c) for c in columns)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg 3
        with raw.copy(f"COPY {qn(table)} ({cols}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _delete_rows(model: type[Model], **where: Any) -> None:
    """DELETE without Django's collector (the caller has deleted the dependent rows first)."""
    model._default_manager.filter(**where)._raw_delete(connection.alias)


def _games_drop(*, tournament: Tournament) -> None:
    """Delete the tournament's games before they are rewritten from its report (no delete
    events)."""
    with pgtrigger.ignore(GAME_DELETE_EVENT):
        _delete_rows(Game, tournament=tournament)


# --------------------------------------------------------------------------- registration


def tournament_register(
    *,
    arbiter: Any,
    data: dict[str, Any],
    top_rating: int | None = None,
    top_woman_rating: int | None = None,
    today: dt.date | None = None,
) -> Tournament:
    """Register a tournament; a registration later than the regulation's deadline waits for an
    officer's approval (fide-2024 0.2; elsewhere RatingSystem.registration_days)."""
    today = today or timezone.localdate()
    system: RatingSystem = data["rating_system"]
    required, _article = checks.registration_days_required(
        ruleset=system.ruleset,
        default_days=system.registration_days,
        top_rating=top_rating,
        top_woman_rating=top_woman_rating,
    )
    tournament = Tournament(arbiter=arbiter, **data)
    tournament.late_registration = (tournament.start_date - today).days < required
    tournament.full_clean(exclude=["arbiter"])
    tournament.period = period_selectors.period_for_tournament(tournament=tournament).period
    tournament.save()
    return tournament


def tournament_approve_late(*, tournament: Tournament, officer: Any) -> Tournament:
    if not officer.has_perm("tournaments.approve_registration", tournament):
        raise PermissionDenied(_("Only a rating officer can approve a late registration."))
    tournament.approved_by = officer
    tournament.approved_at = timezone.now()
    tournament.save(update_fields=["approved_by", "approved_at"])
    if selectors.report_current(tournament=tournament):
        tournament_revalidate(tournament=tournament)
    return tournament


# --------------------------------------------------------------------------- uploads


def _family(*, filename: str, declared: str | None) -> str | None:
    if declared and declared not in ("", "auto", "form"):
        return {"trf16": "trf", "trf26": "trf"}.get(declared, declared)
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return _FAMILY_BY_EXT.get(ext)


def _next_submission(tournament: Tournament) -> int:
    last = tournament.reports.aggregate(m=Max("submission"))["m"]
    return (last or 0) + 1


def _check_allowed(*, tournament: Tournament, user: Any) -> None:
    """The rule tournaments.submit_report; a rated tournament's refusal says why."""
    if not user.has_perm("tournaments.submit_report", tournament):
        if tournament.status in LOCKED:
            raise ReportLocked(_(NOT_ALLOWED))
        raise PermissionDenied


def report_reject_oversize(
    *, tournament: Tournament, user: Any, filename: str, size: int
) -> Report:
    """Refused before reading or parsing: only the rejection record (without the bytes)."""
    _check_allowed(tournament=tournament, user=user)
    limit = settings.REPORT_MAX_BYTES
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        return Report.objects.create(
            tournament=tournament,
            submission=_next_submission(tournament),
            filename=filename[:255],
            format=ReportFormat.CSV if filename.lower().endswith(".csv") else ReportFormat.TRF16,
            data=b"",
            sha256="",
            size=size,
            status=ReportStatus.REJECTED,
            uploaded_by=user,
            problems=[_plain_problem("too_large", TOO_LARGE, size=size, limit=limit)],
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
    _check_allowed(tournament=tournament, user=user)
    if len(data) > settings.REPORT_MAX_BYTES:
        return report_reject_oversize(
            tournament=tournament, user=user, filename=filename, size=len(data)
        )
    sha = hashlib.sha256(data).hexdigest()
    family = _family(filename=filename, declared=declared_format)
    problems: list[dict[str, Any]] = []
    parsed: ParsedReport | None = None
    try:
        text = decode_report(data, max_bytes=settings.REPORT_MAX_BYTES)
    except ReportDecodeError as exc:
        problems = [
            {
                **_plain_problem(exc.code, exc.template, **exc.params),
                "line": exc.line,
                "column": exc.column,
            }
        ]
    else:
        parsed = parse_report(text, format=family)
        problems = [problem_to_dict(p) for p in parsed.problems]
    fmt = ReportFormat.FORM if form else _report_format(parsed, family)
    rejected = parsed is None or not parsed.ok
    with transaction.atomic():
        # One upload at a time per tournament (the submission number is unique).
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        report = Report(
            tournament=locked,
            submission=_next_submission(locked),
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
            return report
        assert parsed is not None
        current = selectors.report_current(tournament=locked)
        # The FEDA ASCII file (feda-1996 10.31) accompanies a TRF/CSV report; alone, it is the
        # report.
        companion = (
            fmt == ReportFormat.FEDA and current is not None and current.format != ReportFormat.FEDA
        )
        accepted = locked.reports.filter(status=ReportStatus.ACCEPTED)
        same_kind = (
            accepted.filter(format=ReportFormat.FEDA)
            if fmt == ReportFormat.FEDA
            else accepted.exclude(format=ReportFormat.FEDA)
        )
        same_kind.update(status=ReportStatus.SUPERSEDED)
        report.save()
        if not companion:
            _write_lines(tournament=locked, parsed=parsed)
        was_locked = locked.status in LOCKED
        now = timezone.now()
        locked.report_received_at = now
        if locked.status == TournamentStatus.REGISTERED:
            locked.status = TournamentStatus.REPORT_RECEIVED
        if not was_locked:
            assignment = period_selectors.period_for_tournament(tournament=locked)
            if assignment.period is not None:
                locked.period = assignment.period
        locked.save(update_fields=["report_received_at", "status", "period"])
        if was_locked and locked.period_id:
            # A change after rating: the period must be recalculated.
            RatingPeriod.objects.filter(pk=locked.period_id).update(needs_recalculation=True)
        tournament_revalidate(tournament=locked, parsed=None if companion else parsed)
        tournament.refresh_from_db()
        report.refresh_from_db()
        return report


def _report_format(parsed: ParsedReport | None, family: str | None) -> str:
    if (
        parsed is not None
        and parsed.header.format in ReportFormat.values
        and (parsed.players or family is None)
    ):
        return parsed.header.format
    return {"trf": ReportFormat.TRF16, "csv": ReportFormat.CSV, "feda": ReportFormat.FEDA}.get(
        family or "", ReportFormat.TRF16
    )


def _line_key(name: str, fide_id: str, fed_id: str) -> tuple[str, str, str]:
    return (fold(name), fide_id or "", fed_id or "")


def _write_lines(*, tournament: Tournament, parsed: ParsedReport) -> None:
    """Replace the tournament's lines by the report's (set-based), keeping earlier picks."""
    previous = {
        _line_key(n, f, d): pid
        for n, f, d, pid in tournament.players.filter(player__isnull=False).values_list(
            "name", "fide_id", "fed_id", "player_id"
        )
    }
    _games_drop(tournament=tournament)
    _delete_rows(TournamentPlayer, tournament=tournament)
    lines = []
    for p in parsed.players:
        if p.dummy:
            continue
        lines.append(
            selectors.ReportLine(
                start_rank=p.start_rank,
                name=p.name[:120],
                fide_id=p.fide_id[:15],
                fed_id=p.national_id[:16],
                birth_year=p.birth_year or (p.birth_date.year if p.birth_date else None),
            )
        )
    found = selectors.player_candidates(lines=lines)
    by_rank = {p.start_rank: p for p in parsed.players}
    rows = []
    for ln in lines:
        p = by_rank[ln.start_rank]
        how, cands = found.get(ln.start_rank, ("", []))
        player_id = (
            cands[0]
            if how in selectors.SURE_MATCHES and len(cands) == 1
            else previous.get(_line_key(ln.name, ln.fide_id, ln.fed_id))
        )
        rating = p.rating if p.rating is not None and 0 < p.rating <= 3500 else None
        rows.append(
            (
                tournament.pk,
                player_id,
                ln.start_rank,
                ln.name,
                {"m": "M", "w": "F"}.get(p.sex, ""),
                p.title[:4],
                ln.fide_id,
                ln.fed_id,
                p.federation[:3],
                ln.birth_year,
                rating,
                Decimal(str(p.declared_points)) if p.declared_points is not None else None,
            )
        )
    _insert_rows(
        TournamentPlayer,
        [
            "tournament_id",
            "player_id",
            "start_rank",
            "name",
            "sex",
            "title",
            "fide_id",
            "fed_id",
            "federation",
            "birth_year",
            "rating_at_start",
            "declared_points",
        ],
        rows,
    )


_RESULT = {
    "1": (GameResult.WHITE_WINS, GameKind.PLAYED),
    "0": (GameResult.BLACK_WINS, GameKind.PLAYED),
    "=": (GameResult.DRAW, GameKind.PLAYED),
    "+": (GameResult.WHITE_FORFEIT_WIN, GameKind.FORFEIT),
    "-": (GameResult.BLACK_FORFEIT_WIN, GameKind.FORFEIT),
    "W": (GameResult.WHITE_WINS, GameKind.SHORT),
    "L": (GameResult.BLACK_WINS, GameKind.SHORT),
    "D": (GameResult.DRAW, GameKind.SHORT),
}
_BYE = {
    "bye_half": GameKind.BYE_HALF,
    "bye_full": GameKind.BYE_FULL,
    "bye_pab": GameKind.BYE_PAB,
    "bye_zero": GameKind.BYE_ZERO,
    "absent": GameKind.BYE_ZERO,
}


def _write_games(*, tournament: Tournament, parsed: ParsedReport) -> int:
    """All games in one set-based insert. Crosstables have no rounds: the k-th game of a pair is
    round k."""
    _games_drop(tournament=tournament)
    ids = dict(tournament.players.values_list("start_rank", "id"))
    seen: Counter[tuple[int, int]] = Counter()
    rows: list[tuple[Any, ...]] = []
    t = tournament.pk
    for g in parsed.games:
        white = ids.get(g.white_rank)
        if white is None:
            continue
        rnd = g.round
        if rnd == 0:
            pair = (min(g.white_rank, g.black_rank or 0), max(g.white_rank, g.black_rank or 0))
            seen[pair] += 1
            rnd = seen[pair]
        if g.black_rank is None:
            rows.append(
                (
                    t,
                    rnd,
                    white,
                    None,
                    GameResult.BYE.value,
                    _BYE.get(g.kind, GameKind.BYE_ZERO).value,
                    _DEC[g.white_score],
                    None,
                )
            )
            continue
        black = ids.get(g.black_rank)
        if black is None:
            continue
        result, kind = _RESULT.get(g.result, (GameResult.DRAW, GameKind.PLAYED))
        if g.result == "-" and (g.black_score or 0) == 0:
            result = GameResult.DOUBLE_FORFEIT
        rows.append(
            (
                t,
                rnd,
                white,
                black,
                result.value,
                kind.value,
                _DEC[g.white_score],
                _DEC[g.black_score if g.black_score is not None else 0.0],
            )
        )
    _insert_rows(
        Game,
        [
            "tournament_id",
            "round",
            "white_id",
            "black_id",
            "result",
            "kind",
            "white_score",
            "black_score",
        ],
        rows,
    )
    return len(rows)


class _Decimals(dict[float, Decimal]):
    def __missing__(self, key: float) -> Decimal:
        value = self[key] = Decimal(str(key))
        return value


_DEC = _Decimals()


def _facts(tournament: Tournament) -> checks.TournamentFacts:
    system = tournament.rating_system
    return checks.TournamentFacts(
        ruleset=system.ruleset,
        rate_of_play=system.rate_of_play,
        pairing_system=tournament.system,
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        minutes_for_60_moves=tournament.minutes_for_60_moves,
        moves_per_control=tournament.moves_per_control,
        base_minutes=tournament.base_minutes,
        increment_seconds=tournament.increment_seconds,
        national_championship=tournament.national_championship,
        registration_days=system.registration_days,
        cycle=system.cycle,
    )


def _parse_stored(report: Report) -> ParsedReport:
    family = {"feda": "feda", "csv": "csv", "form": "csv"}.get(report.format, "trf")
    return parse_report(
        decode_report(bytes(report.data), max_bytes=max(settings.REPORT_MAX_BYTES, report.size)),
        format=family,
    )


def tournament_revalidate(
    *, tournament: Tournament, parsed: ParsedReport | None = None
) -> Tournament:
    """Re-run the checks on the current report; validate (and write the games) when there is no
    error and every line is matched, else drop the games and stay at "report received"."""
    report = selectors.report_current(tournament=tournament)
    if report is None:
        return tournament
    with transaction.atomic():
        if parsed is None:
            parsed = _parse_stored(report)
        companion = selectors.report_feda_companion(tournament=tournament)
        ascii_players = None
        if companion is not None and companion.pk != report.pk:
            ascii_players = sum(1 for p in _parse_stored(companion).players if not p.dummy)
        received = tournament.report_received_at or timezone.now()
        found = checks.tournament_checks(
            _facts(tournament),
            parsed,
            received_on=timezone.localdate(received),
            registered_on=timezone.localdate(tournament.registered_at)
            if tournament.registered_at
            else timezone.localdate(),
            approved=tournament.approved_by_id is not None,
            ascii_players=ascii_players,
        )
        report.problems = [problem_to_dict(p) for p in parsed.problems] + [
            problem_to_dict(p) for p in found
        ]
        report.save(update_fields=["problems"])
        errors = any(p["severity"] == "error" for p in report.problems)
        unmatched = tournament.players.filter(player__isnull=True).exists()
        fields = ["status", "validated_at"]
        if not errors and not unmatched:
            _write_games(tournament=tournament, parsed=parsed)
            if tournament.status not in LOCKED:
                tournament.status = TournamentStatus.VALIDATED
                tournament.validated_at = timezone.now()
        else:
            _games_drop(tournament=tournament)
            if tournament.status not in LOCKED:
                tournament.status = TournamentStatus.REPORT_RECEIVED
                tournament.validated_at = None
        tournament.save(update_fields=fields)
    return tournament


# --------------------------------------------------------------------------- matching


def _split(name: str) -> tuple[str, str]:
    if "," in name:
        s, g = name.split(",", 1)
        return s.strip(), g.strip()
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name.strip(), "-")


def players_confirm(
    *,
    tournament: Tournament,
    user: Any,
    picks: dict[int, str],
    new_fed_ids: dict[int, str] | None = None,
) -> dict[str, int]:
    """Apply the review screen: rank → "<player id>" (pick) or "new" (create from the line).

    New players are created here and only here; then the tournament is revalidated.
    """
    _check_allowed(tournament=tournament, user=user)
    new_fed_ids = new_fed_ids or {}
    with transaction.atomic():
        lines = {ln.start_rank: ln for ln in tournament.players.select_for_update()}
        wanted = {int(v) for v in picks.values() if v and v.isdigit()}
        valid = set(Player.objects.filter(pk__in=wanted).values_list("pk", flat=True))
        picked = created = 0
        for rank, choice in picks.items():
            line = lines.get(rank)
            if line is None or not choice:
                continue
            if choice == "new":
                surname, given = _split(line.name)
                fed_id = (new_fed_ids.get(rank) or line.fed_id or f"T{tournament.pk}-{rank}")[:16]
                player = Player(
                    fed_id=fed_id,
                    surname=surname[:120],
                    given_name=(given or "-")[:120],
                    sex=line.sex or "M",
                    birth_year=line.birth_year,
                    federation=line.federation or "ESP",
                    fide_id=selectors.fide_id_int(line.fide_id),
                    title=line.title if line.title in dict(Title.choices) else "",
                )
                player.full_clean(validate_unique=True)
                player.save()
                line.player = player
                created += 1
            elif choice.isdigit() and int(choice) in valid:
                line.player_id = int(choice)
                picked += 1
            else:
                continue
            line.save(update_fields=["player"])
        tournament_revalidate(tournament=tournament)
    return {"picked": picked, "created": created}


# --------------------------------------------------------------------------- crosstable form


def crosstable_form_to_csv(*, rows: list[dict[str, Any]], cells: dict[tuple[int, int], str]) -> str:
    """The browser form, written as the CSV crosstable, so it goes through the same parser and
    gives the same messages (docs/reports.md)."""
    n = len(rows)
    out = [
        ",".join(["No", "Name", "FIDE ID", "Fed ID", "Rating"] + [str(i) for i in range(1, n + 1)])
    ]
    for i, row in enumerate(rows, start=1):
        name = str(row.get("name", "")).replace('"', "'")
        values = [
            str(i),
            f'"{name}"',
            str(row.get("fide_id") or ""),
            str(row.get("fed_id") or ""),
            str(row.get("rating") or ""),
        ]
        values += ["x" if i == j else cells.get((i, j), "").strip() for j in range(1, n + 1)]
        out.append(",".join(values))
    return "\n".join(out) + "\n"


def tournament_assign_period(
    *, tournament: Tournament, received_on: dt.date | None = None
) -> period_selectors.Assignment:
    """Put a tournament in the period its regulation assigns; refuse a too-late report.
    Late reports go to a later list, so nothing already rated is re-rated."""
    assignment = period_selectors.period_for_tournament(
        tournament=tournament, received_on=received_on
    )
    if assignment.period is None:
        raise Refused(assignment.reason)
    tournament.period = assignment.period
    tournament.save(update_fields=["period"])
    return assignment
