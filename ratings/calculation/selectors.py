"""Reads of calculation runs and their drafts: progress, the review tables, a player's
calculation game by game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, QuerySet

from core.jobs import ACTIVE_JOB_STATUSES, JobStatus
from periods.models import RatingPeriod
from players.models import Player
from ratings.calculation.period_games import period_games_q, period_tournaments_q
from ratings.calculation.states import RATED_TOURNAMENT_STATUSES
from ratings.models import (
    CalculationRun,
    Calibration,
    CalibrationEntry,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    PublishedList,
)
from tournaments.models import Game, GameKind, Tournament, TournamentPlayer


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


def runs_active() -> QuerySet[CalculationRun]:
    """Calculations queued or running, oldest first."""
    return CalculationRun.objects.filter(status__in=ACTIVE_JOB_STATUSES).order_by(
        "requested_at", "id"
    )


def run_draft(*, period: RatingPeriod) -> CalculationRun | None:
    """The run whose rows are the period's current draft: the latest succeeded one."""
    return period.runs.filter(status=JobStatus.SUCCEEDED).order_by("-finished_at", "-id").first()


def run_progress(*, run: CalculationRun | None) -> dict[str, Any]:
    if run is None:
        return {
            "run": None,
            "status": "",
            "status_text": "",
            "progress": 0,
            "phase": "",
            "done": True,
        }
    return {
        "run": run.pk,
        "status": run.status,
        "status_text": run.get_status_display(),
        "progress": run.progress,
        "phase": run.phase_text,
        "done": run.done,
        "error": run.error,
        "players": run.player_count,
        "games": run.game_count,
        # feda-1996 8.11: the list each tournament was rated with (empty: the period's).
        "lists_in_force": [
            {"tournament": int(t_id), "list": x.get("list"), "article": x.get("article", "")}
            for t_id, x in sorted((run.lists_in_force or {}).items(), key=lambda i: int(i[0]))
        ],
    }


def draft_changes_by_tournament(*, run: CalculationRun) -> list[dict[str, Any]]:
    """Per tournament of the run: game lines, rated players, sum and extremes of the changes,
    and the games left out. Every tournament the run took is a row, also one whose games were
    all left out (it has no lines) or that had no game to rate, so the column of games left
    out adds up to the run's count."""
    rows: dict[int, dict[str, Any]] = {
        r["tournament_id"]: dict(r)
        for r in DraftTournament.objects.filter(run=run).values(
            "tournament_id", "line_count", "player_count", "change_sum", "change_max", "change_min"
        )
    }
    in_force = run_lists_in_force(run=run)
    excluded = dict(
        DraftExcluded.objects.filter(run=run)
        .values("tournament_id")
        .order_by("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(
            Q(pk__in=set(rows) | set(excluded))
            | (
                period_tournaments_q(period_id=run.period_id)
                & Q(status__in=RATED_TOURNAMENT_STATUSES)
            )
        ).only("id", "name", "status", "end_date")
    }
    out = []
    for t_id in sorted(tournaments, key=lambda i: (tournaments[i].end_date, i)):
        r = rows.get(t_id, {})
        t = tournaments[t_id]
        out.append(
            {
                "tournament_id": t_id,
                "name": t.name,
                "status": t.get_status_display(),
                "lines": r.get("line_count", 0),
                "players": r.get("player_count", 0),
                "total": r.get("change_sum"),
                "best": r.get("change_max"),
                "worst": r.get("change_min"),
                "excluded": excluded.get(t_id, 0),
                "list_in_force": in_force.get(t_id),
            }
        )
    return out


def run_lists_in_force(*, run: CalculationRun) -> dict[int, dict[str, Any]]:
    """feda-1996 8.11: the list each tournament of the run was rated with (its list date,
    version and the article), as the run recorded it; empty when the regulation rates every
    tournament with the list in force at the period's start. ``list`` None: no list was in
    force on its start date."""
    recorded = run.lists_in_force or {}
    ids = {x["list"] for x in recorded.values() if x.get("list") is not None}
    lists = PublishedList.objects.in_bulk(ids)
    return {
        int(t_id): {
            "list": lists.get(x["list"]) if x.get("list") else None,
            "article": x["article"],
        }
        for t_id, x in recorded.items()
    }


