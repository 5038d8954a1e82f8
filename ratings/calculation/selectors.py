"""Reads of calculation runs and their drafts: progress, the review tables, a player's
calculation game by game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from core.jobs import JobStatus
from periods.models import RatingPeriod
from players.models import Player
from ratings.models import CalculationRun, DraftExcluded, DraftResult, DraftTournament
from tournaments.models import Tournament, TournamentPlayer


def run_latest(*, period: RatingPeriod) -> CalculationRun | None:
    return period.runs.order_by("-requested_at", "-id").first()


def runs_lost_recently(
    *, period: RatingPeriod, latest: CalculationRun | None
) -> list[CalculationRun]:
    """The runs that lost their worker since the last run that ended otherwise before
    `latest` (the watchdog queued each again): the period page says so, also once the run
    queued in its place has finished."""
    if latest is None:
        return []
    ended = (
        period.runs.filter(pk__lt=latest.pk)
        .exclude(status=JobStatus.LOST)
        .order_by("-id")
        .values_list("pk", flat=True)
        .first()
    ) or 0
    return list(period.runs.filter(status=JobStatus.LOST, pk__gt=ended).order_by("id"))


def run_draft(*, period: RatingPeriod) -> CalculationRun | None:
    """The run whose rows are the period's current draft: the latest succeeded one."""
    return period.runs.filter(status=JobStatus.SUCCEEDED).order_by("-finished_at", "-id").first()


def run_progress(*, run: CalculationRun | None) -> dict[str, Any]:
    if run is None:
        return {"run": None, "status": "", "progress": 0, "phase": "", "done": True}
    return {
        "run": run.pk,
        "status": run.status,
        "progress": run.progress,
        "phase": run.phase_text,
        "done": run.done,
        "error": run.error,
        "players": run.player_count,
        "games": run.game_count,
    }


def draft_changes_by_tournament(*, run: CalculationRun) -> list[dict[str, Any]]:
    """Per tournament: game lines, rated players, sum and extremes of the changes."""
    rows = list(
        DraftTournament.objects.filter(run=run)
        .order_by("tournament_id")
        .values(
            "tournament_id", "line_count", "player_count", "change_sum", "change_max", "change_min"
        )
    )
    names = dict(
        Tournament.objects.filter(id__in=[r["tournament_id"] for r in rows]).values_list(
            "id", "name"
        )
    )
    excluded = dict(
        DraftExcluded.objects.filter(run=run)
        .values("tournament_id")
        .order_by("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    return [
        {
            "tournament_id": r["tournament_id"],
            "name": names.get(r["tournament_id"], "?"),
            "lines": r["line_count"],
            "players": r["player_count"],
            "total": r["change_sum"],
            "best": r["change_max"],
            "worst": r["change_min"],
            "excluded": excluded.get(r["tournament_id"], 0),
        }
        for r in rows
    ]


def draft_status_changes(*, run: CalculationRun) -> QuerySet[DraftResult]:
    """Players whose status changes (new, out of list, inactive, active again) or who carry a
    flag (floor, inactivity, provisional, …)."""
    return (
        DraftResult.objects.filter(run=run)
        .filter(~Q(status="rated") | ~Q(flags=[]) | ~Q(previous_status=""))
        .exclude(status="unrated", previous_status="", flags=[])
        .select_related("player")
        .order_by("status", "player__surname")
    )


@dataclass(frozen=True)
class GameLine:
    tournament_id: int
    opponent: Any  # Player or None
    opponent_key: str
    opponent_rating: int | None
    score: float
    expected: float
    change: float
    k: int


def draft_player(*, run: CalculationRun, player_id: int) -> dict[str, Any]:
    """The per-player calculation table: result, game lines and the games left out."""
    result = (
        DraftResult.objects.filter(run=run, player_id=player_id).select_related("player").first()
    )
    played_in = TournamentPlayer.objects.filter(
        player_id=player_id, tournament__period_id=run.period_id
    ).values("tournament_id")
    raw = []
    for row in DraftTournament.objects.filter(run=run, tournament_id__in=played_in).order_by(
        "tournament_id"
    ):
        lines = row.decode()
        for line in lines[lines["player"] == player_id]:
            raw.append((row.tournament_id, line))
    opponents = Player.objects.in_bulk(
        [int(line["opponent"]) for _t, line in raw if line["opponent"] > 0]
    )
    lines_out = [
        GameLine(
            tournament_id=t,
            opponent=opponents.get(int(line["opponent"])),
            opponent_key=str(line["opponent"])
            if line["opponent"] > 0
            else f"tp{-int(line['opponent'])}",
            opponent_rating=None if line["opponent_rating"] < 0 else int(line["opponent_rating"]),
            score=int(line["score2"]) / 2,
            expected=round(float(line["expected"]), 4),
            change=round(float(line["change"]), 4),
            k=int(line["k"]),
        )
        for t, line in raw
    ]
    key = str(player_id)
    excluded = list(
        DraftExcluded.objects.filter(run=run).filter(white_key=key)
        | DraftExcluded.objects.filter(run=run, black_key=key)
    )
    tournaments = dict(
        Tournament.objects.filter(
            id__in={line.tournament_id for line in lines_out} | {e.tournament_id for e in excluded}
        ).values_list("id", "name")
    )
    return {"result": result, "lines": lines_out, "excluded": excluded, "tournaments": tournaments}
