"""feda-1996 8.11: a tournament is rated with the list in force on its start date (the January
list for 1 January-30 June, the July list for 1 July-31 December), chosen per tournament.

Hand-worked case. Three feda-1996 periods (8.13: 1 Jun-30 Nov, list 1 January; 1 Dec-31 May,
list 1 July):
- the list of 1 January 1996: A 2000, B 2000;
- the list of 1 July 1996: A 2000, B 2200 (the list the period 1 Jun-30 Nov 1996 starts from);
- in that period, A (50 games: K 15, 9.53a) beats B in a Swiss starting 20 June 1996 and
  draws with him in one starting 10 July 1996.
June, January list: Ra 2000, D 0, PD .50 (table A), W 1, We .50: +15 x .50 = +7.5.
July, July list: Ra 2200, D -200, PD .24, W .5, We .24: +15 x .26 = +3.9.
Rn = 2000 + 11.4 = 2011.4, to the nearest 5 (9.55): 2010.
With the July list for both (the period's list, before 8.11 was applied) the June game would
give 15 x (1 - .24) = +11.4 and Rn 2015.3 -> 2015.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from core.roles import RATING_OFFICER
from ratings.calculation.lists_in_force import list_in_force_on
from ratings.models import DraftResult, DraftTournament
from tests.factories import (
    calculate,
    make_game,
    make_period,
    make_player,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import TournamentPlayer

pytestmark = pytest.mark.django_db


def _world():
    system = make_system(ruleset="feda-1996", cycle="semestral")
    january = make_period(
        system,
        dt.date(1995, 6, 1),
        end=dt.date(1995, 11, 30),
        list_date=dt.date(1996, 1, 1),
        closing_date=dt.date(1995, 11, 30),
    )
    july = make_period(
        system,
        dt.date(1995, 12, 1),
        end=dt.date(1996, 5, 31),
        list_date=dt.date(1996, 7, 1),
        closing_date=dt.date(1996, 5, 31),
    )
    period = make_period(
        system,
        dt.date(1996, 6, 1),
        end=dt.date(1996, 11, 30),
        list_date=dt.date(1997, 1, 1),
        closing_date=dt.date(1996, 11, 30),
    )
    a, b = make_player(birth_year=1970), make_player(birth_year=1970)
    jan_list = make_published_list(
        january,
        [a, b],
        entries=[{"rating": 2000, "total_games": 50}, {"rating": 2000, "total_games": 50}],
    )
    jul_list = make_published_list(
        july,
        [a, b],
        entries=[{"rating": 2000, "total_games": 50}, {"rating": 2200, "total_games": 50}],
    )
    arbiter = make_user()
    june_t = make_tournament(
        system,
        arbiter,
        name="June open",
        start_date=dt.date(1996, 6, 20),
        end_date=dt.date(1996, 6, 25),
        status="validated",
        period=period,
    )
    july_t = make_tournament(
        system,
        arbiter,
        name="July open",
        start_date=dt.date(1996, 7, 10),
        end_date=dt.date(1996, 7, 15),
        status="validated",
        period=period,
    )
    for t, result in ((june_t, "1-0"), (july_t, "1/2-1/2")):
        ta = TournamentPlayer.objects.create(tournament=t, player=a, start_rank=1, name=str(a))
        tb = TournamentPlayer.objects.create(tournament=t, player=b, start_rank=2, name=str(b))
        make_game(t, ta, tb, result)
    return system, period, (a, b), (june_t, july_t), (jan_list, jul_list)


def test_the_list_in_force_is_the_last_on_or_before_the_start() -> None:
    _s, _p, _players, _ts, (jan_list, jul_list) = _world()
    lists = [jan_list, jul_list]
    assert list_in_force_on(lists=lists, day=dt.date(1996, 6, 30)) == jan_list
    assert list_in_force_on(lists=lists, day=dt.date(1996, 7, 1)) == jul_list
    assert list_in_force_on(lists=lists, day=dt.date(1995, 12, 31)) is None


def test_each_tournament_is_rated_with_the_list_of_its_start_date(
    django_capture_on_commit_callbacks,
) -> None:
    _s, period, (a, b), (june_t, july_t), (jan_list, jul_list) = _world()
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    row = DraftResult.objects.get(run=run, player=a)
    assert (row.rating_before, row.rating_after) == (2000, 2010)
    lines = {d.tournament_id: d.decode() for d in DraftTournament.objects.filter(run=run)}
    june_a = [x for x in lines[june_t.pk] if int(x["player"]) == a.pk]
    july_a = [x for x in lines[july_t.pk] if int(x["player"]) == a.pk]
    assert [int(x["opponent_rating"]) for x in june_a] == [2000]
    assert [int(x["opponent_rating"]) for x in july_a] == [2200]
    assert round(float(june_a[0]["change"]), 2) == 7.5
    assert round(float(july_a[0]["change"]), 2) == 3.9
    # B's opponent A counts 2000 in both lists; the run says which list each one used.
    assert run.lists_in_force == {
        str(june_t.pk): {"list": jan_list.pk, "article": "feda-1996 8.11"},
        str(july_t.pk): {"list": jul_list.pk, "article": "feda-1996 8.11"},
    }


def test_the_calculation_page_says_which_list_each_tournament_used(
    client, django_capture_on_commit_callbacks
) -> None:
    _s, period, _players, (june_t, july_t), (jan_list, jul_list) = _world()
    with django_capture_on_commit_callbacks(execute=True):
        calculate(period)
    client.force_login(make_user(role=RATING_OFFICER))
    html = client.get(reverse("ratings:review_tournaments", args=[period.pk])).content.decode()
    assert "feda-1996 8.11" in html
    assert "1996-01-01" in html and "1996-07-01" in html
    api = client.get(f"/api/v1/periods/{period.pk}/progress/").json()
    assert api["lists_in_force"] == [
        {"tournament": june_t.pk, "list": jan_list.pk, "article": "feda-1996 8.11"},
        {"tournament": july_t.pk, "list": jul_list.pk, "article": "feda-1996 8.11"},
    ]


def test_other_regulations_keep_the_list_of_the_period(django_capture_on_commit_callbacks) -> None:
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    earlier = make_period(system, dt.date(1996, 1, 1), end=dt.date(1996, 3, 31))
    period = make_period(system, dt.date(1996, 4, 1), end=dt.date(1996, 6, 30))
    a, b = make_player(), make_player()
    make_published_list(earlier, [a, b], entries=[{"rating": 2000}, {"rating": 2100}])
    t = make_tournament(
        system,
        make_user(),
        start_date=dt.date(1996, 3, 30),
        end_date=dt.date(1996, 4, 2),
        status="validated",
        period=period,
    )
    ta = TournamentPlayer.objects.create(tournament=t, player=a, start_rank=1, name=str(a))
    tb = TournamentPlayer.objects.create(tournament=t, player=b, start_rank=2, name=str(b))
    make_game(t, ta, tb, "1-0")
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    assert run.lists_in_force == {}
