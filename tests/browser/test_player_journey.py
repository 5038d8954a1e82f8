"""Issue 26's "done when", in Debian's Chromium: a player signs up, confirms his address (the
link read from the locmem outbox), claims his record and the officer approves it on his desk;
the arbiter uploads a report with him in it, it is validated and his card shows the live
change, which equals the period's calculation once the officer closes, calculates and
publishes the period from his pages; the player gets the new-list notice in his language and
unsubscribes with one click; the calculator page gives the API's figures; he downloads his
data.

Tasks run eagerly once each request commits (tests/conftest.py), in the live server's thread.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ClaimRequest
from core import roles
from core.outbox import OutboxMail
from notices.models import NoticePreference
from periods.models import RatingPeriod
from ratings.models import CalculationRun, DraftResult, LiveRating, PlayerRating, PublishedList
from tests.factories import make_period, make_player, make_system, make_tournament, make_user
from tests.tournaments.test_flow import sample_trf
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Quiet-Knight-4812"
BIRTH = dt.date(1990, 5, 1)  # Ana's birth date, as the sample report gives it


def _world():
    """The rating system and its open period, the sample report's four players (Ana, the one
    who will claim, rated 1950) and the arbiter's tournament, registered in time and over."""
    system = make_system(name="FIDE standard", ruleset="fide-2024", rate_of_play="standard")
    day = timezone.localdate() - dt.timedelta(days=2)
    period = make_period(system, start=day.replace(day=1))
    arbiter = make_user("arbitra", role=roles.ARBITER)
    tournament = make_tournament(
        system, arbiter, start_date=day, end_date=day, period=period, name="Obert de Tardor"
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=24)
    )
    jose = make_player(surname="Muñoz Pérez", given_name="José", fide_id=2200001)
    ana = make_player(
        fed_id="AN1990", surname="García López", given_name="Ana", sex="F", birth_date=BIRTH
    )
    marc = make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    make_player(surname="Nuevo Jugador", given_name="Pedro", birth_year=2001)
    for p, rating in [(jose, 2250), (ana, 1950), (marc, 2100)]:
        PlayerRating.objects.create(
            player=p, system=system, rating=rating, games=40, kind="effective"
        )
    return system, period, tournament, ana


def _new_page(browser):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def _wait_for_the_run(page) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if (
            page.locator("#run-status").get_attribute("data-status") == "succeeded"
            and page.locator("#draft").count()
        ):
            return
        time.sleep(0.1)
    pytest.fail("the calculation did not finish")


def _cell(page, cell_id: str) -> str:
    return page.locator(f"#calculator-result #{cell_id}").inner_text().split()[0]


