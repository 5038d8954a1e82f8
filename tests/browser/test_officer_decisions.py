"""The rating officer's decisions, in Debian's Chromium (docs/arbiters.md, "The officer's
decisions"): a report returned for correction that lapses (feda-1996 10.13: the clock advanced by
calling the lapse service with a later ``now``), a refusal to rate appealed by the arbiter and
upheld (fide-2024 0.4), and a blocking check overridden (fce 2.2)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from tests.tournaments.test_decisions import _reported, decision_people
from tournaments import services
from tournaments.models import Tournament, TournamentDecision

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def people():
    return decision_people()


def _manage(page: Any, live_server: Any, t: Tournament) -> None:
    page.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")


def _decide(page: Any, kind: str, reason: str) -> None:
    form = page.locator(f"#decide-{kind}")
    form.locator("textarea[name=reason]").fill(reason)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def test_return_for_correction_lapses(browser_page, live_server, login, people) -> None:
    t = _reported(Client(), people, ruleset="feda-1996")
    page = browser_page
    login(page, "dec-off")
    _manage(page, live_server, t)
    _decide(page, "return_for_correction", "Round 2 results do not add up")
    row = page.locator("#decision-list tr.decision-return_for_correction")
    expect(row).to_contain_text("feda-1996 10.13")
    expect(row.locator(".decision-state")).to_have_text("In force")
    expect(page.locator("tr.problem[data-code=returned_for_correction]")).to_have_count(1)
    expect(page.locator("#tournament-status")).to_have_text("Report received")
    decision = TournamentDecision.objects.get(tournament=t)
    assert decision.deadline == timezone.localdate() + dt.timedelta(days=28)
    # The nightly beat, the day after the deadline.
    after = timezone.now() + dt.timedelta(days=29)
    assert services.corrections_lapse(now=after) == 1
    page.reload()
    expect(row.locator(".decision-state")).to_have_text("Lapsed: counted as not reported")
    expect(page.locator("tr.problem[data-code=not_reported]")).to_have_count(1)
    expect(page.locator("#tournament-status")).to_have_text("Report received")


def test_refuse_then_appeal_upheld(browser, browser_page, live_server, login, people) -> None:
    t = _reported(Client(), people, ruleset="fide-2024")
    assert t.status == "validated"
    officer = browser_page
    login(officer, "dec-off")
    _manage(officer, live_server, t)
    _decide(officer, "refuse_rating", "Results not credible")
    expect(officer.locator("#tournament-status")).to_have_text("Report received")
    expect(officer.locator("tr.problem[data-code=rating_refused]")).to_have_count(1)

    context = browser.new_context(locale="en-GB")
    try:
        arbiter = context.new_page()
        arbiter.set_default_timeout(10_000)
        login(arbiter, "dec-arb")
        _manage(arbiter, live_server, t)
        expect(arbiter.locator("#decide-refuse_rating")).to_have_count(0)  # not his to decide
        appeal = arbiter.locator(".appeal-form")
        appeal.locator("textarea[name=grounds]").fill("The games were played; videos attached")
        appeal.locator("button[type=submit]").click()
        arbiter.wait_for_load_state()
        expect(arbiter.locator("tr.decision-refuse_rating .decision-state")).to_have_text(
            "Appealed"
        )
    finally:
        context.close()

    officer.reload()
    decide = officer.locator(".appeal-decision-form")
    decide.locator("select[name=upheld]").select_option("1")
    decide.locator("textarea[name=resolution]").fill("The videos show the games")
    decide.locator("button[type=submit]").click()
    officer.wait_for_load_state()
    expect(officer.locator("tr.decision-refuse_rating .decision-state")).to_have_text(
        "Appeal upheld: the refusal is lifted"
    )
    expect(officer.locator("#tournament-status")).to_have_text("Validated")


def test_override_a_blocking_check(browser_page, live_server, login, people) -> None:
    # fce 5.1: 60 minutes for 60 moves; 30 + 0 is below.
    t = _reported(Client(), people, ruleset="fce", base_minutes=30, increment_seconds=0)
    assert t.status == "report_received"
    page = browser_page
    login(page, "dec-off")
    _manage(page, live_server, t)
    blocking = page.locator("tr.problem-error")
    codes = blocking.evaluate_all("rows => rows.map(r => r.dataset.code)")
    assert codes
    for code in dict.fromkeys(codes):
        form = page.locator("#decide-override_check")
        form.locator("select[name=check_code]").select_option(code)
        _decide(page, "override_check", "Club championship, rated by the federation")
    expect(page.locator("#tournament-status")).to_have_text("Validated")
    overridden = page.locator("tr.problem .overridden")
    expect(overridden.first).to_contain_text("Overridden by dec-off (fce 2.2)")
    expect(page.locator("tr.problem-error")).to_have_count(0)
