"""Reads of live ratings: a player's provisional figures in the periods not yet published, per
tournament, and his live calculation game by game (the shape of a list's calculation page)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from periods.models import PeriodStatus, RatingPeriod
from players.models import Player
from ratings.calculation.selectors import GameLine
from ratings.models import LiveRating
from tournaments.models import Tournament


@dataclass(frozen=True)
class LiveTournament:
    """His games of one tournament in a live figure: counted, score, change before rounding."""

    tournament_id: int
    name: str
    games: int
    score: float
    change: float


@dataclass(frozen=True)
class LiveFigure:
    """A player's live rating in one period: the stored row and its tournaments."""

    live: LiveRating
    tournaments: list[LiveTournament] = field(default_factory=list)


def live_query(*, player_id: int) -> Any:
    """His live ratings of the periods not yet published (a list published makes them the
    list's: its own calculation is shown from then on)."""
    return (
        LiveRating.objects.filter(player_id=player_id)
        .exclude(period__status=PeriodStatus.PUBLISHED)
        .select_related("period", "system")
        .order_by("system__name", "period__start")
    )


def player_live(*, player_id: int) -> dict[int, LiveFigure]:
    """His live figure in each rating system (the earliest unpublished period with one), with
    the tournaments it counts."""
    rows: dict[int, LiveRating] = {}
    for row in live_query(player_id=player_id):
        rows.setdefault(row.system_id, row)
    names = dict(
        Tournament.objects.filter(
            pk__in={t for r in rows.values() for t in r.tournaments}
        ).values_list("id", "name")
    )
    return {
        system_id: LiveFigure(row, live_tournaments(live=row, names=names))
        for system_id, row in rows.items()
    }


def live_tournaments(*, live: LiveRating, names: dict[int, str]) -> list[LiveTournament]:
    """The tournaments of a live figure in their order in the period, with his counted games
    (a tournament whose games all were left out shows none)."""
    acc: dict[int, list[float]] = {t: [0, 0.0, 0.0] for t in live.tournaments}
    for line in live.lines:
        a = acc.setdefault(int(line["tournament"]), [0, 0.0, 0.0])
        a[0] += 1
        a[1] += int(line["score2"]) / 2
        a[2] += float(line["change"])
    return [
        LiveTournament(t, names.get(t, "?"), int(a[0]), a[1], round(a[2], 2))
        for t, a in acc.items()
    ]


@dataclass(frozen=True)
class LiveCalculation:
    """A live figure game by game, in the shape the calculation page reads (result, lines by
    tournament, the games left out)."""

    result: LiveRating | None
    lines: list[GameLine]
    excluded: list[dict[str, Any]]
    tournaments: dict[int, str]

    @property
    def by_tournament(self) -> list[tuple[int, str, list[GameLine]]]:
        out: dict[int, list[GameLine]] = {}
        for line in self.lines:
            out.setdefault(line.tournament_id, []).append(line)
        return [(tid, self.tournaments.get(tid, "?"), lines) for tid, lines in out.items()]


def live_calculation(*, player: Player, period: RatingPeriod) -> LiveCalculation:
    """His live figure of `period`, game by game (the lines as the draft packs them)."""
    live = LiveRating.objects.filter(player=player, period=period).first()
    if live is None:
        return LiveCalculation(None, [], [], {})
    opponents = Player.objects.in_bulk([g["opponent"] for g in live.lines if g["opponent"] > 0])
    lines = [
        GameLine(
            tournament_id=int(g["tournament"]),
            opponent=opponents.get(g["opponent"]),
            opponent_key=str(g["opponent"]) if g["opponent"] > 0 else f"tp{-g['opponent']}",
            opponent_rating=g["opponent_rating"],
            score=int(g["score2"]) / 2,
            expected=round(float(g["expected"]), 4),
            change=round(float(g["change"]), 4),
            k=int(g["k"]),
        )
        for g in live.lines
    ]
    excluded = [{**e, "tournament_id": e["tournament"]} for e in live.excluded]
    names = dict(
        Tournament.objects.filter(
            pk__in=set(live.tournaments) | {e["tournament"] for e in live.excluded}
        ).values_list("id", "name")
    )
    return LiveCalculation(live, lines, excluded, names)
