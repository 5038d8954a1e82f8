"""The officer starts from the desk, closes a period after reading the summary, calculates and
watches the progress, reviews the draft list, publishes, downloads the CSV, corrects a game,
recalculates and publishes version 2, in a real browser (Chromium through Playwright).

With PostgreSQL and Redis the calculation runs in a real Celery worker (with a short pause in
the write so the progress bar has something to show); otherwise eagerly in the server.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core.roles import RATING_OFFICER
from periods.models import PeriodStatus, RatingPeriod
from ratings.models import PublishedList
from tests.factories import build, make_tournament, make_user
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


def _wait_for_the_run(page, seen: set[int]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = page.locator("#run-status").get_attribute("data-status")
        seen.add(int(page.locator("#run-percent").inner_text() or 0))
        if status == "succeeded" and page.locator("#draft").count():
            return
        time.sleep(0.1)
    pytest.fail(f"the calculation did not finish (progress seen: {sorted(seen)})")


def test_officer_desk_close_calculate_review_publish_correct_and_publish_again(
    browser_page, live_server, login, tasks_mode
) -> None:
    system, period, players, tournament = build()
    waiting = make_tournament(
        system, make_user("late-arbiter"), status="report_received", period=period, name="Waiting"
    )
    make_user("officer", role=RATING_OFFICER)
    page = browser_page
    page.set_default_timeout(30_000)
    login(page, "officer")
    # No Administration link for an officer who is not staff; the desk instead.
    assert page.locator(f"a[href='{reverse('admin:index')}']").count() == 0
    page.click("#nav-desk")
    card = page.locator(f".period-card[data-period='{period.pk}']")
    assert tournament.name in card.inner_text() and waiting.name in card.inner_text()
    assert waiting.name in page.locator("#reports-waiting").inner_text()
    card.locator(f"a[href='{reverse('ratings:period', args=[period.pk])}']").click()

    # Close: the summary names what is left out, and nothing happens until confirmed.
    page.click("#close-period")
    assert waiting.name in page.locator("#waiting").inner_text()
    assert "1" in page.locator("#left-out").inner_text()
    page.click("#confirm")
    assert page.locator("#period-status").inner_text() == "Closed"

    page.click("#calculate")
    assert tournament.name in page.locator("#summary").inner_text()
    page.click("#confirm")
    seen: set[int] = set()
    _wait_for_the_run(page, seen)
    assert page.locator("#progress").get_attribute("aria-valuenow") == "100"
    assert page.locator(".message", has_text="queued").count() == 0
    if tasks_mode == "worker":
        assert any(0 < p < 100 for p in seen), f"the bar never moved: {sorted(seen)}"

    page.click("#review-tournaments")
    assert tournament.name in page.locator("#by-tournament").inner_text()
    assert page.locator("#total-excluded").inner_text() == "1"  # the forfeit
    page.goto(live_server.url + reverse("ratings:review_player", args=[period.pk, players[0].pk]))
    table = page.locator("#calculation").inner_text()
    assert "2100" in table and "0.36" in table and "12.80" in table
    # The K decision as a sentence (ratings_notes), not the engine's raw template.
    assert (
        page.locator("#notes li[data-code='k']").inner_text()
        == "fide-2024 8.3.3 — K = 20: rating below 2400"
    )
    # The draft list, filtered to the ratings that change.
    page.goto(live_server.url + reverse("ratings:period", args=[period.pk]))
    page.click("#review-list")
    expect(page.locator("#draft-list tbody tr")).to_have_count(4)
    page.check("input[name=changed]")
    page.click("#filters button[type=submit]")
    expect(page.locator("#draft-list tbody tr")).to_have_count(2)

    page.goto(live_server.url + reverse("ratings:period", args=[period.pk]))
    page.click("#publish")
    expect(page.locator("#changed")).to_have_count(1)
    page.click("#confirm")
    published = PublishedList.objects.get(period=period)
    assert page.url.endswith(reverse("ratings:list", args=[published.pk]))
    assert "2013" in page.content()

    page.click(f"a[href='{reverse('ratings:list_downloads', args=[published.pk])}']")
    csv_href = reverse("ratings:list_download", kwargs={"pk": published.pk, "fmt": "csv"})
    with page.expect_download() as info:
        page.click(f"a[href='{csv_href}']")
    content = open(info.value.path(), encoding="utf-8-sig").read()
    assert players[0].fed_id in content and "2013" in content

    # A correction from the officer's pages: the win becomes a draw.
    page.goto(live_server.url + reverse("ratings:review_tournaments", args=[period.pk]))
    page.click("#by-tournament a.games")
    game = tournament.games.get(result="1-0")
    page.click(f"tr[data-game='{game.pk}'] a.correct")
    page.select_option("select[name=result]", "1/2-1/2")
    page.fill("textarea[name=reason]", "The scoresheet says draw.")
    page.click("#save-correction")
    expect(page.locator("#needs-recalculation")).to_have_count(1)
    period.refresh_from_db()
    assert period.needs_recalculation

    page.goto(live_server.url + reverse("ratings:period", args=[period.pk]))
    page.click("#calculate")
    page.click("#confirm")
    _wait_for_the_run(page, set())
    page.click("#publish")
    expect(page.locator("#correction")).to_have_count(1)  # version 2: no new period
    page.click("#confirm")
    assert PublishedList.objects.filter(period=period).count() == 2
    v2 = PublishedList.objects.get(period=period, version=2)
    # A draw against 2100 at 2000: 20 x (0.5 - 0.36) = 2.8, rounded to 3 (v1 had the win: +13).
    assert v2.entries.get(player=players[0]).rating == 2003
    assert RatingPeriod.objects.filter(system=system, status=PeriodStatus.OPEN).count() == 1
