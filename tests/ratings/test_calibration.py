"""cnxc-2000 7.3 as a step of the period's calculation (ratings/calculation/calibration.py):
the ICCF list in force the day after the period is read from the imports, the players in both
lists counted, the mean difference applied (or not, under 8), stored per run; never applied
twice. Figures worked by hand from 7.3 b:

CNXC (effective, no games this period)  2000 2100 2200 2300 2400 2500 2050 2150
ICCF list of 1 July                      2010 2115 2212 2313 2410 2515 2062 2163
differences                                10   15   12   13   10   15   12   13  = 100
8 players: mean difference 100 / 8 = 12.5, rounded half up (6.6) +13 to every effective rating.
Without the eighth (2150/2163): 7 players, no calibration (87 / 7 would have been +12).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from core.jobs import JobStatus
from core.roles import RATING_OFFICER
from lists.imports.external import external_list_import
from periods.models import RatingPeriod
from ratings.models import Calibration, CalibrationEntry, DraftResult
from ratings.models.states import PlayerRating
from ratings.publication import services as publication
from tests.factories import calculate as factory_calculate
from tests.factories import make_period, make_player, make_system, make_user

pytestmark = pytest.mark.django_db

CNXC = [2000, 2100, 2200, 2300, 2400, 2500, 2050, 2150]
ICCF = [2010, 2115, 2212, 2313, 2410, 2515, 2062, 2163]
JULY = dt.date(2026, 7, 1)


def world(in_list: int = 8):
    system = make_system(ruleset="cnxc-2000", cycle="semestral")
    period = make_period(system, start=dt.date(2026, 1, 1), end=dt.date(2026, 6, 30))
    players = [make_player(iccf_id=900000 + i) for i in range(len(CNXC))]
    for p, rating in zip(players, CNXC, strict=True):
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=rating,
            games=60,
            kind="effective",
            last_game_date=dt.date(2025, 5, 1),
        )
    rows = "\n".join(f"{900000 + i}\tPOR\t\tX{i}, Y\t50\t{ICCF[i]}" for i in range(in_list))
    external_list_import(
        source="iccf",
        list_date=JULY,  # 7.3: the list in force on 1 July, the day after the period
        data=f"ICCF-id\tCountry\tTitle\tName\tGames\tRating\n{rows}\n".encode(),
    )
    return system, period, players


@pytest.fixture
def calculate(django_capture_on_commit_callbacks):
    """The period closed and calculated (the run starts when its request commits)."""

    def run_it(period):
        with django_capture_on_commit_callbacks(execute=True):
            run = factory_calculate(period)
        run.refresh_from_db()
        return run

    return run_it


def after(run) -> dict[int, int | None]:
    return dict(DraftResult.objects.filter(run=run).values_list("player_id", "rating_after"))


def test_calibration_with_8_players_in_both_lists(calculate) -> None:
    system, period, players = world()
    run = calculate(period)
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert after(run) == {p.pk: r + 13 for p, r in zip(players, CNXC, strict=True)}
    cal = Calibration.objects.get(run=run)
    assert (cal.article, cal.read_on, cal.list_date, cal.players) == (
        "cnxc-2000 7.3",
        JULY,
        JULY,
        8,
    )
    assert (cal.mean_difference, cal.shift, cal.applied, cal.reason) == (
        Decimal("12.500"),
        13,
        True,
        "applied",
    )
    entries = {
        e.player_id: (e.in_both_lists, e.reference, e.rating_before, e.rating_after)
        for e in CalibrationEntry.objects.filter(calibration=cal)
    }
    assert entries == {
        p.pk: (True, iccf, cnxc, cnxc + 13)
        for p, cnxc, iccf in zip(players, CNXC, ICCF, strict=True)
    }


def test_no_calibration_with_7_players_in_both_lists(calculate) -> None:
    system, period, players = world(in_list=7)
    run = calculate(period)
    assert after(run) == {p.pk: r for p, r in zip(players, CNXC, strict=True)}
    cal = Calibration.objects.get(run=run)
    assert (cal.players, cal.applied, cal.reason, cal.shift, cal.mean_difference) == (
        7,
        False,
        "too_few_players",
        0,
        None,
    )
    assert CalibrationEntry.objects.filter(calibration=cal, in_both_lists=True).count() == 7


def test_no_list_in_force(calculate) -> None:
    system, period, players = world()
    RatingPeriod.objects.filter(pk=period.pk).update(
        start=dt.date(2025, 7, 1), end=dt.date(2025, 12, 31)
    )
    period.refresh_from_db()
    run = calculate(period)
    cal = Calibration.objects.get(run=run)
    assert (cal.reason, cal.applied, cal.external_list) == ("no_list", False, None)
    assert after(run) == {p.pk: r for p, r in zip(players, CNXC, strict=True)}


def test_not_applied_twice(calculate) -> None:
    system, period, players = world()
    # A second calculation of the same period replaces the first: +13 once, one calibration.
    calculate(period)
    run = calculate(period)
    assert after(run) == {p.pk: r + 13 for p, r in zip(players, CNXC, strict=True)}
    assert Calibration.objects.filter(period=period).count() == 1
    publication.list_publish(period=period)
    # The next period: no newer ICCF list was imported, so the list in force on 1 January is
    # the one already applied: not applied again.
    following = RatingPeriod.objects.filter(system=system, start=dt.date(2026, 7, 1)).first()
    following = following or make_period(
        system, start=dt.date(2026, 7, 1), end=dt.date(2026, 12, 31)
    )
    later = calculate(following)
    assert later.status == JobStatus.SUCCEEDED, later.error
    cal = Calibration.objects.get(run=later)
    assert (cal.reason, cal.applied, cal.shift) == ("already_used", False, 0)
    assert after(later) == {p.pk: r + 13 for p, r in zip(players, CNXC, strict=True)}


def test_the_review_page_and_the_api_show_it(calculate, client) -> None:
    system, period, players = world()
    calculate(period)
    officer = make_user(role=RATING_OFFICER)
    client.force_login(officer)
    period_page = client.get(f"/ratings/periods/{period.pk}/").content.decode()
    assert 'id="review-calibration"' in period_page and "+13" in period_page
    page = client.get(f"/ratings/periods/{period.pk}/review/calibration/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="calibration-players">8' in html and "12.500" in html and "cnxc-2000 7.3" in html
    assert html.count("<tr>") == 1 + 8  # the header and the eight players
    api = APIClient()
    api.force_authenticate(officer)
    got = api.get(f"/api/v1/periods/{period.pk}/calibration/").json()
    assert (got["players"], got["mean_difference"], got["shift"], got["applied"]) == (
        8,
        12.5,
        13,
        True,
    )
    assert sorted(
        (e["rating_before"], e["reference"], e["rating_after"]) for e in got["entries"]
    ) == sorted((c, i, c + 13) for c, i in zip(CNXC, ICCF, strict=True))
    lists = api.get("/api/v1/external-lists/").json()
    assert [(x["source"], x["list_date"], x["rows"]) for x in lists["results"]] == [
        ("iccf", "2026-07-01", 8)
    ]
