"""fide-2000 11.31: the rating report of a tournament on its public page and in the API.

Hand-worked Swiss (fide-2000; table B of 10.1, table A for dp; values from the text, not the
code). Rated in the list in force: R1 1850, R2 1900, R3 1950, R4 2000. Unrated: U, V, X.
Games: R1-R4 1-0, R2-R3 draw; U: beats R2, draws R3, loses to R4; V: beats R1, loses to R2
and R3; X: beats R1, loses to R4.
- Rated players count only their games against rated opponents (6.4):
  R1 vs 2000: Rc 2000, D -150, PD .30 (146-153 -> .70), W 1: W - We = .70.
  R4 vs 1850: Rc 1850, D 150, PD .70, W 0: W - We = -.70.
  R2 vs 1950: D -50, PD .43 (47-53 -> .57), W .5: W - We = .07; R3: -.07.
- U: 3 rated opponents, Rc (1900 + 1950 + 2000) / 3 = 1950, 1.5 of 3 = 50%: Ru = Rc = 1950
  (10.22), published (not below 1801).
- V: 3 rated opponents, Rc (1850 + 1900 + 1950) / 3 = 1900, 1 of 3, p .33 -> dp -125 (table
  A: .67 -> 125): Ru = 1900 - 125 = 1775 (10.24), below 1801: given all the same, marked
  "not published" (11.31).
- X: 2 rated opponents (fewer than 3): Rar 0 (11.31), no Ru.
"""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.cards.report import tournament_rating_report
from ratings.publication import services as publication
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
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    earlier = make_period(system, dt.date(2001, 1, 1), end=dt.date(2001, 3, 31))
    period = make_period(system, dt.date(2001, 4, 1), end=dt.date(2001, 6, 30))
    rated = [make_player(surname=f"R{i}") for i in range(1, 5)]
    make_published_list(
        earlier,
        rated,
        entries=[{"rating": r, "total_games": 60} for r in (1850, 1900, 1950, 2000)],
    )
    u, v, x = (make_player(surname=s) for s in ("U", "V", "X"))
    t = make_tournament(
        system,
        make_user(),
        start_date=dt.date(2001, 5, 1),
        end_date=dt.date(2001, 5, 5),
        status="validated",
        period=period,
    )
    tp = {
        p.surname: TournamentPlayer.objects.create(
            tournament=t, player=p, start_rank=i + 1, name=str(p)
        )
        for i, p in enumerate([*rated, u, v, x])
    }
    for white, black, result, rnd in (
        ("R1", "R4", "1-0", 1),
        ("R2", "R3", "1/2-1/2", 1),
        ("U", "R2", "1-0", 2),
        ("U", "R3", "1/2-1/2", 3),
        ("R4", "U", "1-0", 4),
        ("V", "R1", "1-0", 2),
        ("R2", "V", "1-0", 3),
        ("R3", "V", "1-0", 4),
        ("X", "R1", "1-0", 3),
        ("R4", "X", "1-0", 2),
    ):
        make_game(t, tp[white], tp[black], result, round=rnd)
    return period, t


def test_before_a_list_rates_it_the_report_is_not_yet_calculated() -> None:
    _period, t = _world()
    report = tournament_rating_report(tournament=t)
    assert report is not None and report.article == "fide-2000 11.31"
    assert report.published_list is None and report.rows == ()


def test_the_report_of_11_31_by_hand(client, django_capture_on_commit_callbacks) -> None:
    period, t = _world()
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    publication.list_publish(period=period)
    report = tournament_rating_report(tournament=t)
    assert report is not None and report.floor == 1801
    got = {
        r.name.split(",")[0].split()[0]: (r.rated, r.rc, r.n, r.w, r.w_we, r.ru, r.published)
        for r in report.rows
    }
    assert got["R1"] == (True, 2000.0, 1, 1.0, 0.7, None, None)
    assert got["R4"] == (True, 1850.0, 1, 0.0, -0.7, None, None)
    assert got["R2"] == (True, 1950.0, 1, 0.5, 0.07, None, None)
    assert got["R3"] == (True, 1900.0, 1, 0.5, -0.07, None, None)
    assert got["U"] == (False, 1950.0, 3, 1.5, None, 1950.0, True)
    assert got["V"] == (False, 1900.0, 3, 1.0, None, 1775.0, False)
    assert got["X"][:3] == (False, 0, 2) and got["X"][5] is None

    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="rating-report"' in page and "fide-2000 11.31" in page
    assert page.count('<span class="badge warn">not published</span>') == 1

    api = client.get(f"/api/v1/tournaments/{t.pk}/rating-report/").json()
    assert api["asked"] and api["calculated"] and api["article"] == "fide-2000 11.31"
    by_rank = {p["start_rank"]: p for p in api["players"]}
    assert (by_rank[6]["ru"], by_rank[6]["published"]) == (1775.0, False)
    assert (by_rank[1]["rc"], by_rank[1]["w_we"]) == (2000.0, 0.7)
