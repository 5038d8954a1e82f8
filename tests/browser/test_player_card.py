"""A player finds himself by typing his name without accents, opens his card, sees the rating
chart and opens a period's calculation game by game (Chromium through Playwright)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ratings.publication import services as publication
from tests.factories import build, calculate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_finds_his_card_chart_and_calculation(browser_page, live_server) -> None:
    system, period, players, tournament = build()
    me = players[1]
    me.surname, me.given_name = "García Núñez", "Raúl"
    me.save()
    calculate(period)
    published = publication.list_publish(period=period)

    page = browser_page
    page.goto(live_server.url + "/")
    page.fill("#q", "raul garcia nunez")
    page.press("#q", "Enter")
    page.wait_for_load_state()
    page.click("text=García Núñez, Raúl")
    # The address changes when the navigation commits, before the card is parsed: count()
    # does not wait, expect() does (a loaded CI machine once read the card half-parsed).
    expect(page).to_have_url(
        re.compile(re.escape(reverse("players:detail", args=[me.fed_id])) + "$")
    )
    page.wait_for_load_state()
    chart = page.locator("svg.rating-chart")
    expect(chart).to_have_count(1)
    expect(chart.locator("circle.chart-point")).to_have_count(1)
    # The same figures as a table, and the link to the period's calculation.
    expect(page.locator(".history-table tbody tr")).to_have_count(1)
    page.click("text=game by game")
    calculation = reverse("players:calculation", args=[me.fed_id, published.pk])
    expect(page).to_have_url(re.compile(re.escape(calculation) + "$"))
    page.wait_for_load_state()
    rows = page.locator("table.calculation tbody tr")
    expect(rows).to_have_count(1)
    cells = rows.first.locator("td").all_inner_texts()
    assert cells[0] == str(players[0])  # he lost to players[0] (2000) in round 1
    assert cells[1] == "2000" and cells[2] == "0.0"
    assert page.locator("h3").first.inner_text() == tournament.name
