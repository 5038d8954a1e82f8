"""Shared browser fixtures: Debian's Chromium driven by Playwright against pytest-django's
live_server. Tests using them are marked ``@pytest.mark.browser`` and
``@pytest.mark.django_db(transaction=True)`` (live_server runs in another thread)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module.

    While Playwright's sync API is active, its event loop runs in the main thread, and Django's
    ORM refuses to run beside one unless DJANGO_ALLOW_ASYNC_UNSAFE is set. It is set only while
    the browser lives (module scope) and restored afterwards, so it never leaks into other tests
    or their subprocesses (`manage.py check --deploy` fails on it).
    """
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed")
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def browser_page(browser: Any) -> Iterator[Any]:
    """A fresh page (own cookies) with a 10-second default timeout."""
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
