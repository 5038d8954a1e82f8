"""What a browser showed (issue 29 item 5), seen in Chromium: an officer who logs in from the
home page lands on his desk, not back on the home page; the list page's "Active only"
checkbox sits level with its label."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core.roles import RATING_OFFICER
from tests.factories import build, make_published_list, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_officer_logging_in_from_the_home_page_lands_on_his_desk(
    browser_page, live_server
) -> None:
    officer = make_user("officer", role=RATING_OFFICER)
    officer.set_password("pw-12345678")
    officer.save()
    page = browser_page
    page.goto(live_server.url + "/")
    page.click("#nav-login")
    page.fill("input[name=username]", "officer")
    page.fill("input[name=password]", "pw-12345678")
    page.click("form [type=submit]")
    expect(page).to_have_url(re.compile(re.escape(reverse("ratings:desk")) + "$"))


def test_the_active_only_checkbox_is_level_with_its_label(browser_page, live_server) -> None:
    _system, period, players, _t = build()
    published = make_published_list(period, players)
    page = browser_page
    page.goto(live_server.url + reverse("ratings:list", args=[published.pk]))
    box = page.locator("#list-filters input[type=checkbox]").first.bounding_box()
    label = page.locator("#list-filters label:has(input[type=checkbox])").first
    text = label.evaluate(
        "l => { const r = document.createRange(); r.selectNodeContents(l.firstChild);"
        " const b = r.getBoundingClientRect(); return {y: b.y, height: b.height}; }"
    )
    assert box and abs((box["y"] + box["height"] / 2) - (text["y"] + text["height"] / 2)) < 4
