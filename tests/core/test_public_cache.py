"""Public pages a proxy may share (core/caching.py, docs/caching.md): every anonymous public
page answers `Cache-Control: public` with a max-age and an ETag, sets no cookie and holds no
CSRF token; a logged-in user's page is `private`; the language links (core.views.
language_switch) set the cookie and go back, only to this site."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import build, make_published_list, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def addresses() -> list[str]:
    system, period, players, tournament = build()
    published = make_published_list(period, players)
    return [
        reverse("home"),
        reverse("players:detail", args=[players[0].fed_id]),
        reverse("ratings:list", args=[published.pk]),
        reverse("ratings:list", args=[published.pk]) + "?top=open",
        reverse("ratings:systems"),
        reverse("ratings:system", args=[system.code]),
        reverse("players:list") + "?q=" + players[0].surname,
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[tournament.pk]),
    ]


def test_every_anonymous_public_page_is_public_without_cookie_nor_token(addresses) -> None:
    for address in addresses:
        for _ in range(2):  # rendered, then (the card, lists, search) from the cache
            response = Client(enforce_csrf_checks=True).get(address)
            assert response.status_code == 200, address
            assert response["Cache-Control"] == "public, max-age=60", address
            assert response["ETag"].startswith('"'), address
            assert not response.cookies, address  # no session, no CSRF cookie
            assert b"csrfmiddlewaretoken" not in response.content, address
            # It varies on the language's sources (docs/caching.md: the proxy keys on them).
            vary = {v.strip() for v in response["Vary"].split(",")}
            assert {"Accept-Language", "Cookie"} <= vary, address


def test_a_public_page_answers_304_to_its_etag(addresses) -> None:
    for address in addresses:
        etag = Client().get(address)["ETag"]
        again = Client().get(address, headers={"if-none-match": etag})
        assert again.status_code == 304, address
        assert again["Cache-Control"] == "public, max-age=60"
        # Another language is another page, another ETag.
        spanish = Client().get(address, headers={"accept-language": "es"})
        assert spanish.status_code == 200 and spanish["ETag"] != etag, address


def test_a_logged_in_users_pages_are_private(addresses) -> None:
    client = Client()
    client.force_login(make_user("private-reader"))
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200
        assert response["Cache-Control"] == "private", address
        assert "private-reader" in response.content.decode()


def test_the_language_link_sets_the_cookie_and_goes_back_to_this_site_only() -> None:
    client = Client()
    response = client.get(reverse("language", args=["ca"]), {"next": "/players/?q=a%20b"})
    assert response.status_code == 302 and response["Location"] == "/players/?q=a%20b"
    assert response.cookies["django_language"].value == "ca"
    assert "no-store" in response["Cache-Control"]
    assert '<html lang="ca">' in client.get(reverse("home")).content.decode()
    for elsewhere in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.get(reverse("language", args=["pt"]), {"next": elsewhere})
        assert response["Location"] == reverse("home")
    # A language the site does not have: back, nothing set.
    response = Client().get(reverse("language", args=["xx"]), {"next": "/players/"})
    assert response["Location"] == "/players/" and "django_language" not in response.cookies
    assert Client().post(reverse("language", args=["es"])).status_code == 405


def test_each_page_links_every_language_back_to_itself() -> None:
    html = Client().get(reverse("players:list") + "?q=ana&page=2").content.decode()
    for code in ("en", "es", "ca", "pt"):
        link = reverse("language", args=[code]) + "?next=/players/%3Fq%3Dana%26page%3D2"
        assert f'href="{link}"' in html


def test_the_language_links_name_each_language_and_mark_the_current_one(settings) -> None:
    """core.templatetags.language_links: each language's own name, its switch's address (under
    the site's script prefix too), the current language marked."""
    from django.urls import set_script_prefix
    from django.utils.translation import get_language_info

    html = Client().get(reverse("home"), headers={"accept-language": "es"}).content.decode()
    for code, _name in settings.LANGUAGES:
        link = reverse("language", args=[code]) + "?next=/"
        name = get_language_info(code)["name_local"]
        current = ' aria-current="true"' if code == "es" else ""
        expected = (
            f'<a href="{link}" lang="{code}" hreflang="{code}" title="{name}"{current}>'
            f"{code.upper()}</a>"
        )
        assert expected in html, code
    # Under a script prefix (the test client does not set it: WSGIHandler does).
    settings.FORCE_SCRIPT_NAME = "/office/"
    set_script_prefix("/office/")
    try:
        html = Client().get(reverse("home")).content.decode()
        assert reverse("language", args=["ca"]).startswith("/office/")
        assert f'href="{reverse("language", args=["ca"])}?next=' in html
    finally:
        set_script_prefix("/")
