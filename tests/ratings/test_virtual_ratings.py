"""cnxc-2000 5.3 in the calculation: an unrated opponent's virtual rating is his rating in the
ICCF list (else the FPX list) in force on the period's list date, read from the dated imports
(players.external), not from ``Player.iccf_rating``, which follows the newest import.

Worked by hand (cnxc-2000 6.4, Tabela II, K matrix):
A: effective 2000, 60 games -> K 20 (row 2000-2200, column 51-100).
B: no CNXC rating; ICCF list of 1 June 2026: 2300; ICCF list of 1 September 2026: 2100.
Period 1 January-30 June 2026, list date 1 July: the list in force is the one of 1 June.
A beats B: difference 2300 - 2000 = 300 (291-302: Prob L 0.15); V = 20 x (1 - 0.15) = 17
-> 2017. (Read from the September list, the newest: 100 -> 0.36, V = 12.8 -> 2013.)
"""

from __future__ import annotations

import datetime as dt

import pytest

from core.jobs import JobStatus
from lists.imports.external import external_list_import
from ratings.calculation import selectors as calculation_selectors
from ratings.models import DraftResult
from ratings.models.states import PlayerRating
from tests.factories import calculate as factory_calculate
from tests.factories import (
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import TournamentPlayer

pytestmark = pytest.mark.django_db

HEADER = "ICCF-id\tCountry\tTitle\tName\tGames\tRating\n"


def iccf_list(on: dt.date, rating: int) -> None:
    external_list_import(
        source="iccf",
        list_date=on,
        data=f"{HEADER}910001\tPOR\t\tB, Player\t40\t{rating}\n".encode(),
    )


def world():
    system = make_system(ruleset="cnxc-2000", cycle="semestral")
    period = make_period(system, start=dt.date(2026, 1, 1), end=dt.date(2026, 6, 30))
    assert period.list_date == dt.date(2026, 7, 1)
    a = make_player(birth_year=1970)
    b = make_player(birth_year=1970, iccf_id=910001, fide_id=1907777)
    PlayerRating.objects.create(
        player=a,
        system=system,
        rating=2000,
        games=60,
        kind="effective",
        last_game_date=dt.date(2025, 5, 1),
    )
    tournament = make_tournament(
        system,
        make_user(),
        status="validated",
        period=period,
        start_date=dt.date(2025, 3, 1),
        end_date=dt.date(2026, 5, 31),
    )
    ta, tb = (
        TournamentPlayer.objects.create(tournament=tournament, player=p, start_rank=i, name=str(p))
        for i, p in enumerate((a, b), start=1)
    )
    make_game(tournament, ta, tb, "1-0")
    return period, a, b


def test_the_period_reads_the_iccf_list_in_force_on_its_list_date(
    django_capture_on_commit_callbacks,
) -> None:
    period, a, b = world()
    iccf_list(dt.date(2026, 6, 1), 2300)
    iccf_list(dt.date(2026, 9, 1), 2100)  # imported later: the newest, not in force on 1 July
    b.refresh_from_db()
    assert b.iccf_rating == 2100  # the mirror follows the newest import
    with django_capture_on_commit_callbacks(execute=True):
        run = factory_calculate(period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    row = DraftResult.objects.get(run=run, player=a)
    assert (row.rating_before, row.rating_after, row.k) == (2000, 2017, 20)
    lines = calculation_selectors.draft_player(run=run, player_id=a.pk)["lines"]
    assert [(g.opponent_rating, g.score, g.expected) for g in lines] == [(2300, 1.0, 0.15)]


def test_an_iccf_list_not_yet_in_force_gives_way_to_the_fpx_one(
    django_capture_on_commit_callbacks,
) -> None:
    """Only an ICCF list dated after the list date: not in force; B's FPX rating of a list in
    force (1950: difference 50 -> 47-54, Prob H 0.57; V = 20 x 0.43 = 8.6 -> 2009)."""
    period, a, b = world()
    iccf_list(dt.date(2026, 9, 1), 2100)
    external_list_import(
        source="fpx",
        list_date=dt.date(2026, 1, 1),
        data=b'fpx_id,name,rating,fide_id\n55,"B, Player",1950,1907777\n',
    )
    with django_capture_on_commit_callbacks(execute=True):
        run = factory_calculate(period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    lines = calculation_selectors.draft_player(run=run, player_id=a.pk)["lines"]
    assert [(g.opponent_rating, g.expected) for g in lines] == [(1950, 0.57)]
    assert DraftResult.objects.get(run=run, player=a).rating_after == 2009
