"""Live ratings: each player's pending change in the open period, computed by the period's own
calculation (ratings.calculation.engine_path and states: the same inputs, the same regulation,
`rate_period`) over the part of the period his result depends on, and stored as provisional
(ratings.models.LiveRating).

The scope (`live_scope`): every validated tournament of the period a player of the batch
played, whole: his games, and his tournaments' other entrants (a round robin's average, a
tournament's count of rated players read them all). What the engine gives a player reads
nothing else: his state at the start of the period, his games, and his opponents' and
fellow entrants' states at the start of the period (the list in force), which the period's
games do not change (a first rating made in the period is not an opponent's rating until the
list). So the engine gives each player of the batch what it gives him over the whole period
(tests/ratings/test_live.py compares them with the period's draft; docs/live-ratings.md)."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Iterable
from typing import Any

import numpy as np
from django.db import connection, transaction
from django.utils import timezone

from core.pg import locks
from core.tasks import task_enqueue_on_commit
from periods.models import PeriodStatus, RatingPeriod
from rating_engine import rate_period
from rating_engine import types as et
from rating_engine.registry import get_regulation
from ratings.calculation.draft import notes_json
from ratings.calculation.engine_path import games_last_year_add, games_read, period_input_build
from ratings.calculation.states import (
    RATED_TOURNAMENT_STATUSES,
    PlayerState,
    player_input,
    read_states_for,
)
from ratings.live.signals import live_ratings_changed
from ratings.models import LiveRating
from tournaments.models import Tournament, TournamentPlayer

log = logging.getLogger(__name__)

_TOURNAMENTS_OF = """
    SELECT DISTINCT tp.tournament_id FROM tournaments_tournamentplayer tp
    JOIN tournaments_tournament t ON t.id = tp.tournament_id
    WHERE t.period_id = %s AND t.status = ANY(%s) AND tp.player_id = ANY(%s)
"""
_PLAYERS_OF = """
    SELECT DISTINCT player_id FROM tournaments_tournamentplayer
    WHERE tournament_id = ANY(%s) AND player_id IS NOT NULL
"""


def live_ratings_update(*, tournament_id: int) -> int:
    """What the task does when a tournament's report is validated or its games change (also
    when it leaves the rated statuses): the live ratings of its registry players in its period.
    Returns the rows written."""
    tournament = Tournament.objects.select_related("period__system").filter(pk=tournament_id)
    t = tournament.first()
    if t is None or t.period is None:
        return 0
    ids = set(
        TournamentPlayer.objects.filter(tournament_id=t.pk, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    return live_ratings_compute(period=t.period, player_ids=ids)


def live_ratings_compute(*, period: RatingPeriod, player_ids: Iterable[int]) -> int:
    """Compute and store the live ratings of `player_ids` in `period`, replacing theirs. A
    player left without a validated game in the period loses his row. Nothing is computed
    once the period is closed: its calculation's draft speaks from then on."""
    ids = set(player_ids)
    if period.status != PeriodStatus.OPEN or not ids:
        return 0
    started = time.perf_counter()
    # One batch of a period at a time, read after the lock: a batch that waited reads what
    # the one before it committed, so the last write is computed from the newest games.
    with locks.advisory_lock(locks.LIVE_RATINGS, period.pk), transaction.atomic():
        rows = live_rows(period=period, player_ids=ids)
        before = {
            pid: (after, change)
            for pid, after, change in LiveRating.objects.filter(
                period=period, player_id__in=ids
            ).values_list("player_id", "rating_after", "change")
        }
        LiveRating.objects.filter(period=period, player_id__in=ids).delete()
        LiveRating.objects.bulk_create(rows)
        changed = {
            row.player_id: (row.rating_after, row.change)
            for row in rows
            if before.get(row.player_id) != (row.rating_after, row.change)
        }
        if changed:
            live_ratings_changed.send(sender=LiveRating, period=period, changed=changed)
    log.info(
        "live ratings of %s players (period %s) in %.2f s",
        len(rows),
        period.pk,
        time.perf_counter() - started,
    )
    return len(rows)


