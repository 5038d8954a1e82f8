"""Validation: the checks on the current report, the lines and the games written set-based."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pgtrigger
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.pg.copy import copy_in_rows
from core.tasks import task_enqueue_or_leave_on_commit
from formats.reports import ParsedReport, Problem, decode_report, parse_report
from periods.rulesets import system_ruleset_on
from players.models import Player
from players.names import fold
from tournaments import checks, selectors, signals
from tournaments.decision_selectors import long_event_authorised
from tournaments.models import (
    Game,
    GameKind,
    GameResult,
    Report,
    Tournament,
    TournamentPlayer,
    TournamentStatus,
)

from .access import LOCKED
from .decision_effects import decision_problems, games_decided_mark, overrides_apply
from .parts import part_problems_for, parts_plan
from .period_moves import tournament_period_follow
from .problems import problem_to_dict

#: Game's delete-event trigger (tournaments/models.py). A rewrite of the games from the current
#: report skips it: the report is the record of that rewrite (its insert event and SHA-256), and
#: a delete event per game at every revalidation would repeat it. Corrections are still recorded.
GAME_DELETE_EVENT = "tournaments.Game:delete_delete"

#: The columns a report's lines and games are COPYed into (the synthetic federation and the
#: benchmarks write the same).
PLAYER_COLUMNS = (
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
)
GAME_COLUMNS = (
    "tournament_id",
    "round",
    "white_id",
    "black_id",
    "result",
    "kind",
    "white_score",
    "black_score",
)


def _delete_rows(model: type[Model], **where: Any) -> None:
    """DELETE without Django's collector (the caller has deleted the dependent rows first)."""
    model._default_manager.filter(**where)._raw_delete(connection.alias)


def _games_drop(*, tournament: Tournament) -> None:
    """Delete the tournament's games before they are rewritten from its report (no delete
    events)."""
    with pgtrigger.ignore(GAME_DELETE_EVENT):
        _delete_rows(Game, tournament=tournament)


def _line_key(name: str, fide_id: str, fed_id: str) -> tuple[str, str, str]:
    return (fold(name), fide_id or "", fed_id or "")


def report_lines_write(*, tournament: Tournament, parsed: ParsedReport) -> None:
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
    copy_in_rows(TournamentPlayer._meta.db_table, PLAYER_COLUMNS, rows)


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


#: The games' columns as a report writes them: GAME_COLUMNS and whether the colours are known.
REPORT_GAME_COLUMNS = (*GAME_COLUMNS, "colours_known", "period_id")


def _write_games(
    *,
    tournament: Tournament,
    parsed: ParsedReport,
    plan: tuple[dict[checks.GameKey, int], int | None] = ({}, None),
) -> int:
    """All games in one set-based insert. A crosstable (and the crosstable form) gives neither
    rounds nor colours: its games are stored with no round and `colours_known` False, shown as
    unknown, never invented (issue 23: every game was "round 1", the row's player White).
    ``plan``: a tournament rated in parts, the period of each game's part (services.parts)."""
    _games_drop(tournament=tournament)
    where, default = plan
    ids = dict(tournament.players.values_list("start_rank", "id"))
    rows: list[tuple[Any, ...]] = []
    t = tournament.pk
    for g in parsed.games:
        white = ids.get(g.white_rank)
        if white is None:
            continue
        rnd = g.round or None  # 0: the report does not say
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
                    True,
                    where.get(checks.game_key(g), default),
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
                g.colours_known,
                where.get(checks.game_key(g), default),
            )
        )
    copy_in_rows(Game._meta.db_table, REPORT_GAME_COLUMNS, rows)
    return len(rows)


