"""The officer closes a period, calculates and watches the progress, reviews, publishes and
downloads the CSV, in a real browser (Chromium through Playwright).

With PostgreSQL and Redis the calculation runs in a real Celery worker (with a short pause in
the write so the progress bar has something to show); otherwise eagerly in the server.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from core.roles import RATING_OFFICER
from ratings.models import PublishedList
from tests.factories import build, make_user
from tests.workers import redis_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tasks_mode(request) -> str:
    if redis_up():
        # A worker whose draft write pauses 3 s half-way, so the page can see the bar move.
        request.getfixturevalue("stalled_writes").arm(seconds=3)
        request.getfixturevalue("celery_broker")()
        return "worker"
    return "eager"


def test_officer_closes_calculates_reviews_publishes_and_downloads(
    browser_page, live_server, login, tasks_mode
) -> None:
    system, period, players, tournament = build()
    make_user("officer", role=RATING_OFFICER)
    page = browser_page
    page.set_default_timeout(30_000)
    login(page, "officer")
    page.goto(live_server.url + reverse("ratings:system", args=[system.code]))
    page.click(f"a[href='{reverse('ratings:period', args=[period.pk])}']")
    page.click("#close-period")
    assert page.locator("#period-status").inner_text() == "Closed"

    page.click("#calculate")
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = page.locator("#run-status").get_attribute("data-status")
        seen.add(int(page.locator("#run-percent").inner_text() or 0))
        if status == "succeeded" and page.locator("#draft").count():
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the calculation did not finish (progress seen: {sorted(seen)})")
    assert page.locator("#progress").get_attribute("aria-valuenow") == "100"
    if tasks_mode == "worker":
        assert any(0 < p < 100 for p in seen), f"the bar never moved: {sorted(seen)}"

    page.click("#review-tournaments")
    assert tournament.name in page.locator("#by-tournament").inner_text()
    page.goto(live_server.url + reverse("ratings:review_player", args=[period.pk, players[0].pk]))
    table = page.locator("#calculation").inner_text()
    assert "2100" in table and "0.36" in table and "12.80" in table
    # The K decision as a sentence (ratings_notes), not the engine's raw template.
    assert (
        page.locator("#notes li[data-code='k']").inner_text()
        == "fide-2024 8.3.3 — K = 20: rating below 2400"
    )
    page.goto(live_server.url + reverse("ratings:period", args=[period.pk]))
    page.click("#publish")
    published = PublishedList.objects.get(period=period)
    assert page.url.endswith(reverse("ratings:list", args=[published.pk]))
    assert "2013" in page.content()

    page.click(f"a[href='{reverse('ratings:list_downloads', args=[published.pk])}']")
    csv_href = reverse("ratings:list_download", kwargs={"pk": published.pk, "fmt": "csv"})
    with page.expect_download() as info:
        page.click(f"a[href='{csv_href}']")
    content = open(info.value.path(), encoding="utf-8-sig").read()
    assert players[0].fed_id in content and "2013" in content
