"""Which games a period's calculation reads: the one place that decides it (issue 23,
docs/periods.md "Tournaments in parts").

A tournament rated whole has its games in its period (``Tournament.period``). A tournament
rated in parts (fide-2024 4.1, fide-2000 4.11) has a part per period (``TournamentPart``), and
each of its games carries the period of its part (``Game.period``): a period reads the games
whose period is it (or, with none, whose tournament's is), of the tournaments it holds or holds
a part of, so each game is rated once,
in its own period, with that period's list in force.

The SQL is written over the aliases ``t`` (tournaments_tournament) and ``g``
(tournaments_game); ``period`` is the placeholder (``%s``, ``%(period)s``) or a literal id.
The tournaments are found first (their index on ``period_id``, and the parts' on theirs), so
the games are read through their tournament as before. Measured against the one-period
filter it replaces: docs/benchmarks.md, "Tournaments in parts".
"""

from __future__ import annotations

from django.db.models import Q


def period_tournaments_sql(*, period: str) -> str:
    """The tournaments of ``t`` with games in the period: its own and those with a part in it."""
    # A semi-join on the union of two index scans (the tournaments' period_id, the parts'):
    # an OR of the two would hide the first index from the planner on the bulk path.
    return (
        f"t.id IN (SELECT x.id FROM tournaments_tournament x WHERE x.period_id = {period} "
        f"UNION ALL SELECT pt.tournament_id FROM tournaments_tournamentpart pt "
        f"WHERE pt.period_id = {period})"
    )


def period_games_sql(*, period: str) -> str:
    """The games of ``g`` (of tournament ``t``) rated in the period."""
    # Not COALESCE(g.period_id, t.period_id): its selectivity is unknown to the planner, and
    # that form read a period's games in twice the time (docs/benchmarks.md, "Tournaments in
    # parts"); "IS NULL" is estimated from the column's statistics.
    return (
        f"{period_tournaments_sql(period=period)} AND (g.period_id = {period} "
        f"OR (g.period_id IS NULL AND t.period_id = {period}))"
    )


#: How many times ``period_games_sql`` names its placeholder (positional parameters).
PERIOD_GAMES_PARAMS = 4


def period_tournaments_q(*, period_id: int, prefix: str = "") -> Q:
    """``period_tournaments_sql`` for the ORM, over a Tournament (``prefix``: the path to one,
    e.g. ``"tournament__"``)."""
    return Q(**{f"{prefix}period_id": period_id}) | Q(**{f"{prefix}parts__period_id": period_id})


def period_games_q(*, period_id: int) -> Q:
    """``period_games_sql`` for the ORM, over a Game."""
    return Q(period_id=period_id) | Q(period__isnull=True, tournament__period_id=period_id)