def draft_excluded_reasons(*, run: CalculationRun) -> list[dict[str, Any]]:
    """The games left out of a run, counted by reason and article (the reason is the engine's
    English msgid, translated when shown)."""
    return list(
        DraftExcluded.objects.filter(run=run)
        .values("code", "reason", "article")
        .annotate(n=Count("id"))
        .order_by("-n", "code")
    )


def draft_status_changes(*, run: CalculationRun) -> QuerySet[DraftResult]:
    """Players whose status changes (new, out of list, inactive, active again) or who carry a
    flag (floor, inactivity, provisional, …)."""
    return (
        DraftResult.objects.filter(run=run)
        .filter(~Q(status="rated") | ~Q(flags=[]) | ~Q(previous_status=""))
        .exclude(status="unrated", previous_status="", flags=[])
        .prefetch_related("player")
        # By rating, highest first, then federation order, as the draft list: a page comes
        # from the run's rating index, with or without a status asked for, and the page's
        # players are read apart (prefetch). By status then name, each of a run's 100,000
        # drafts was joined to its player and sorted: 0.9 s (issue 29 item 4).
        .order_by(F("rating_after").desc(nulls_last=True), "player_id")
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
        period_tournaments_q(period_id=run.period_id, prefix="tournament__"),
        player_id=player_id,
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
    pooled = (
        draft_player_unrated_games(run=run, player_id=player_id)
        if result is not None and result.rating_before is None
        else []
    )
    tournaments.update(
        Tournament.objects.filter(id__in={g.tournament_id for g in pooled}).values_list(
            "id", "name"
        )
    )
    return {
        "result": result,
        "lines": lines_out,
        "excluded": excluded,
        "tournaments": tournaments,
        "pooled": pooled,
    }


@dataclass(frozen=True)
class UnratedGame:
    tournament_id: int
    round: int | None  # None: the report does not say (a crosstable)
    opponent: Any  # Player or None
    opponent_name: str
    opponent_rating: int | None  # before the period, from the run
    score: float


def draft_player_unrated_games(*, run: CalculationRun, player_id: int) -> list[UnratedGame]:
    """The games of a player without a rating before the period: they are not rated one by
    one (no change per game) but make his first rating together, so the page lists them with
    the opponents' ratings the calculation used."""
    games = (
        Game.objects.filter(
            Q(white__player_id=player_id) | Q(black__player_id=player_id),
            period_games_q(period_id=run.period_id),
            tournament__status__in=RATED_TOURNAMENT_STATUSES,
            kind=GameKind.PLAYED,
        )
        .select_related("white__player", "black__player")
        .order_by("tournament_id", "round", "id")
    )
    out: list[tuple[Game, Any, str, float]] = []
    for g in games:
        white = g.white.player_id == player_id
        opp = g.black if white else g.white
        if opp is None:
            continue
        score = float(g.white_score if white else (g.black_score or 0))
        out.append((g, opp.player, opp.name, score))
    ratings = dict(
        DraftResult.objects.filter(
            run=run, player_id__in=[o.pk for _g, o, _n, _s in out if o is not None]
        ).values_list("player_id", "rating_before")
    )
    return [
        UnratedGame(
            tournament_id=g.tournament_id,
            round=g.round,
            opponent=o,
            opponent_name=str(o) if o is not None else name,
            opponent_rating=ratings.get(o.pk) if o is not None else None,
            score=score,
        )
        for g, o, name, score in out
    ]


def run_calibration(*, run: CalculationRun | None) -> Calibration | None:
    """The run's calibration (cnxc-2000 7.3), None when its regulation has none."""
    if run is None:
        return None
    return Calibration.objects.select_related("external_list").filter(run=run).first()


def period_calibration(*, period: RatingPeriod) -> Calibration | None:
    """The calibration of the period's current draft (or of the run it was published from)."""
    return run_calibration(run=run_draft(period=period))


def calibration_entries(*, calibration: Calibration) -> QuerySet[CalibrationEntry]:
    """Its players: those in both lists first, each with his two ratings, before and after."""
    return (
        CalibrationEntry.objects.filter(calibration=calibration)
        .select_related("player")
        .order_by("-in_both_lists", "player__name_key", "player_id")
    )
