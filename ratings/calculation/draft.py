"""The draft of a run: one row per player (DraftResult), the counted game lines packed per
tournament (DraftTournament) and the games left out (DraftExcluded), written by COPY in one
transaction that replaces the period's previous draft."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.jobs import JobStatus
from core.messages import json_ready
from core.pg.connections import tune_transaction
from core.pg.copy import copy_in, copy_in_binary
from core.timing import StepTimer
from periods.models import PeriodStatus, RatingPeriod
from rating_engine import ENGINE_VERSION
from rating_engine import types as et
from ratings.calculation.progress import run_progress_in_tx
from ratings.calculation.states import PlayerState
from ratings.models import LINE_DTYPE, CalculationRun, DraftExcluded, DraftResult, DraftTournament
from tournaments.models import Tournament

log = logging.getLogger(__name__)


def notes_json(*, notes: Iterable[et.Decision]) -> list[dict[str, Any]]:
    return [
        {
            "code": n.code,
            "article": n.article,
            "template": n.template,
            "params": {k: json_ready(v) for k, v in n.params.items()},
        }
        for n in notes
    ]


def result_row(
    *,
    run: CalculationRun,
    state: PlayerState,
    result: et.PlayerResult,
    last_day: dt.date | None,
    pooled: list[dict[str, Any]],
) -> tuple[Any, ...]:
    flags = sorted({n.code for n in result.notes} - {"k"})
    rated_now = result.rating_after is not None
    total = state.games + (
        result.games if (rated_now or result.status in ("new", "rated", "provisional")) else 0
    )
    after = result.rating_after
    prior = (state.prior_results + pooled) if result.status == "unrated" else []
    inactive = result.status == "inactive" or "inactive" in flags
    return (
        state.player_id,
        result.rating_before,
        after,
        result.change,
        result.k,
        result.k_article[:40],
        result.games,
        result.score,
        result.expected,
        result.status,
        state.status,
        inactive,
        result.status == "provisional",
        flags,
        notes_json(notes=result.notes),
        total,
        max(filter(None, [state.last_game_date, last_day]), default=None),
        state.reached_2400 or (after or 0) >= 2400,
        state.reached_2200 or (after or 0) >= 2200,
        state.flagged_lists + 1 if inactive else 0,
        prior,
        state.games,
        # The state it started from: a re-run of the period once published starts from it.
        state.reached_2400,
        state.reached_2200,
        state.last_game_date,
        state.flagged_lists,
        state.prior_results,
        state.rated_since,
    )


RESULT_COLUMNS = (
    "player_id",
    "rating_before",
    "rating_after",
    "change",
    "k",
    "k_article",
    "games",
    "score",
    "expected",
    "status",
    "previous_status",
    "inactive",
    "provisional",
    "flags",
    "notes",
    "total_games",
    "last_game_date",
    "reached_2400",
    "reached_2200",
    "flagged_lists",
    "prior_results",
    "games_before",
    "reached_2400_before",
    "reached_2200_before",
    "last_game_date_before",
    "flagged_lists_before",
    "prior_results_before",
    "rated_since_before",
)
TOURNAMENT_COLUMNS = (
    "tournament_id",
    "lines",
    "line_count",
    "player_count",
    "change_sum",
    "change_max",
    "change_min",
)
#: The binary COPY types of TOURNAMENT_COLUMNS + (run_id, ruleset, engine_version,
#: regulation_version).
TOURNAMENT_TYPES = (
    "bigint",
    "bytea",
    "integer",
    "integer",
    "double precision",
    "double precision",
    "double precision",
    "bigint",
    "text",
    "text",
    "text",
)
EXCLUDED_COLUMNS = ("tournament_id", "white_key", "black_key", "round", "code", "reason", "article")


def draft_write(
    *,
    run: CalculationRun,
    results: Sequence[tuple[Any, ...]] | None,
    tournament_rows: Sequence[tuple[Any, ...]],
    excluded_rows: Sequence[tuple[Any, ...]],
    ruleset: str,
    regulation_version: str,
    tournaments: list[int],
    line_count: int,
    result_text: Iterable[str] | None = None,
    player_count: int | Callable[[], int] | None = None,
) -> None:
    """Replace the period's draft by this run's rows, in one transaction. Every row and the run
    name the regulation and its version (``regulation_version``: rows written as text end with
    ``\t<run>\t<ruleset>\t<ENGINE_VERSION>\t<regulation_version>``)."""
    period = run.period
    tail = (run.pk, ruleset, ENGINE_VERSION, regulation_version)
    timer = StepTimer(f"run {run.pk} write", log)
    with transaction.atomic():
        tune_transaction()
        old = list(
            CalculationRun.objects.filter(period=period, published_list__isnull=True)
            .exclude(pk=run.pk)
            .values_list("pk", flat=True)
        )
        if old:
            for model in (DraftResult, DraftTournament, DraftExcluded):
                model.objects.filter(run_id__in=old).delete()
        extra = ("run_id", "ruleset", "engine_version", "regulation_version")
        if result_text is not None:
            copy_in("ratings_draftresult", RESULT_COLUMNS + extra, text=result_text)
        else:
            copy_in(
                "ratings_draftresult",
                RESULT_COLUMNS + extra,
                rows=(r + tail for r in results or ()),
            )
        timer.step("player rows")
        run_progress_in_tx(run_id=run.pk, progress=75, phase=gettext_noop("Writing the game lines"))
        copy_in_binary(
            "ratings_drafttournament",
            TOURNAMENT_COLUMNS + extra,
            TOURNAMENT_TYPES,
            (r + tail for r in tournament_rows),
        )
        copy_in(
            "ratings_draftexcluded",
            EXCLUDED_COLUMNS + extra,
            rows=(e + tail for e in excluded_rows),
        )
        timer.step("game lines")
        n_players = (
            (player_count() if callable(player_count) else player_count)
            if player_count is not None
            else len(results or ())
        )
        n_games = line_count
        CalculationRun.objects.filter(pk=run.pk).update(
            status=JobStatus.SUCCEEDED,
            progress=100,
            phase=gettext_noop("Done"),
            finished_at=timezone.now(),
            player_count=n_players,
            game_count=n_games,
            excluded_count=len(excluded_rows),
            ruleset=ruleset,
            engine_version=ENGINE_VERSION,
            regulation_version=regulation_version,
            method="bulk" if result_text is not None else "engine",
        )
        now = timezone.now()
        if period.status != PeriodStatus.PUBLISHED:
            RatingPeriod.objects.filter(pk=period.pk).update(
                status=PeriodStatus.CALCULATED, calculated_at=now
            )
        else:
            RatingPeriod.objects.filter(pk=period.pk).update(calculated_at=now)
        # Not a tournament rated in parts whose current part is in a later period (this run
        # rated an earlier part of it: ratings.calculation.period_games).
        Tournament.objects.filter(pk__in=tournaments, period=period, status="validated").update(
            status="rated", rated_at=now
        )
    timer.step("commit")


def tournament_rows(
    *,
    t: Any,
    player: Any,
    opponent: Any,
    opponent_rating: Any,
    score2: Any,
    k: Any,
    expected: Any,
    change: Any,
) -> list[tuple[Any, ...]]:
    """Pack game lines (parallel arrays) into one row per tournament (models.LINE_DTYPE)."""
    if len(t) == 0:
        return []
    order = np.argsort(t, kind="stable")
    lines = np.empty(len(t), dtype=np.dtype(LINE_DTYPE))
    lines["player"], lines["opponent"] = player[order], opponent[order]
    lines["opponent_rating"], lines["score2"], lines["k"] = (
        opponent_rating[order],
        score2[order],
        k[order],
    )
    lines["expected"], lines["change"] = expected[order], change[order]
    return group_lines(ts=t[order], lines=lines, change=change[order])


def group_lines(*, ts: Any, lines: Any, change: Any) -> list[tuple[Any, ...]]:
    """One row per tournament from lines already in tournament order (`ts`: the tournament of
    each line; `change`: the changes in float64, for exact totals). A row's bytes are a view
    on `lines`, not a copy: a semester has 3.4 million lines."""
    starts = np.flatnonzero(np.r_[True, ts[1:] != ts[:-1]])
    ends = np.r_[starts[1:], len(ts)]
    sums = np.add.reduceat(change, starts)
    maxs = np.maximum.reduceat(change, starts)
    mins = np.minimum.reduceat(change, starts)
    # Distinct players per tournament without a NumPy call per tournament: the first-rating
    # thread holds the GIL between calls, and each small call that lets it go waits for it
    # back (7.4 s for 7,500 tournaments of a semester; one pass here).
    player = lines["player"]
    by_player = np.lexsort((player, ts))
    tp, pp = ts[by_player], player[by_player]
    first_of_pair = np.r_[True, (tp[1:] != tp[:-1]) | (pp[1:] != pp[:-1])]
    players = np.add.reduceat(
        first_of_pair.astype(np.int64), np.flatnonzero(np.r_[True, tp[1:] != tp[:-1]])
    )
    del by_player, tp, pp, first_of_pair
    data = memoryview(lines.view(np.uint8))
    size = lines.dtype.itemsize
    return [
        (t_id, data[a * size : b * size], b - a, n, total, high, low)
        for t_id, a, b, n, total, high, low in zip(
            ts[starts].tolist(),
            starts.tolist(),
            ends.tolist(),
            players.tolist(),
            sums.tolist(),
            maxs.tolist(),
            mins.tolist(),
            strict=True,
        )
    ]
