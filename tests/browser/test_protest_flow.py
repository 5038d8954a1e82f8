"""A player files a protest and follows it; the officer asks for information, the player
answers, the officer upholds; the corrected list is published and the player sees the decision
and the corrected list, in a real browser (Chromium through Playwright)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.roles import PLAYER, RATING_OFFICER
from periods import services as period_services
from protests.models import Protest
from ratings.calculation import runs
from ratings.publication import services as publication
from tests.factories import build, make_player_user, make_user
from tournaments.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def test_player_protests_officer_asks_player_answers_officer_upholds(
    browser, live_server, login
) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    runs.calculation_request(period=period)  # eager, on commit
    v1 = publication.list_publish(period=period)
    player = make_player_user(players[0], "ana", role=PLAYER)
    make_user("olga", role=RATING_OFFICER)

    def new_page(username: str):
        page = browser.new_context(locale="en-GB").new_page()
        page.set_default_timeout(15_000)
        login(page, username)
        return page

    # The player files the protest from the list's page.
    ana = new_page("ana")
    ana.goto(live_server.url + reverse("ratings:list", args=[v1.pk]))
    ana.click(f"a[href='{reverse('ratings:protest_create', args=[v1.pk])}']")
    ana.select_option("select[name=tournament]", str(tournament.pk))
    ana.fill("textarea[name=text]", "Round 1 was a draw, not a loss. <script>x</script>")
    ana.set_input_files(
        "input[name=attachment]",
        {"name": "scoresheet.png", "mimeType": "image/png", "buffer": PNG},
    )
    ana.click("form.stacked-form [type=submit]")
    protest = Protest.objects.get()
    assert protest.submitted_by == player and protest.attachment.content_type == "image/png"
    assert ana.locator("#protest-status").inner_text() == "Submitted"
    assert "<script>x</script>" in ana.locator("main").inner_text()  # shown as text
    # …and finds it on "My protests" (the navigation's link).
    ana.click(f"nav a[href='{reverse('ratings:protests_mine')}']")
    assert "Submitted" in ana.locator("#my-protests").inner_text()

    # The officer asks for information from the officers' list.
    olga = new_page("olga")
    olga.goto(live_server.url + reverse("ratings:protests") + "?status=open")
    olga.click(f"#office-protests a[href='{reverse('ratings:protest', args=[protest.pk])}']")
    olga.fill("textarea[name=request]", "Send the signed scoresheet, please.")
    olga.click("#request-form [type=submit]")
    assert olga.locator("#protest-status").inner_text() == "Waiting for your information"

    # The player answers on the same page.
    ana.goto(live_server.url + reverse("ratings:protest", args=[protest.pk]))
    assert "Send the signed scoresheet" in ana.locator("#information-request").inner_text()
    ana.fill("textarea[name=answer]", "Attached to the protest: both signatures.")
    ana.click("#answer-form [type=submit]")
    assert ana.locator("#protest-status").inner_text() == "Submitted"

    # The officer upholds with reasons.
    olga.reload()
    assert "both signatures" in olga.locator("#information-answer").inner_text()
    olga.select_option("#decide-form select[name=upheld]", "1")
    olga.fill("#decide-form textarea[name=decision]", "The scoresheet shows a draw.")
    olga.click("#decide-form [type=submit]")
    assert olga.locator("#protest-status").inner_text() == "Upheld"
    kept = olga.locator("#change-history").inner_text()
    assert "Submitted → Waiting for your information" in kept  # every step in the history
    assert "Waiting for your information → Submitted" in kept
    assert "Submitted → Upheld" in kept

    # The correction: the game becomes a draw, the period is recalculated, v2 published.
    Game.objects.filter(tournament=tournament, round=1, white__player=players[0]).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    runs.calculation_request(period=period)
    v2 = publication.list_publish(period=period, note="Protest upheld")

    # The player sees the decision and the corrected list.
    ana.goto(live_server.url + reverse("ratings:protests_mine"))
    row = ana.locator("#my-protests tbody tr").first
    assert "Upheld" in row.inner_text() and "The scoresheet shows a draw." in row.inner_text()
    ana.click("#my-protests a.corrected-link")
    assert ana.url.endswith(reverse("ratings:list", args=[v2.pk]))
    ana.goto(live_server.url + reverse("ratings:protest", args=[protest.pk]))
    assert ana.locator("#protest-decision").inner_text() == "The scoresheet shows a draw."
    assert "(version 2)" in ana.locator("#corrected-list").inner_text()
    assert "History of changes" in ana.locator("#change-history").inner_text()
