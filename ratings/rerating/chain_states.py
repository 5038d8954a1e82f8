"""The players' states kept in memory along a re-rating chain (ratings.rerating.chain).

The first period of the chain reads every player's state at its start, as a calculation does
(ratings.calculation.bulk_path.players_sql_build). After a period is published, the state at
the start of the next one differs from the one held only for the players whose rows the
state query takes from a different place or whose values changed (ratings.calculation.states):

- the players of the new run's draft (their list entry and after-state are new) and of the
  previous new run's draft (their after-state was read from it, now from elsewhere);
- the players of the first published run of this period and of the next one (their
  before-state was read from the one, now from the other);
- the players of the next period's tournaments (they may enter the state query without a
  rating state) and the deceased (the new list leaves them out: fide-2024 10.2);
- the players for whom the query's date tests change between the two periods: youth by the
  year of the period, "rated since" before the list date (fide-2024 8.2.4).

Only those are read again (the same query, restricted to their ids); everyone else's row is
kept. A player without a rating state (PlayerRating) who is not playing is dropped, as the
query drops him. `chain_states_verify` compares the held state with a full read (tests).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import connection

from core.pg.copy import copy_out_ints
from periods.models import RatingPeriod
from ratings.calculation.bulk_arrays import PlayerArrays
from ratings.calculation.bulk_path import (
    BIRTH_YEAR_SQL,
    players_read,
    players_sql_build,
    youth_age,
)
from ratings.calculation.states import previous_list, previous_run, published_run
from ratings.models import CalculationRun, DraftResult

#: Columns of the bulk state query (PlayerArrays.P).
STATE_COLUMNS = 10


@dataclass
class ChainStates:
    """The state at the start of `period` (None before the first read), and what tells which
    rows must be read again when the chain moves on."""

    period: RatingPeriod | None = None
    P: Any = None
    #: Players with a rating state in the system (PlayerRating rows), sorted.
    registered: Any = None
    #: (player, first day of "rated since") of the states whose date is not before the chain's
    #: first list date: the 8.2.4 test may change for them as the list date moves on.
    since_later: Any = None
    #: (player, year he stops being a youth for the query) of those who stop during the chain.
    youth_until: Any = None
    deceased: Any = None
    #: The draft rows of the new run of the previous period (their after-state was read).
    previous_new_draft: Any = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    full_reads: int = 0
    partial_reads: int = 0
    rows_read: int = 0

    def players(self, period: RatingPeriod) -> PlayerArrays:
        """The state at the start of `period` (the bulk path's `players_source`)."""
        if self.P is None or self.period is None or self.period.pk != period.pk:
            self._read_all(period=period)
        assert self.P is not None
        return arrays_of(P=self.P)

    def _read_all(self, *, period: RatingPeriod) -> None:
        self.P = players_read(players_sql=players_sql_build(period=period)).P
        self.period = period
        self.full_reads += 1
        self.rows_read += len(self.P)
        self.registered = _ints(
            "SELECT player_id FROM ratings_playerrating WHERE system_id = %s ORDER BY 1",
            [period.system_id],
        )
        self.since_later = _pairs(
            "SELECT player_id, rated_since - DATE '0001-01-01' + 1 FROM ratings_playerrating "
            "WHERE system_id = %s AND rated_since >= %s",
            [period.system_id, period.list_date],
        )
        # As players_sql_build: a youth while birth year + youth_age() >= the period's year.
        born = BIRTH_YEAR_SQL.format(p="")
        self.youth_until = _pairs(
            f"SELECT id, {born} + %s FROM players_player WHERE {born} + %s >= %s",
            [youth_age(), youth_age(), period.start.year],
        )
        self.deceased = _ints(
            "SELECT id FROM players_player WHERE deceased_on IS NOT NULL ORDER BY 1", []
        )
        # Their after-state was read from the run of the list in force.
        before = previous_run(previous=previous_list(period=period))
        self.previous_new_draft = (
            _draft_ids(run_id=before.pk) if before is not None else np.zeros(0, dtype=np.int64)
        )

    def advance(self, *, done: RatingPeriod, run: CalculationRun, following: RatingPeriod) -> None:
        """`done` was published from `run`: the state at the start of `following`."""
        if (
            self.P is None
            or self.period is None
            or self.period.pk != done.pk
            or previous_list(period=done) is None
        ):
            # Nothing held for `done`, or its state came from the players' states (no list
            # before it) and the next one's comes from `done`'s list: the next call reads all.
            self.P = None
            return
        new_draft = _draft_ids(run_id=run.pk)
        parts = [new_draft, self.previous_new_draft, self.deceased]
        for p in (done, following):
            first = published_run(period=p)
            if first is not None and first.pk != run.pk:
                parts.append(_draft_ids(run_id=first.pk))
        parts.append(
            _ints(
                "SELECT DISTINCT tp.player_id FROM tournaments_tournamentplayer tp "
                "JOIN tournaments_tournament t ON t.id = tp.tournament_id "
                "WHERE t.period_id = %s AND t.status IN ('validated', 'rated', 'published') "
                "AND tp.player_id IS NOT NULL",
                [following.pk],
            )
        )
        lo, hi = _ordinal(done.list_date), _ordinal(following.list_date)
        since = self.since_later
        parts.append(since[(since[:, 1] >= lo) & (since[:, 1] < hi), 0])
        youth = self.youth_until
        parts.append(
            youth[(youth[:, 1] >= done.start.year) & (youth[:, 1] < following.start.year), 0]
        )
        again = np.unique(np.concatenate(parts))
        fresh = _read_ids(period=following, ids=again)
        # Registered players may have gained a state (the publication's new PlayerRating rows).
        self.registered = np.union1d(
            self.registered,
            _ints(
                "SELECT player_id FROM ratings_playerrating WHERE system_id = %s "
                "AND player_id = ANY(%s) ORDER BY 1",
                [following.system_id, again.tolist()],
            ),
        )
        P = self.P
        keep = ~np.isin(P[:, 0], again) & np.isin(P[:, 0], self.registered)
        merged = np.concatenate([P[keep], fresh])
        self.P = merged[np.argsort(merged[:, 0], kind="stable")]
        self.period = following
        self.previous_new_draft = new_draft
        self.partial_reads += 1
        self.rows_read += len(fresh)


def arrays_of(*, P: Any) -> PlayerArrays:
    """PlayerArrays over a state already in player order (as players_read makes it)."""
    rating = P[:, 1]
    return PlayerArrays(P=P, pid=P[:, 0], rating=rating, rated=rating >= 0)


def chain_states_verify(*, states: ChainStates, period: RatingPeriod) -> list[int]:
    """The players whose held state at the start of `period` differs from a full read (empty
    when the memory is right)."""
    held = states.players(period).P
    full = players_read(players_sql=players_sql_build(period=period)).P
    held_ids, full_ids = set(held[:, 0].tolist()), set(full[:, 0].tolist())
    wrong = held_ids ^ full_ids
    both = np.array(sorted(held_ids & full_ids), dtype=np.int64)
    a = held[np.searchsorted(held[:, 0], both)]
    b = full[np.searchsorted(full[:, 0], both)]
    wrong |= set(both[(a != b).any(axis=1)].tolist())
    return sorted(wrong)


def _read_ids(*, period: RatingPeriod, ids: Any) -> Any:
    """The state query restricted to `ids` (its last condition is its WHERE clause's)."""
    if not len(ids):
        return np.zeros((0, STATE_COLUMNS), dtype=np.int64)
    literal = "{" + ",".join(map(str, ids.tolist())) + "}"
    sql = players_sql_build(period=period) + f" AND p.id = ANY('{literal}'::bigint[])"
    return copy_out_ints(sql, STATE_COLUMNS)


def _draft_ids(*, run_id: int) -> Any:
    return np.fromiter(
        DraftResult.objects.filter(run_id=run_id).values_list("player_id", flat=True),
        dtype=np.int64,
    )


def _ints(sql: str, params: list[Any]) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return np.fromiter((r[0] for r in cursor.fetchall()), dtype=np.int64)


def _pairs(sql: str, params: list[Any]) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def _ordinal(day: dt.date) -> int:
    """As the state query writes a date: days since 0001-01-01, plus one."""
    return day.toordinal()
