"""The statistics page of a rating system (feda-1996 11.1, fide-2000 12.3) at 1280 and 390 px:
the charts drawn, a table beside each, nothing wider than the screen (Chromium through
Playwright)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.statistics import services
from tests.factories import make_period, make_player, make_published_list, make_system

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_statistics_page_fits_wide_and_narrow_screens(browser_page, live_server) -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral", name="FEDA Estándar")
    players = [
        make_player(region=["Madrid", "Comunidad Valenciana", ""][i % 3], birth_year=1950 + i)
        for i in range(60)
    ]
    start = dt.date(2025, 6, 1)
    for shift in range(3):
        period = make_period(system, start=start)
        entries = [
            {"rating": 1900 + 10 * shift + i, "change": i % 5 - 2, "games": i % 4}
            for i in range(len(players))
        ]
        published = make_published_list(period, players, entries=entries)
        services.list_statistics_publish_step(published=published)
        start = (start + dt.timedelta(days=190)).replace(day=1)
    page = browser_page
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/ratings/{system.code}/statistics/")
        assert page.locator("svg.scale-chart").count() == 3
        assert page.locator("svg.scale-chart path.chart-series").count() == 4 + 3 + 1
        assert page.locator("section.card table").count() >= 3 + 3
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (width, overflow)
