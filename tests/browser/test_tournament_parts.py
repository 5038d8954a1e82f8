"""A long tournament rated in parts across two monthly periods, in Debian's Chromium (issue 23
item 1; docs/periods.md "Tournaments in parts"): the arbiter uploads part 1, the officer
closes, calculates and publishes the first month; the arbiter uploads part 2 (every round so
far), the officer publishes the second month. Each game is rated once, with its own month's
list (the hand-worked figures of tests/tournaments/test_parts.py: October's list A 2010, B
1990, C 2000, D 2000; November's A 2020, B 1980, C 1990, D 2010)."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from periods.models import PeriodStatus, RatingPeriod
from ratings.models import DraftTournament, ListEntry, PlayerRating
from tests.factories import make_period, make_player, make_system, make_tournament, make_user
from tests.tournaments.test_parts import FIDE_IDS, NAMES, month_start, trf
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _upload(page, url: str, tournament: Tournament, data: bytes, name: str) -> None:
    page.goto(url + reverse("tournaments:manage", args=[tournament.pk]))
    page.set_input_files(
        "#id_file", files=[{"name": name, "mimeType": "text/plain", "buffer": data}]
    )
    page.click("#upload-form button[type=submit]")
    expect(page.locator("#tournament-status")).to_have_text("Validated")


def _publish(page, url: str, period: RatingPeriod) -> None:
    """Close, calculate (eagerly, in the server) and publish the period from its page."""
    page.goto(url + reverse("ratings:period", args=[period.pk]))
    page.click("#close-period")
    page.click("#confirm")
    expect(page.locator("#period-status")).to_have_text("Closed")
    page.click("#calculate")
    page.click("#confirm")
    deadline = time.monotonic() + 60
    while page.locator("#run-status").get_attribute("data-status") != "succeeded":
        assert time.monotonic() < deadline, "the calculation did not finish"
        time.sleep(0.2)
        page.reload()
    page.goto(url + reverse("ratings:period", args=[period.pk]))
    page.click("#publish")
    page.click("#confirm")
    expect(page.locator("h1")).to_be_visible()
    period.refresh_from_db()
    assert period.status == PeriodStatus.PUBLISHED


def _ratings(period: RatingPeriod) -> dict[str, int]:
    return {
        e.player.surname: e.rating
        for e in ListEntry.objects.filter(published_list__period=period).select_related("player")
    }


def test_a_long_tournament_across_two_monthly_periods(browser, live_server, login) -> None:
    today = timezone.localdate()
    first = month_start(today, 2)  # both months over: the whole report exists by now
    system = make_system(name="FIDE standard", ruleset="fide-2024", cycle="monthly")
    october = make_period(system, start=first)
    arbiter = make_user("liga-arbiter", role=roles.ARBITER)
    make_user("liga-officer", role=roles.RATING_OFFICER)
    for name, fide_id in zip(NAMES, FIDE_IDS, strict=True):
        surname, given = name.split(", ")
        p = make_player(surname=surname, given_name=given, fide_id=int(fide_id), birth_year=1990)
        PlayerRating.objects.create(
            player=p, system=system, rating=2000, games=50, kind="effective"
        )
    start = first + dt.timedelta(days=19)
    tournament = make_tournament(
        system,
        arbiter,
        name="Liga de otoño",
        rounds=2,
        start_date=start,
        end_date=start + dt.timedelta(days=31),  # 32 days: over fide-2024 4.1's 30
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=90)
    )
    url = live_server.url
    officer_context = browser.new_context(locale="en-GB")
    arbiter_context = browser.new_context(locale="en-GB")
    try:
        officer, page = officer_context.new_page(), arbiter_context.new_page()
        for p in (officer, page):
            p.set_default_timeout(30_000)
        login(page, "liga-arbiter")
        login(officer, "liga-officer")

        # Part 1: round 1, as it stood at the first month's closing date.
        _upload(page, url, tournament, trf(1), "part1.trf")
        expect(page.locator("#parts-rule")).to_contain_text("fide-2024 4.1")
        expect(page.locator("#parts-table tbody tr")).to_have_count(1)
        expect(page.locator("#parts-table tr[data-part='1']")).to_have_attribute(
            "data-period", str(october.pk)
        )
        _publish(officer, url, october)
        assert _ratings(october) == {"Alba": 2010, "Bosch": 1990, "Coll": 2000, "Duran": 2000}
        november = RatingPeriod.objects.get(system=system, status=PeriodStatus.OPEN)
        assert november.start == october.end + dt.timedelta(days=1)

        # Part 2: the whole report so far; the arbiter may still send it.
        page.goto(url + reverse("tournaments:manage", args=[tournament.pk]))
        expect(page.locator("#next-part")).to_be_visible()
        _upload(page, url, tournament, trf(2), "part2.trf")
        rows = page.locator("#parts-table tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("Published: locked")
        expect(rows.nth(1)).to_have_attribute("data-period", str(november.pk))
        expect(rows.nth(1)).to_contain_text("Current part")
        _publish(officer, url, november)
        assert _ratings(november) == {"Alba": 2020, "Bosch": 1980, "Coll": 1990, "Duran": 2010}

        # Each game rated once, in its own month: two games (four lines) in each draft.
        lines = {
            d.run.period_id: d.line_count
            for d in DraftTournament.objects.filter(tournament=tournament).select_related("run")
        }
        assert lines == {october.pk: 4, november.pk: 4}
        assert sorted(
            Game.objects.filter(tournament=tournament).values_list("round", "period_id")
        ) == [(1, october.pk), (1, october.pk), (2, november.pk), (2, november.pk)]

        # The public page shows both parts, each with its period, both published.
        page.goto(url + reverse("tournaments:detail", args=[tournament.pk]))
        public = page.locator("#parts-table tbody tr")
        expect(public).to_have_count(2)
        expect(public.filter(has_text="Published: locked")).to_have_count(2)
    finally:
        officer_context.close()
        arbiter_context.close()