def live_scope(
    *, period: RatingPeriod, player_ids: set[int]
) -> tuple[dict[int, Tournament], dict[int, PlayerState]]:
    """The tournaments the results of `player_ids` depend on (every validated tournament of
    the period one of them played, whole) and the states of their registry entrants (the
    module's docstring says why these)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _TOURNAMENTS_OF, [period.pk, list(RATED_TOURNAMENT_STATUSES), sorted(player_ids)]
        )
        tournaments = sorted(r[0] for r in cursor.fetchall())
        cursor.execute(_PLAYERS_OF, [tournaments])
        entrants = {r[0] for r in cursor.fetchall()} | player_ids
    states = read_states_for(period=period, ids=entrants)
    found = Tournament.objects.filter(pk__in=tournaments).select_related("rating_system")
    return {t.pk: t for t in found}, states


def live_rows(*, period: RatingPeriod, player_ids: set[int]) -> list[LiveRating]:
    """The engine's result over the scope of `player_ids`, as unsaved rows."""
    tournaments, states = live_scope(period=period, player_ids=player_ids)
    games_by_t, extra = games_read(period=period, tournaments=tournaments, only=True)
    players = [player_input(state=s) for s in states.values()] + list(extra.values())
    period_input = period_input_build(
        period=period, players=players, games_by_t=games_by_t, tournaments=tournaments
    )
    if get_regulation(period_input.ruleset).inputs.games_last_12_months:
        period_input = games_last_year_add(
            period=period, period_input=period_input, ids=sorted(states)
        )
    result = rate_period(period_input)
    played: dict[int, set[int]] = {}
    for t_id, tp_player in TournamentPlayer.objects.filter(
        tournament_id__in=list(tournaments), player_id__in=list(player_ids)
    ).values_list("tournament_id", "player_id"):
        played.setdefault(tp_player, set()).add(t_id)
    lines: dict[str, list[dict[str, Any]]] = {}
    for line in result.games:
        lines.setdefault(line.player, []).append(line_json(line=line))
    excluded: dict[str, list[dict[str, Any]]] = {}
    for e in result.excluded:
        for key in {e.white, e.black}:
            excluded.setdefault(key, []).append(
                {
                    "tournament": int(e.tournament),
                    "round": e.round,
                    "code": e.code,
                    "reason": e.reason,
                    "article": e.article,
                }
            )
    now = timezone.now()
    return [
        LiveRating(
            player_id=int(r.id),
            system_id=period.system_id,
            period=period,
            rating_before=r.rating_before,
            rating_after=r.rating_after,
            change=r.change,
            k=r.k,
            k_article=r.k_article[:40],
            games=r.games,
            score=r.score,
            expected=r.expected,
            status=r.status,
            notes=notes_json(notes=r.notes),
            lines=lines.get(r.id, []),
            excluded=excluded.get(r.id, []),
            tournaments=sorted(played[int(r.id)]),
            regulation_version=result.regulation_version,
            computed_at=now,
        )
        for r in result.players
        if r.id.isdigit() and int(r.id) in played
    ]


def line_json(*, line: et.GameLine) -> dict[str, Any]:
    """A game line as the draft packs it (ratings.models.LINE_DTYPE: a registry opponent by
    id, one outside it by minus his line's id, expected and change in single precision)."""
    opponent = int(line.opponent) if line.opponent.isdigit() else -int(line.opponent[2:])
    return {
        "tournament": int(line.tournament),
        "opponent": opponent,
        "opponent_rating": line.opponent_rating,
        "score2": round(line.score * 2),
        "k": line.k,
        "expected": float(np.float32(line.expected)),
        "change": float(np.float32(line.change)),
    }


#: A tournament validated this long ago without its players' live ratings computed since is
#: left to the watchdog (its task's message was lost: the broker was away).
WATCH_GRACE_SECONDS = 120

_STALE_SQL = """
    SELECT t.id FROM tournaments_tournament t
    JOIN ratings_ratingperiod p ON p.id = t.period_id AND p.status = 'open'
    WHERE t.status = 'validated' AND t.validated_at < %(before)s AND EXISTS (
        SELECT 1 FROM tournaments_tournamentplayer tp
        WHERE tp.tournament_id = t.id AND tp.player_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM ratings_liverating lr WHERE lr.player_id = tp.player_id
              AND lr.period_id = t.period_id AND lr.computed_at >= t.validated_at))
    UNION
    SELECT t.id FROM tournaments_tournament t
    JOIN ratings_ratingperiod p ON p.id = t.period_id AND p.status = 'open'
    WHERE t.status <> ALL(%(rated)s) AND EXISTS (
        SELECT 1 FROM ratings_liverating lr WHERE lr.period_id = t.period_id
          AND lr.tournaments @> jsonb_build_array(t.id))
    ORDER BY 1 LIMIT %(limit)s
"""


def live_ratings_stale(*, limit: int = 200) -> list[int]:
    """Tournaments of open periods whose players' live ratings are behind: validated before
    the grace time with a registry player not computed since, or no longer rated while a live
    rating still counts them. What the watchdog (ratings.watch_live_ratings) sends again."""
    before = timezone.now() - dt.timedelta(seconds=WATCH_GRACE_SECONDS)
    with connection.cursor() as cursor:
        cursor.execute(
            _STALE_SQL,
            {"before": before, "rated": list(RATED_TOURNAMENT_STATUSES), "limit": limit},
        )
        return [r[0] for r in cursor.fetchall()]


def live_ratings_watch() -> list[int]:
    """The watchdog: send the live ratings task again for each tournament behind
    (`live_ratings_stale`). Returns their ids."""
    stale = live_ratings_stale()
    for tournament_id in stale:
        task_enqueue_on_commit("ratings.update_live_ratings", tournament_id)
    return stale
