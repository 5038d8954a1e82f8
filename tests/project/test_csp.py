"""A strict Content-Security-Policy, and pages that need no exception to it.

Every page of the authorization matrix (tests/project/test_authorization_matrix.py), fetched
by GET as each role, plus the admin's main pages: an HTML answer carries the policy header
(scripts and styles from 'self' only, no 'unsafe-inline') and its markup holds no inline
script, no <style> element, no style="" attribute and no on*= handler, which that policy
would block in a browser. tests/browser/test_csp.py loads pages in Chromium and listens for
violation reports.
"""

from __future__ import annotations

from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from django.test import Client

from tests.project.authorization_cases import ROLES
from tests.project.test_authorization_matrix import EXPECTED

pytestmark = pytest.mark.django_db

# A <script> with one of these types is a data block, never run: the policy does not apply.
DATA_TYPES = {"application/json", "application/ld+json"}


class InlineFinder(HTMLParser):
    """Collects what a strict policy would block: inline scripts, <style>, style and on*
    attributes, javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        where = f"line {self.getpos()[0]}"
        named = dict(attrs)
        for name, value in attrs:
            if name == "style":
                self.found.append(f"{where}: style attribute on <{tag}>: {value!r}")
            elif name.startswith("on"):
                self.found.append(f"{where}: handler {name}= on <{tag}>")
            elif name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"{where}: javascript: URL on <{tag}>")
        if tag == "style":
            self.found.append(f"{where}: <style> element")
        if tag == "script":
            kind = (named.get("type") or "").lower()
            self._script = None if ("src" in named or kind in DATA_TYPES) else where

    def handle_data(self, data: str) -> None:
        if self._script is not None and data.strip():
            self.found.append(f"{self._script}: inline <script>: {data.strip()[:60]!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def inline_code(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    finder.close()
    return finder.found


def test_the_finder_sees_what_the_policy_blocks() -> None:
    """The checker itself: each kind of inline code is reported, external and data scripts not."""
    html = (
        '<div style="width: 5%"></div><select onchange="x()"></select><style>p{}</style>'
        '<script>alert(1)</script><a href="javascript:alert(1)">x</a>'
        '<script src="/static/js/site.js"></script>'
        '<script type="application/json" id="d">{"a": 1}</script>'
    )
    found = inline_code(html)
    assert len(found) == 5, found
    assert inline_code('<p class="x">ok</p><script src="/a.js" defer></script>') == []


def policy(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy", "")
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def test_the_policy_is_strict(client: Client) -> None:
    directives = policy(client.get("/"))
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    every = " ".join(w for words in directives.values() for w in words)
    assert "unsafe-inline" not in every and "unsafe-eval" not in every


ADMIN_PAGES = (
    "/admin/",
    "/admin/players/player/",
    "/admin/players/player/add/",
    "/admin/auth/user/",
    "/admin/ratings/publishedlist/",
)


def test_no_page_needs_inline_code(world: SimpleNamespace) -> None:
    problems: list[str] = []
    pages = 0
    for pattern, case in EXPECTED.items():
        for role, user in zip(ROLES, world.users, strict=True):
            if role in ("other player", "other arbiter"):
                continue
            client = Client()
            if user is not None:
                client.force_login(user)
            path = case.path(world)
            response = client.get(path)
            if "text/html" not in response.get("Content-Type", ""):
                continue
            pages += 1
            if "script-src 'self'" not in response.get("Content-Security-Policy", ""):
                problems.append(f"{path} as {role}: no Content-Security-Policy header")
            body = b"".join(response) if response.streaming else response.content
            problems += [f"{path} ({pattern}) as {role}: {p}" for p in inline_code(body.decode())]
    admin = Client()
    admin.force_login(world.users[-1])
    for path in ADMIN_PAGES:
        response = admin.get(path)
        assert response.status_code == 200, path
        pages += 1
        problems += [f"{path} as admin: {p}" for p in inline_code(response.content.decode())]
    assert pages > 60
    assert not problems, "\n".join(problems)


def test_error_pages_need_no_inline_code(client: Client) -> None:
    response = client.get("/players/%00/")
    assert response.status_code == 400
    assert inline_code(response.content.decode()) == []
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert inline_code(response.content.decode()) == []