def test_player_journey(browser, browser_page, live_server, login, settings) -> None:
    settings.SITE_URL = live_server.url  # the absolute links of the e-mails
    system, period, tournament, ana = _world()
    make_user("officer", role=roles.RATING_OFFICER)
    url = live_server.url
    me = browser_page
    me.set_default_timeout(30_000)
    mail.outbox.clear()

    # Sign up and confirm the address with the e-mail's link.
    me.goto(url + "/")
    me.goto(url + reverse("accounts:signup"))
    me.fill("#id_username", "ana")
    me.fill("#id_email", "ana@example.org")
    me.fill("#id_password1", PASSWORD)
    me.fill("#id_password2", PASSWORD)
    me.click("#signup button[type=submit]")
    me.wait_for_url(url + reverse("accounts:signup_sent"))
    user = get_user_model().objects.get(username="ana")
    assert not user.is_active
    [message] = [m for m in mail.outbox if m.to == ["ana@example.org"]]
    found = re.search(r"https?://\S+(/accounts/signup/confirm/\S+/)", str(message.body))
    assert found, message.body
    me.goto(url + found.group(1))
    me.click("#signup-confirm button[type=submit]")
    me.wait_for_url(url + reverse("accounts:claim"))
    user.refresh_from_db()
    assert user.is_active

    # Claim the record by federation ID and birth date.
    me.check("input[name=method][value=fed_id]")
    me.fill("#id_fed_id", ana.fed_id)
    me.fill("#id_birth_date", BIRTH.isoformat())
    me.click("#claim-form button[type=submit]")
    me.wait_for_selector("#claim-pending")
    claim = ClaimRequest.objects.get(user=user)
    assert claim.player_id == ana.pk and claim.status == "pending"

    # The officer approves it on his desk.
    officer = _new_page(browser)
    login(officer, "officer")
    officer.goto(url + reverse("ratings:desk"))
    officer.click(f"[data-claim='{claim.pk}'] button[name=approve][value='1']")
    officer.wait_for_selector("text=Claim approved: the account is linked.")
    ana.refresh_from_db()
    assert ana.user_id == user.pk

    # His e-mails in Spanish, from his preferences page.
    me.goto(url + reverse("notices:preferences"))
    me.select_option("#id_language", "es")
    me.click("#notice-preferences button[type=submit]")
    me.wait_for_selector(".message")
    assert NoticePreference.objects.get(user=user).language == "es"

    # The arbiter uploads the report (the claimed player in it); it is validated.
    arbiter = _new_page(browser)
    login(arbiter, "arbitra")
    arbiter.goto(url + reverse("tournaments:manage", args=[tournament.pk]))
    arbiter.set_input_files(
        "#id_file", files=[{"name": "tardor.trf", "mimeType": "text/plain", "buffer": sample_trf()}]
    )
    arbiter.click("#upload-form button[type=submit]")
    arbiter.wait_for_selector("#tournament-status")
    if (
        arbiter.locator("#confirm-players").count() == 0
        and arbiter.locator("#review-players").count()
    ):
        arbiter.click("#review-players")
    if arbiter.locator("#confirm-players").count():
        arbiter.click("#confirm-players")
        arbiter.wait_for_selector("text=The tournament is validated.")
    assert arbiter.inner_text("#tournament-status") == "Validated"
    tournament.refresh_from_db()
    assert tournament.status == "validated"

    # His card shows the live change, provisional.
    live = LiveRating.objects.get(period=period, player=ana)
    assert live.games > 0 and live.change != 0
    me.goto(url + reverse("players:detail", args=[ana.fed_id]))
    shown = me.locator("a.live").first.inner_text()
    assert shown.split() == ["live", str(live.rating_after), f"({live.change:+d})"], shown
    assert "provisional" in me.locator(f"#live-{system.code}").inner_text()

    # The officer closes, calculates and publishes the period from his pages.
    officer.goto(url + reverse("ratings:period", args=[period.pk]))
    officer.click("#close-period")
    officer.click("#confirm")
    assert officer.locator("#period-status").inner_text() == "Closed"
    officer.click("#calculate")
    officer.click("#confirm")
    _wait_for_the_run(officer)
    run = CalculationRun.objects.filter(period=period).latest("pk")
    draft = DraftResult.objects.get(run=run, player=ana)
    assert (draft.rating_before, draft.change, draft.rating_after, draft.games) == (
        live.rating_before,
        live.change,
        live.rating_after,
        live.games,
    )
    mail.outbox.clear()
    officer.click("#publish")
    officer.click("#confirm")
    published = PublishedList.objects.get(period=period)
    officer.wait_for_url(url + reverse("ratings:list", args=[published.pk]))
    assert published.entries.get(player=ana).change == live.change
    period.refresh_from_db()
    assert period.status == "published"

    # The new-list notice, in Spanish, with its one-click unsubscribe. A sent row keeps neither
    # its text nor its headers (core/outbox.py): those are read from the message delivered.
    row = OutboxMail.objects.get(kind="notice.list_published", recipients=["ana@example.org"])
    assert row.status == "sent"
    assert row.subject.startswith("Nueva lista de rating"), row.subject
    [sent] = [m for m in mail.outbox if m.to == ["ana@example.org"] and m.subject == row.subject]
    assert "Se ha publicado la lista de rating" in sent.body, sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = re.fullmatch(r"<(.+)>", sent.extra_headers["List-Unsubscribe"])
    assert unsubscribe, sent.extra_headers
    # The mail program's POST, from a context of its own: no session, no CSRF token.
    mailer = browser.new_context()
    try:
        answer = mailer.request.post(
            url + urlsplit(unsubscribe.group(1)).path, form={"List-Unsubscribe": "One-Click"}
        )
        assert answer.status == 200, answer.text()
    finally:
        mailer.close()
    preference = NoticePreference.objects.get(user=user)
    assert preference.list_published is False
    assert preference.event_rated and preference.language == "es"  # only that kind stops

    # The calculator page and the API give the same figures for the same input.
    me.goto(url + reverse("ratings:calculator"))
    me.select_option("#id_system", system.code)
    me.fill("#id_rating", "1850")
    me.fill("#id_games", "40")
    me.fill("#id_date", "2026-10-20")
    for n, (rating, result) in enumerate([(1900, "1"), (2050, "0.5"), (1880, "0")], 1):
        me.fill(f"#opp{n}", str(rating))
        me.select_option(f"#res{n}", result)
    me.click("#calculator-form button[type=submit]")
    me.wait_for_selector("#calculator-result")
    body = {
        "ruleset": "fide-2024",
        "period": {"start": "2026-10-01", "end": "2026-10-31"},
        "parameters": {},
        "players": [
            {"id": "A", "rating": 1850, "games": 40},
            {"id": "O1", "rating": 1900},
            {"id": "O2", "rating": 2050},
            {"id": "O3", "rating": 1880},
        ],
        "tournaments": [
            {
                "id": "T",
                "system": "swiss",
                "end_date": "2026-10-20",
                "rate_of_play": "standard",
                "games": [
                    {"white": "A", "black": "O1", "result": "1-0"},
                    {"white": "A", "black": "O2", "result": "1/2-1/2"},
                    {"white": "A", "black": "O3", "result": "0-1"},
                ],
            }
        ],
    }
    response = Client().post(
        "/api/v1/calculator/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    mine = next(p for p in response.json()["players"] if p["id"] == "A")
    assert int(_cell(me, "rating-before")) == mine["rating_before"] == 1850
    assert float(_cell(me, "score")) == mine["score"] == 1.5
    assert _cell(me, "expected") == f"{mine['expected']:.2f}"
    assert _cell(me, "k") == str(mine["k"])
    assert int(_cell(me, "change")) == mine["change"]
    assert int(_cell(me, "rating-after")) == mine["rating_after"]

    # His data, as JSON, from his data page.
    me.goto(url + reverse("mydata:page"))
    with me.expect_download() as info:
        me.click("#download-json")
    data = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert data["record"][0]["fed_id"] == ana.fed_id
    assert RatingPeriod.objects.filter(pk=period.pk, status="published").exists()