def games_below_minimum_time_mark(*, tournament: Tournament) -> int:
    """fide-2024 1.1 (``checks.games_below_minimum_time``): mark, in one statement, the played
    games with a player rated from the threshold up (the ratings of the report's lines) as left
    out of the calculation; the others are rated. Returns how many."""
    threshold = checks.per_game_minimum_time(tournament_facts(tournament))
    if threshold is None:
        return 0
    rating, article = threshold
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE tournaments_game g SET left_out_code = 'rate_of_play', left_out_article = %s
            FROM tournaments_tournamentplayer w, tournaments_tournamentplayer b
            WHERE g.tournament_id = %s AND g.kind = 'played' AND w.id = g.white_id
              AND b.id = g.black_id
              AND GREATEST(COALESCE(w.rating_at_start, 0), COALESCE(b.rating_at_start, 0)) >= %s
            """,
            [article, tournament.pk, rating],
        )
        return cursor.rowcount


class _Decimals(dict[float, Decimal]):
    def __missing__(self, key: float) -> Decimal:
        value = self[key] = Decimal(str(key))
        return value


_DEC = _Decimals()


def tournament_facts(tournament: Tournament) -> checks.TournamentFacts:
    system = tournament.rating_system
    return checks.TournamentFacts(
        # The regulation in force on its start day (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1).
        ruleset=system_ruleset_on(system=system, day=tournament.start_date).ruleset,
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
        rounds=tournament.rounds,
        cycle=system.cycle,
        kind=tournament.kind,
        thematic=tournament.thematic,
        organised_by_others=tournament.organised_by_others,
        rated_by_its_rules=tournament.rated_by_its_rules,
        long_event_authorised=long_event_authorised(tournament=tournament),
        level=tournament.level,
        chief_arbiter=_chief_arbiter(tournament),
    )


def _chief_arbiter(tournament: Tournament) -> checks.ChiefArbiter | None:
    """The registry's record of the chief arbiter, as feda-1996 1.1's check reads it."""
    record = tournament.chief_arbiter_record
    if record is None:
        return None
    return checks.ChiefArbiter(
        title=record.title, category=record.category, state=record.state, name=record.name
    )


def _parse_stored(report: Report) -> ParsedReport:
    family = {"feda": "feda", "csv": "csv", "form": "csv"}.get(report.format, "trf")
    return parse_report(
        decode_report(bytes(report.data), max_bytes=max(settings.REPORT_MAX_BYTES, report.size)),
        format=family,
    )


def _checks(
    *, tournament: Tournament, parsed: ParsedReport, ascii_players: int | None = None
) -> list[Problem]:
    received = tournament.report_received_at or timezone.now()
    return checks.tournament_checks(
        tournament_facts(tournament),
        parsed,
        received_on=timezone.localdate(received),
        registered_on=timezone.localdate(tournament.registered_at)
        if tournament.registered_at
        else timezone.localdate(),
        approved=tournament.approved_by_id is not None,
        ascii_players=ascii_players,
    )


FIDE_ID_OTHER_PLAYER = gettext_noop(
    "Player %(rank)s, %(name)s (born %(born)s): the FIDE ID %(fide_id)s belongs to the registry "
    "player %(player)s (born %(player_born)s), whose name or birth year differs. Not matched: "
    "pick the right player or create a new one on the players' page"
)


def fide_id_mismatch_problems(
    *, tournament: Tournament, parsed: ParsedReport
) -> list[dict[str, Any]]:
    """A warning per unmatched line whose FIDE ID points to a registry player with another name
    or birth year (``selectors.FIDE_ID_MISMATCH``), naming the line."""
    lines = list(tournament.players.filter(player__isnull=True))
    found = selectors.player_candidates(lines=lines) if lines else {}
    wrong = {
        rank: ids[0]
        for rank, (how, ids) in found.items()
        if how == selectors.FIDE_ID_MISMATCH and ids
    }
    if not wrong:
        return []
    players = Player.objects.in_bulk(list(wrong.values()))
    at = {p.start_rank: p.line for p in parsed.players}
    out = []
    for ln in lines:
        player = players.get(wrong.get(ln.start_rank, 0))
        if player is None:
            continue
        out.append(
            {
                "severity": "warning",
                "code": "fide_id_other_player",
                "template": FIDE_ID_OTHER_PLAYER,
                "params": {
                    "rank": ln.start_rank,
                    "name": ln.name,
                    "born": ln.birth_year or "?",
                    "fide_id": ln.fide_id,
                    "player": str(player),
                    "player_born": player.birth_year or "?",
                },
                "line": at.get(ln.start_rank),
                "column": None,
                "field": "fide_id",
                "article": "",
            }
        )
    return out


def locked_replacement_problems(
    tournament: Tournament, parsed: ParsedReport
) -> list[dict[str, Any]]:
    """The checks' problems of a report meant to replace a rated tournament's (an officer's
    correction): an error there rejects the upload instead of un-rating the tournament."""
    return [problem_to_dict(p) for p in _checks(tournament=tournament, parsed=parsed)]


def tournament_revalidate(
    *, tournament: Tournament, parsed: ParsedReport | None = None
) -> Tournament:
    """Re-run the checks on the current report; validate (and write the games) when there is no
    error and every line is matched, else drop the games and stay at "report received"."""
    report = selectors.report_current(tournament=tournament)
    if report is None:
        return tournament
    status_before = tournament.status
    with transaction.atomic():
        if parsed is None:
            parsed = _parse_stored(report)
        companion = selectors.report_feda_companion(tournament=tournament)
        ascii_players = None
        if companion is not None and companion.pk != report.pk:
            ascii_players = sum(1 for p in _parse_stored(companion).players if not p.dummy)
        found = _checks(tournament=tournament, parsed=parsed, ascii_players=ascii_players)
        report.problems = (
            [problem_to_dict(p) for p in parsed.problems]
            + [problem_to_dict(p) for p in found]
            + fide_id_mismatch_problems(tournament=tournament, parsed=parsed)
            + decision_problems(tournament=tournament, report=report)
            + part_problems_for(tournament=tournament, parsed=parsed, report=report)
        )
        overrides_apply(tournament=tournament, problems=report.problems)
        report.save(update_fields=["problems"])
        errors = any(p["severity"] == "error" for p in report.problems)
        unmatched = tournament.players.filter(player__isnull=True).exists()
        fields = ["status", "validated_at"]
        if not errors and not unmatched:
            plan = parts_plan(tournament=tournament, parsed=parsed, report=report)
            _write_games(tournament=tournament, parsed=parsed, plan=plan)
            games_below_minimum_time_mark(tournament=tournament)
            games_decided_mark(tournament=tournament)
            if tournament.status not in LOCKED:
                tournament.status = TournamentStatus.VALIDATED
                tournament.validated_at = timezone.now()
                tournament_period_follow(tournament=tournament)
        else:
            # Without games the tournament is not rated, whatever it was: a rated one goes back
            # to "report received" (its period is marked for recalculation by the upload).
            _games_drop(tournament=tournament)
            tournament.status = TournamentStatus.REPORT_RECEIVED
            tournament.validated_at = None
        tournament.save(update_fields=fields)
        if tournament.period_id is not None:
            # Its players' live ratings (docs/live-ratings.md), also when it stops counting.
            # With the broker away the validation stands; ratings.watch_live_ratings finds it.
            task_enqueue_or_leave_on_commit(
                "ratings.update_live_ratings", tournament.pk, watchdog="ratings.watch_live_ratings"
            )
        if errors or unmatched:
            _arbiter_tell(tournament=tournament, report=report, status_before=status_before)
    return tournament


def _arbiter_tell(*, tournament: Tournament, report: Report, status_before: str) -> None:
    """Signal that the report needs its arbiter (tournaments/signals.py): why, and how much."""
    errors = sum(1 for p in report.problems if p["severity"] == "error")
    if status_before in (TournamentStatus.VALIDATED, *LOCKED):
        reason = signals.RETURNED
    else:
        reason = signals.PROBLEMS if errors else signals.UNMATCHED
    signals.report_needs_arbiter.send(
        sender=Tournament,
        tournament=tournament,
        report=report,
        reason=reason,
        errors=errors,
        unmatched=tournament.players.filter(player__isnull=True).count(),
    )
