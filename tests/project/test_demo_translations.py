"""Every page of the demo in Spanish, Catalan and Portuguese, with no English string of the
catalogues left (issue 14): the demo federation is built, each role's pages are walked from
its start pages by following the links, and every text of each page (text nodes, and the
placeholder, title and aria-label attributes) is compared with the catalogue's msgids whose
translation differs: such a text shown as it is in English is an untranslated string.
"""

from __future__ import annotations

import re
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

import pytest
from django.conf import settings
from django.conf.locale import LANG_INFO
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from .test_translations import LANGS, LOCALE, parse_po

#: Not pages of the site's own text: Django's admin and language switch, files, the API.
SKIP = ("/admin/", "/i18n/", "/language/", "/api/", "/accounts/logout/", "/static/", "/healthz")
PER_ROLE = 45  # pages walked per role (the demo has many players' cards: a sample is enough)
ROLES = {"anonymous": None, "player": "player", "arbiter": "arbiter", "officer": "officer"}
SPACES = re.compile(r"\s+")
DIGITS = re.compile(r"\d+")


class _Texts(HTMLParser):
    """The visible texts of a page and its same-site links."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        values = dict(attrs)
        for name in ("placeholder", "title", "aria-label"):
            if values.get(name):
                self.texts.append(SPACES.sub(" ", values[name] or "").strip())
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = SPACES.sub(" ", data).strip()
        if text and not self._skip:
            self.texts.append(text)


def _english_left(lang: str) -> set[str]:
    """The msgids (without placeholders) that read differently once translated. The language
    switch names each language in its own (English for English): not a text to translate."""
    out = set()
    for e in parse_po(LOCALE / lang / "LC_MESSAGES" / "django.po"):
        if e.obsolete or not e.msgid or "%" in e.msgid or "{" in e.msgid:
            continue
        if e.msgstr.get(0) and e.msgstr[0] != e.msgid and len(e.msgid) > 3:
            out.add(SPACES.sub(" ", e.msgid).strip())
    return out - {LANG_INFO[code]["name"] for code, _name in settings.LANGUAGES}


def _walk(client: Client) -> dict[str, str]:
    """url -> html of the pages reachable from the start pages (GET, 200, HTML only)."""
    start = ["/", "/tournaments/", "/tournaments/desk/", "/ratings/", "/players/"]
    queue, seen = deque(start), set(start)
    pages: dict[str, str] = {}
    shapes: dict[str, int] = {}  # at most 3 pages of one shape (/players/N/…): more kinds
    while queue and len(pages) < PER_ROLE:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        pages[url] = html
        parser = _Texts()
        parser.feed(html)
        for href in parser.links:
            href = urldefrag(href)[0]
            parts = urlparse(href)
            if parts.netloc or not parts.path.startswith("/") or href.startswith(SKIP):
                continue
            if "download" in parts.path or parts.path.endswith((".csv", ".txt", ".xml")):
                continue
            shape = DIGITS.sub("N", parts.path)
            if href not in seen and shapes.get(shape, 0) < 3:
                seen.add(href)
                shapes[shape] = shapes.get(shape, 0) + 1
                queue.append(href)
    return pages


@pytest.mark.slow
@pytest.mark.django_db
def test_every_demo_page_is_translated() -> None:
    call_command("demo_federation", verbosity=0)
    found: dict[str, set[tuple[str, str]]] = {}
    walked = 0
    for role, username in ROLES.items():
        for lang in LANGS:
            english = _english_left(lang)
            client = Client()
            if username:
                client.force_login(get_user_model().objects.get(username=username))
            client.cookies["django_language"] = lang
            pages = _walk(client)
            walked += len(pages)
            for url, html in pages.items():
                parser = _Texts()
                parser.feed(html)
                for text in parser.texts:
                    if text in english and text != username:  # the user's name is data
                        found.setdefault(lang, set()).add((text, f"{role} {url}"))
    assert walked > 150
    report = {lang: sorted({text for text, _where in hits}) for lang, hits in found.items()}
    assert not found, report
