"""Writes for a tournament rated in parts (the regulation's ``play.rated_in_parts``: fide-2024
4.1, fide-2000 4.11; docs/periods.md "Tournaments in parts").

The arbiter uploads the report as it stands at each closing date. Its games that no published
part holds form the current part, in the tournament's period; the games of a published part
keep its period (``Game.period``), so each game is rated once, in its own period, with that
period's list. A report changing a published part is refused for the arbiter
(``checks.part_problems``); sent by a rating officer it is a correction of that part, whose
period is marked for recalculation.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.formats import date_format

from formats.problems import Problem
from formats.reports import ParsedReport
from periods.models import PeriodStatus
from periods.services import period_mark_for_recalculation
from tournaments import checks
from tournaments.models import Report, Tournament, TournamentPart
from tournaments.part_selectors import parts_published, tournament_parts_rule

from .problems import problem_to_dict


def _officer(report: Report) -> bool:
    return bool(report.uploaded_by.has_perm("tournaments.decide_tournament", report.tournament))


def _published(part: TournamentPart, article: str) -> checks.PublishedPart:
    return checks.PublishedPart(
        number=part.number,
        period=f"{date_format(part.period.start)} – {date_format(part.period.end)}",
        article=article,
        players={int(r): (n, f) for r, n, f in part.players},
        games={(int(g[0]), int(g[1]), g[2]): g[3] for g in part.games},
    )


def part_problems_for(
    *, tournament: Tournament, parsed: ParsedReport, report: Report
) -> list[dict[str, Any]]:
    """The report against the tournament's published parts: an error per change for its
    arbiter; sent by a rating officer, one warning per part it corrects."""
    rule = tournament_parts_rule(tournament=tournament)
    if rule is None:
        return []
    parts = [_published(p, rule.article) for p in parts_published(tournament=tournament)]
    found = checks.part_problems(parts, parsed)
    waiting = _no_open_period(tournament=tournament, parsed=parsed, article=rule.article)
    out = [problem_to_dict(waiting)] if waiting is not None else []
    if not found or not _officer(report):
        return out + [problem_to_dict(p) for p in found]
    changed: dict[int, int] = {}
    for p in found:
        changed[int(str(p.params["part"]))] = changed.get(int(str(p.params["part"])), 0) + 1
    return out + [
        problem_to_dict(
            checks.check(
                "warning",
                "part_corrected",
                rule.article,
                part=part.number,
                period=part.period,
                changes=changed[part.number],
            )
        )
        for part in parts
        if part.number in changed
    ]


def _no_open_period(
    *, tournament: Tournament, parsed: ParsedReport, article: str
) -> Problem | None:
    """The tournament's period is published (its part there is locked) and no open period took
    the report (``part_period_choose``): its new games have nowhere to go yet."""
    period = tournament.period
    if period is None or period.status != PeriodStatus.PUBLISHED:
        return None
    held = {
        (int(g[0]), int(g[1]), g[2])
        for games in tournament.parts.values_list("games", flat=True)
        for g in games
    }
    if all(checks.game_key(g) in held for g in parsed.games):
        return None
    return checks.check("error", "part_no_open_period", article, end=period.end)


def parts_plan(
    *, tournament: Tournament, parsed: ParsedReport, report: Report
) -> tuple[dict[checks.GameKey, int], int | None]:
    """Record the current part of a tournament rated in parts and say where each game of the
    report goes: the period of the published part holding it, else (the default) the current
    part's period. A tournament rated whole: no plan, its games follow its period."""
    if tournament.period_id is None or tournament_parts_rule(tournament=tournament) is None:
        return {}, None
    published = parts_published(tournament=tournament)
    where: dict[checks.GameKey, int] = {}
    players = [[p.start_rank, p.name[:120], p.fide_id[:15]] for p in parsed.players if not p.dummy]
    by_key = {checks.game_key(g): g for g in parsed.games}
    for part in published:
        keys = {(int(g[0]), int(g[1]), g[2]) for g in part.games}
        games = [g for k, g in by_key.items() if k in keys]
        if _changed(part=part, players=players, games=games):
            # Only an officer's report gets here (an arbiter's is refused): a correction.
            _snapshot(part=part, players=players, games=games, report=report)
            period_mark_for_recalculation(period=part.period)
        for g in games:
            where[checks.game_key(g)] = part.period_id
    own = [g for k, g in by_key.items() if k not in where]
    # A part left in a period the tournament is no longer in (not published): gone.
    tournament.parts.exclude(period__status=PeriodStatus.PUBLISHED).exclude(
        period_id=tournament.period_id
    ).delete()
    current = tournament.parts.filter(period_id=tournament.period_id).first()
    if current is None:
        last = tournament.parts.order_by("-number").values_list("number", flat=True).first()
        current = TournamentPart(
            tournament=tournament, period_id=tournament.period_id, number=(last or 0) + 1
        )
    _snapshot(part=current, players=players, games=own, report=report)
    return where, tournament.period_id


def _rows(games: list[Any]) -> list[list[Any]]:
    return sorted(
        ([g.round, g.white_rank, g.black_rank, g.result] for g in games),
        key=lambda r: (r[0], r[1], r[2] or 0),
    )


def _changed(*, part: TournamentPart, players: list[list[Any]], games: list[Any]) -> bool:
    ranks = {int(r) for r, _n, _f in part.players}
    return [p for p in players if p[0] in ranks] != sorted(
        part.players, key=lambda p: p[0]
    ) or _rows(games) != sorted(part.games, key=lambda r: (r[0], r[1], r[2] or 0))


def _snapshot(
    *, part: TournamentPart, players: list[list[Any]], games: list[Any], report: Report
) -> None:
    part.players = players
    part.games = _rows(games)
    part.played_games = sum(1 for g in games if g.black_rank is not None and g.is_rated)
    part.last_round = max((g.round for g in games if g.round), default=None)
    part.report = report
    part.validated_at = timezone.now()
    part.save()
