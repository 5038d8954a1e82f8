"""Shared browser fixtures: Debian's Chromium driven by Playwright against pytest-django's
live_server. Tests using them are marked ``@pytest.mark.browser`` and
``@pytest.mark.django_db(transaction=True)`` (live_server runs in another thread)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(browser: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A fresh page (own cookies) with a 10-second default timeout.

    Playwright's sync API runs its own event loop, and Django's ORM refuses to run beside one
    unless DJANGO_ALLOW_ASYNC_UNSAFE is set: set for the test only (monkeypatch restores it), so
    it never leaks into later tests or their subprocesses (`manage.py check --deploy` fails on it).
    """
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def login(live_server: Any) -> Any:
    """login(page, username, password): through the real login form."""

    def _login(page: Any, username: str, password: str = "pw-12345678") -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        page.click("form [type=submit]")
        page.wait_for_load_state()

    return _login
