"""Reads for the rating officer: what a period contains, what closing, calculating and
publishing it will include and leave out (the officer's desk, which gathers every app's queues,
is desk/selectors.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, cast

from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from core.jobs import ACTIVE_JOB_STATUSES
from periods.models import RatingPeriod
from ratings.calculation import selectors as calculation_selectors
from ratings.calculation.period_games import period_tournaments_q
from ratings.calculation.states import RATED_TOURNAMENT_STATUSES
from ratings.models import CalculationRun, DraftResult, PublishedList
from ratings.office.counts import GameCount, review_rows_counted, tournament_game_counts
from tournaments.models import Game, Tournament, TournamentPlayer, TournamentStatus


@dataclass(frozen=True)
class TournamentLine:
    """A tournament of the period with its games counted the one way (ratings.office.counts):
    `games` are pairings of two players (byes apart, in `counts.byes`)."""

    tournament: Tournament
    counts: GameCount

    @property
    def games(self) -> int:
        return self.counts.games

    @property
    def players(self) -> int:
        return self.counts.players

    @property
    def running(self) -> bool:
        """Not over yet (its last day is today or later)."""
        return self.tournament.end_date >= timezone.localdate()


@dataclass(frozen=True)
class StatusGroup:
    status: str
    lines: list[TournamentLine]

    @property
    def label(self) -> str:
        """The status's name in the language of the page showing it (the group is cached for
        every language: never store the translated label)."""
        return str(TournamentStatus(self.status).label)

    @property
    def games(self) -> int:
        return sum(line.games for line in self.lines)

    @property
    def players(self) -> int:
        return sum(line.players for line in self.lines)


@dataclass(frozen=True)
class PeriodContents:
    """A period's tournaments grouped by status (in the order of the arbiter's flow), and
    what the calculation would take: the tournaments validated or later."""

    period: RatingPeriod
    groups: list[StatusGroup]
    included: list[TournamentLine] = field(default_factory=list)
    left_out: list[TournamentLine] = field(default_factory=list)

    @property
    def tournaments(self) -> int:
        return sum(len(g.lines) for g in self.groups)

    @property
    def games(self) -> int:
        return sum(g.games for g in self.groups)

    @property
    def included_games(self) -> int:
        return sum(line.games for line in self.included)

    @property
    def included_players(self) -> int:
        return sum(line.players for line in self.included)

    @property
    def left_out_games(self) -> int:
        return sum(line.games for line in self.left_out)

    @property
    def included_played(self) -> int:
        return sum(line.counts.played for line in self.included)

    @property
    def included_unplayed(self) -> int:
        return sum(line.counts.unplayed for line in self.included)

    @property
    def included_byes(self) -> int:
        return sum(line.counts.byes for line in self.included)

    @property
    def included_with_unrated(self) -> int:
        return sum(line.counts.with_unrated for line in self.included)

    @property
    def left_out_byes(self) -> int:
        return sum(line.counts.byes for line in self.left_out)

    @property
    def left_out_players(self) -> int:
        return sum(line.players for line in self.left_out)

    @property
    def rates_nobody(self) -> list[TournamentLine]:
        """Included tournaments that will rate nobody (issue 23): no rated player, no game
        played, or only games between unrated players (`GameCount.nobody_reason`)."""
        return [line for line in self.included if line.counts.rates_nobody]


def period_contents(*, period: RatingPeriod) -> PeriodContents:
    """Every tournament of the period with its games and players, counted the one way
    (`ratings.office.counts.tournament_game_counts`)."""
    # With the tournaments rated in parts that have a part in it (its games only).
    tournaments = list(
        Tournament.objects.filter(period_tournaments_q(period_id=period.pk))
        .distinct()
        .order_by("end_date", "name", "pk")
    )
    counts = tournament_game_counts(tournaments=tournaments, period_id=period.pk)
    by_status: dict[str, list[TournamentLine]] = {}
    for t in tournaments:
        by_status.setdefault(t.status, []).append(TournamentLine(tournament=t, counts=counts[t.pk]))
    groups = [
        StatusGroup(status=value, lines=by_status[value])
        for value in TournamentStatus.values
        if value in by_status
    ]
    included = [line for g in groups if g.status in RATED_TOURNAMENT_STATUSES for line in g.lines]
    left_out = [
        line for g in groups if g.status not in RATED_TOURNAMENT_STATUSES for line in g.lines
    ]
    return PeriodContents(period=period, groups=groups, included=included, left_out=left_out)


#: Seconds a period's contents, rendered (the desk's period cards), are kept. The key holds
#: contents_state(), which moves with every change of a tournament, report or game and every
#: publication; the time bounds what it does not see (a line matched to the registry, a list
#: import changing ratings: the "against unrated" figures).
CONTENTS_TTL = 300


def contents_state() -> str:
    """What every period's contents depend on, as one key (one statement): the newest history
    event of the tournaments, their reports and their games (every write to them records one,
    core/track.py), the newest tournament line, and the newest publication."""
    tables = [
        apps.get_model("tournaments", name)._meta.db_table
        for name in ("TournamentEvent", "ReportEvent", "GameEvent")
    ]
    quote = connection.ops.quote_name
    parts = [f"(SELECT max(pgh_id) FROM {quote(t)})" for t in tables]
    for model in (TournamentPlayer, PublishedList):
        parts.append(f"(SELECT max(id) FROM {quote(model._meta.db_table)})")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(parts)}")
        row = cursor.fetchone()
    return "-".join(str(v or 0) for v in row)


def period_contents_kept(*, period: RatingPeriod, state: str = "") -> PeriodContents:
    """``period_contents``, kept in Django's cache by ``contents_state`` (CONTENTS_TTL; pass
    it when read already): the close and calculate pages of a month of 300,000 games count
    them once, not per request."""
    key = f"period-contents:{period.pk}:{period.status}:{state or contents_state()}"
    return cast(
        PeriodContents,
        cache.get_or_set(key, lambda: period_contents(period=period), CONTENTS_TTL),
    )


def review_rows_kept(*, run: CalculationRun) -> tuple[list[dict[str, Any]], GameCount]:
    """The review's rows by tournament with their games counted (``review_rows_counted``),
    kept in Django's cache by the run and ``contents_state`` (CONTENTS_TTL)."""
    key = f"review-rows:{run.pk}:{contents_state()}"
    kept = cache.get_or_set(
        key,
        lambda: review_rows_counted(
            rows=calculation_selectors.draft_changes_by_tournament(run=run),
            period_id=run.period_id,
        ),
        CONTENTS_TTL,
    )
    return cast(tuple[list[dict[str, Any]], GameCount], kept)


