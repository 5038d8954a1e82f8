"""Reads of the external lists kept by their imports (players.models.ExternalList: the ICCF
list, the FPX list; lists/imports/external.py writes them): which list is in force on a day
and the players' ratings in it.

A list is in force from its date until the next list of the same source (cnxc-2000 5.3 "em
vigor"; 7.3 "a lista da ICCF em vigor no dia imediato ao último a que correspondem os
cálculos"). The calculation asks for the ICCF list in force the day after the period for 7.3
(ratings.calculation.calibration); the players' ``iccf_rating``/``fpx_rating`` mirror the
latest list of each source (5.3, the list in force when calculating)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from players.models import ExternalList, ExternalListEntry


def external_list_in_force(*, source: str, on: dt.date) -> ExternalList | None:
    """The list of ``source`` ("iccf", "fpx") in force on ``on``: the latest dated on or
    before it; None when none was imported by then."""
    return (
        ExternalList.objects.filter(source=source, list_date__lte=on)
        .order_by("-list_date", "-id")
        .first()
    )


def external_ratings_of(
    *, external_list: ExternalList, player_ids: Iterable[int] | None = None
) -> dict[int, int]:
    """{player id: rating} of the list's rows matched to a registry player and carrying a
    rating (of ``player_ids`` only, if given). One query."""
    rows = ExternalListEntry.objects.filter(
        external_list=external_list, player__isnull=False, rating__isnull=False
    )
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    return {
        pid: rating
        for pid, rating in rows.values_list("player_id", "rating")
        if pid is not None and rating is not None
    }


def external_ratings_in_force(
    *, source: str, on: dt.date, player_ids: Iterable[int] | None = None
) -> dict[int, int]:
    """The ratings of ``source``'s list in force on ``on``, {player id: rating}; empty when no
    list was in force."""
    found = external_list_in_force(source=source, on=on)
    if found is None:
        return {}
    return external_ratings_of(external_list=found, player_ids=player_ids)


def external_rating_in_force(*, source: str, on: dt.date, player_id: int) -> int | None:
    """One player's rating in ``source``'s list in force on ``on`` (None: not in it)."""
    return external_ratings_in_force(source=source, on=on, player_ids=[player_id]).get(player_id)
