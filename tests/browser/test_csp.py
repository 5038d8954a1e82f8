"""Pages load in Chromium under the Content-Security-Policy with no violation, and the
behaviour moved out of the templates into static/js/site.js still works (the language switch,
the progress bar). The listener is shown to catch a violation: an inline script slipped into a
page is reported."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from core.roles import RATING_OFFICER
from periods import services as period_services
from ratings.calculation import runs
from tests.factories import build, make_import_job, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch(page: Any) -> list[str]:
    """Console messages of CSP violations (Chromium logs each one as an error)."""
    seen: list[str] = []

    def on_console(message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            seen.append(text)

    page.on("console", on_console)
    return seen


def test_pages_load_with_no_csp_violation(browser_page, live_server, login) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    runs.calculation_request(period=period)  # eager: the run is done, its bar at 100 %
    officer = make_user("officer", role=RATING_OFFICER)
    job = make_import_job(system, officer)
    page = browser_page
    violations = watch(page)
    login(page, "officer")
    paths = [
        reverse("home"),
        reverse("players:list") + "?q=a",
        reverse("players:detail", args=[players[0].fed_id]),
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[tournament.pk]),
        reverse("tournaments:manage", args=[tournament.pk]),
        reverse("tournaments:crosstable", args=[tournament.pk]),
        reverse("ratings:systems"),
        reverse("ratings:system", args=[system.code]),
        reverse("ratings:period", args=[period.pk]),
        reverse("ratings:review_statuses", args=[period.pk]),
        reverse("ratings:list_import"),
        reverse("ratings:list_import_job", args=[job.pk]),
        reverse("ratings:protests"),
        "/no-such-page/",
        "/admin/",
    ]
    for path in paths:
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
    assert not violations, "\n".join(violations)

    # The progress bar is painted by the static script from aria-valuenow.
    page.goto(live_server.url + reverse("ratings:period", args=[period.pk]))
    fill_width = page.eval_on_selector("#progress span", "el => el.style.width")
    assert fill_width == "100%"

    # The language switch is a link (a GET that sets the cookie and comes back to the page).
    with page.expect_navigation():
        page.click(".lang-links a[hreflang=es]")
    assert page.locator("html").get_attribute("lang") == "es"
    assert not violations, "\n".join(violations)


def test_the_listener_catches_an_inline_script(browser_page, live_server) -> None:
    page = browser_page
    violations = watch(page)

    def with_inline_script(route: Any) -> None:
        response = route.fetch()
        body = response.text().replace("</body>", "<script>document.title='x'</script></body>")
        route.fulfill(response=response, body=body)

    page.route(live_server.url + "/", with_inline_script)
    page.goto(live_server.url + "/")
    page.wait_for_load_state("load")
    assert violations and "script" in violations[0]
    assert page.title() != "x"


def test_the_api_reference_renders_under_the_strict_policy(browser_page, live_server) -> None:
    """The Swagger UI page renders the schema with no violation of the site's policy (Redoc's
    old address leads there: its bundle asked Redocly's CDN for a logo on every view)."""
    page = browser_page
    violations = watch(page)
    page.goto(live_server.url + "/api/v1/redoc/")
    assert page.url.endswith("/api/v1/docs/")
    page.wait_for_selector("text=Rating office API", timeout=15_000)
    assert page.locator("text=/api/v1/calculator/").count() >= 1
    assert violations == []