@dataclass(frozen=True)
class CloseSummary:
    contents: PeriodContents
    today: dt.date
    days_early: int  # days before the closing date (0 on or after it)
    waiting: list[TournamentLine]  # report received, not validated: left out
    unreported: list[TournamentLine]  # registered, no report: left out
    running: list[TournamentLine]  # not over yet
    state: str = ""  # contents_state(): the key of the page's contents fragment


def period_close_summary(*, period: RatingPeriod, today: dt.date | None = None) -> CloseSummary:
    today = today or timezone.localdate()
    state = contents_state()
    contents = period_contents_kept(period=period, state=state)
    left = contents.left_out
    return CloseSummary(
        contents=contents,
        today=today,
        days_early=max(0, (period.closing_date - today).days),
        waiting=[x for x in left if x.tournament.status == TournamentStatus.REPORT_RECEIVED],
        unreported=[x for x in left if x.tournament.status == TournamentStatus.REGISTERED],
        running=[x for g in contents.groups for x in g.lines if x.tournament.end_date >= today],
        state=state,
    )


@dataclass(frozen=True)
class CalculateSummary:
    contents: PeriodContents
    draft: CalculationRun | None  # the draft a new calculation replaces
    active: CalculationRun | None  # a run already queued or running
    state: str = ""  # contents_state(): the key of the page's contents fragment


def period_calculate_summary(*, period: RatingPeriod) -> CalculateSummary:
    state = contents_state()
    return CalculateSummary(
        state=state,
        contents=period_contents_kept(period=period, state=state),
        draft=calculation_selectors.run_draft(period=period),
        active=period.runs.filter(status__in=ACTIVE_JOB_STATUSES).order_by("-id").first(),
    )


@dataclass(frozen=True)
class PublishSummary:
    run: CalculationRun | None
    version: int  # the version publishing makes
    players: int  # players of the draft
    changed: int  # whose rating changes
    new: int  # first rating
    status_changes: int  # status differs from the one before
    games_left_out: int
    recalculation_pending: bool  # the period is marked for recalculation after the draft


def period_publish_summary(*, period: RatingPeriod) -> PublishSummary:
    run = calculation_selectors.run_draft(period=period)
    version = (period.lists.order_by("-version").values_list("version", flat=True).first() or 0) + 1
    if run is None or run.published_list_id is not None:
        return PublishSummary(None, version, 0, 0, 0, 0, 0, period.needs_recalculation)
    counts = DraftResult.objects.filter(run=run).aggregate(
        players=Count("id"),
        changed=Count("id", filter=~Q(change=0)),
        new=Count("id", filter=Q(rating_before__isnull=True, rating_after__isnull=False)),
        status_changes=Count("id", filter=~Q(previous_status="") & ~Q(previous_status=F("status"))),
    )
    return PublishSummary(
        run=run,
        version=version,
        players=counts["players"],
        changed=counts["changed"],
        new=counts["new"],
        status_changes=counts["status_changes"],
        games_left_out=run.excluded.count(),
        recalculation_pending=period.needs_recalculation,
    )


# --------------------------------------------------------------------------- the desk


# --------------------------------------------------------------------------- games


#: The pages of a run's drafts (the draft list, the review of statuses) count their rows
#: exactly below this many expected, and show the planner's figure ("≈") above: counted
#: exactly, 91,000 of a run's 100,000 drafts took 100-180 ms (issue 29 item 4).
DRAFT_EXACT_COUNT_BELOW = 10_000

#: Games a page of the officer's correction page shows (a Swiss open of 300 players has
#: 1,350 games: on one page they took half a second to render, issue 29 item 4).
GAMES_PAGE_SIZE = 100


def tournament_games(*, tournament: Tournament) -> QuerySet[Game]:
    """A tournament's games in round order, for the officer's correction page (the names as
    reported: the registry's players are not read)."""
    return tournament.games.select_related("white", "black").order_by("round", "id")


def tournament_game_page(*, game: Game) -> int:
    """The page of the officer's correction page showing `game` (round order, GAMES_PAGE_SIZE
    a page)."""
    before = Game.objects.filter(
        Q(round__lt=game.round) | Q(round=game.round, id__lt=game.pk),
        tournament_id=game.tournament_id,
    ).count()
    return before // GAMES_PAGE_SIZE + 1


def tournament_player_count(*, tournament: Tournament) -> int:
    return TournamentPlayer.objects.filter(tournament=tournament).count()
