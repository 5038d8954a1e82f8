"""The list each tournament of a period is rated with, when the regulation chooses it by the
tournament's start date (feda-1996 8.11: "La lista de Enero entra en vigor para torneos cuya
fecha de comienzo se halle entre el 1º de Enero y el 30 de Junio. La lista de Julio es efectiva
para torneos que comiencen entre el 1º de Julio y el 31 de Diciembre"), and the ratings of its
players in that list, read set-based (one query for every tournament of the period).

This is the choice of a published list, not of the ruleset (a ruleset's effective dates are
issue 23's timeline): both read the start date, each for its own question."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import connection

from periods.models import RatingPeriod
from rating_engine import types as et
from rating_engine.registry import get_regulation
from ratings.calculation.rulesets import period_ruleset_in_force
from ratings.calculation.states import previous_list
from ratings.models import PublishedList


@dataclass(frozen=True)
class ListInForce:
    """The list a tournament was rated with: the published list (None: no list was in force on
    its start date, it counts with the state at the period's start) and the article."""

    tournament_id: int
    published_list: PublishedList | None
    article: str
    #: True: the list the period starts from; False: another list, whose ratings the
    #: tournament's opponents count with (``TournamentInput.list_ratings``).
    period_list: bool


def list_in_force_on(*, lists: list[PublishedList], day: dt.date | None) -> PublishedList | None:
    """The list in force on ``day``: the last one whose list date is on or before it (feda-1996
    8.11), its latest version. ``lists`` ordered by list date, then version."""
    found = None
    if day is None:
        return None
    for candidate in lists:
        if candidate.list_date <= day:
            found = candidate
    return found


def lists_in_force(*, period: RatingPeriod, tournaments: dict[int, Any]) -> dict[int, ListInForce]:
    """Each tournament's list in force on its start date, if the regulation rates a tournament
    with that list (``facts.lists.list_in_force_at_start``); empty otherwise (every tournament
    with the list in force at the period's start, ``states.previous_list``)."""
    facts = get_regulation(period_ruleset_in_force(period=period).ruleset).facts
    rule = facts.lists.list_in_force_at_start
    if rule is None or not rule.value or not tournaments:
        return {}
    lists = list(
        PublishedList.objects.filter(system=period.system, period__start__lt=period.start)
        .select_related("period")
        .order_by("list_date", "version", "pk")
    )
    start_list = previous_list(period=period)
    out: dict[int, ListInForce] = {}
    for t_id, t in tournaments.items():
        chosen = list_in_force_on(lists=lists, day=t.start_date or t.end_date)
        if chosen is None:
            # No list yet on that day: the state at the period's start, as before.
            chosen = start_list
        out[t_id] = ListInForce(
            tournament_id=t_id,
            published_list=chosen,
            article=rule.article,
            period_list=chosen is None or start_list is None or chosen.pk == start_list.pk,
        )
    return out


LIST_RATINGS_SQL = """
    SELECT x.t_id, tp.player_id,
           CASE WHEN le.status IN ('out_of_list', 'unrated') THEN NULL ELSE le.rating END
    FROM unnest(%s::bigint[], %s::bigint[]) AS x(t_id, list_id)
    JOIN tournaments_tournamentplayer tp ON tp.tournament_id = x.t_id
    JOIN ratings_listentry le ON le.published_list_id = x.list_id AND le.player_id = tp.player_id
    WHERE tp.player_id IS NOT NULL
"""


def list_ratings_read(*, in_force: dict[int, ListInForce]) -> dict[int, tuple[et.ListRating, ...]]:
    """The ratings of each tournament's registry players in its list in force, for the
    tournaments rated with a list other than the period's (one query for all of them)."""
    other = {
        t_id: x.published_list.pk
        for t_id, x in in_force.items()
        if not x.period_list and x.published_list is not None
    }
    if not other:
        return {}
    found: dict[int, list[et.ListRating]] = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute(LIST_RATINGS_SQL, [list(other), list(other.values())])
        for t_id, player_id, rating in cursor.fetchall():
            found[t_id].append(et.ListRating(id=str(player_id), rating=rating))
    # A tournament none of whose players is in that list: every one counts as unrated there.
    return {t_id: tuple(found.get(t_id, ())) for t_id in other}


def lists_in_force_json(*, in_force: dict[int, ListInForce]) -> dict[str, Any]:
    """What the run records (``CalculationRun.lists_in_force``): per tournament, the list's id
    (None: none in force) and the article."""
    return {
        str(t_id): {
            "list": x.published_list.pk if x.published_list is not None else None,
            "article": x.article,
        }
        for t_id, x in in_force.items()
    }
