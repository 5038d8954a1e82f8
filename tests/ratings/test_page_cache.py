"""Whole public pages kept for anonymous visitors and shared with proxies (core/caching.py): the
player card, a list page, the player search. A kept page must change as soon as what it shows
changes (a new list version, a correction, the player's record or rating state), must never be
a logged-in user's page, must be kept per language, and must hold nothing of the visitor's own
(no CSRF token, no cookie set), since a proxy gives it to every anonymous visitor."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import PlayerRating, PublishedList
from tests.factories import (
    make_period,
    make_player,
    make_player_user,
    make_published_list,
    make_system,
)

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r"csrfmiddlewaretoken|csrf-placeholder")


def _version(period, players, *, version: int, base: int) -> PublishedList:
    """A new version of `period`'s list: players[i] rated `base` + i."""
    return make_published_list(period, players, version=version, base=base)


@pytest.fixture
def listed():
    system = make_system()
    period = make_period(system, start=dt.date(2026, 10, 1), status="published")
    players = [make_player(club="Club A", region="Madrid") for _ in range(3)]
    published = make_published_list(period, players)  # players[i] rated 2000 + i
    return period, players, published


def _page(client: Client, url: str, language: str | None = None) -> str:
    response = client.get(url, headers={"accept-language": language} if language else None)
    assert response.status_code == 200
    return response.content.decode()


def test_a_kept_card_is_served_with_one_statement(listed, django_assert_num_queries) -> None:
    _period, players, _published = listed
    url = reverse("players:detail", args=[players[1].fed_id])
    first = _page(Client(), url)
    assert "2001" in first
    with django_assert_num_queries(1):  # the card's state; the page comes from the cache
        again = _page(Client(), url)
    assert again == first


def test_a_kept_card_changes_when_a_correction_is_published(listed) -> None:
    period, players, _published = listed
    url = reverse("players:detail", args=[players[1].fed_id])
    assert ">2001<" in _page(Client(), url)
    _version(period, players, version=2, base=2100)  # the correction: players[1] now 2101
    page = _page(Client(), url)
    assert ">2101<" in page and ">2001<" not in page


def test_a_kept_card_changes_when_the_player_or_his_state_changes(listed) -> None:
    _period, players, _published = listed
    unlisted = make_player(club="Old Club")
    state = PlayerRating.objects.create(
        player=unlisted, system=listed[0].system, rating=1733, kind="rated"
    )
    url = reverse("players:detail", args=[unlisted.fed_id])
    page = _page(Client(), url)
    assert "Old Club" in page and "1733" in page
    unlisted.club = "New Club"
    unlisted.save()
    assert "New Club" in _page(Client(), url)
    state.rating = 1777
    state.save()
    page = _page(Client(), url)
    assert "1777" in page and "1733" not in page


def test_a_kept_list_page_is_marked_superseded_after_a_correction(
    listed, django_assert_num_queries
) -> None:
    period, players, published = listed
    url = reverse("ratings:list", args=[published.pk]) + "?page=1"
    assert 'id="list-current"' in _page(Client(), url)
    with django_assert_num_queries(1):  # the newest list's id; the page from the cache
        _page(Client(), url)
    corrected = _version(period, players, version=2, base=2100)
    page = _page(Client(), url)
    assert 'id="list-superseded"' in page and 'id="list-current"' not in page
    assert reverse("ratings:list", args=[corrected.pk]) in page


def test_a_logged_in_users_page_is_never_kept_nor_served_to_another(listed) -> None:
    _period, players, published = listed
    card = reverse("players:detail", args=[players[0].fed_id])
    lst = reverse("ratings:list", args=[published.pk])
    owner = make_player_user(players[0], "kept-owner", role="player")
    other = make_player_user(players[2], "kept-other", role="player")
    mine, theirs, anonymous = Client(), Client(), Client()
    mine.force_login(owner)
    theirs.force_login(other)
    for url in (card, lst):
        anonymous_first = _page(anonymous, url)  # kept for anonymous visitors
        assert mine.get(url)["Cache-Control"] == "private"  # no shared cache keeps it
        page = _page(mine, url)
        assert "kept-owner" in page and reverse("ratings:protests_mine") in page
        if url == lst:
            assert reverse("ratings:protest_create", args=[published.pk]) in page
        page = _page(theirs, url)
        assert "kept-other" in page and "kept-owner" not in page
        for page in (anonymous_first, _page(anonymous, url)):
            assert "kept-owner" not in page and "kept-other" not in page
            assert reverse("ratings:protests_mine") not in page
            assert reverse("ratings:protest_create", args=[published.pk]) not in page


@pytest.mark.parametrize(
    ("language", "word"),
    [("en", "Club"), ("es", "Club"), ("ca", "Club"), ("pt", "Clube")],
)
def test_kept_pages_are_kept_per_language(listed, language: str, word: str) -> None:
    _period, players, published = listed
    for url in (
        reverse("players:detail", args=[players[1].fed_id]),
        reverse("ratings:list", args=[published.pk]),
        reverse("players:list") + "?q=surname",
    ):
        for language_asked in ("en", "es", "ca", "pt"):  # every language kept in turn
            _page(Client(), url, language_asked)
        client = Client()
        client.cookies["django_language"] = language
        page = _page(client, url)
        assert f'<html lang="{language}">' in page
        assert word in page


def test_an_anonymous_page_is_public_and_holds_nothing_of_the_visitors(listed) -> None:
    """No token, no cookie set, `Cache-Control: public` with a max-age: a proxy may give the
    page to every anonymous visitor. The language is switched by a link (a GET)."""
    _period, players, published = listed
    url = reverse("players:detail", args=[players[1].fed_id])
    for address in (
        url,
        reverse("ratings:list", args=[published.pk]),
        reverse("players:list") + "?q=surname",
    ):
        for _ in range(2):  # the first renders and keeps the page, the second is served from it
            client = Client(enforce_csrf_checks=True)
            response = client.get(address)
            page = response.content.decode()
            assert response.status_code == 200
            assert not _TOKEN.search(page)
            assert not response.cookies  # no session, no CSRF cookie
            assert response["Cache-Control"] == "public, max-age=60"
            assert response["ETag"]
    switch = reverse("language", args=["es"]) + "?next=" + url
    assert f'href="{reverse("language", args=["es"])}?next=/players/' in _page(Client(), url)
    client = Client()
    response = client.get(switch)
    assert response.status_code == 302 and response["Location"] == url
    assert "no-cache" in response["Cache-Control"]  # the cookie is the visitor's own
    assert '<html lang="es">' in _page(client, url)


def test_requests_with_a_session_or_a_message_are_rendered(
    listed, django_assert_max_num_queries
) -> None:
    _period, players, _published = listed
    url = reverse("players:detail", args=[players[1].fed_id])
    _page(Client(), url)  # kept
    client = Client()
    client.cookies["messages"] = "anything"
    with django_assert_max_num_queries(100) as captured:
        _page(client, url)
    assert len(captured.captured_queries) > 1  # rendered, not served from the cache
    odd = Client()
    with django_assert_max_num_queries(100) as captured:
        _page(odd, url + "?utm=x")  # a parameter the card does not take: not kept
    assert len(captured.captured_queries) > 1


def test_a_kept_search_page_is_served_without_the_database(django_assert_num_queries) -> None:
    make_player(surname="Keptsearch", given_name="Ana")
    url = reverse("players:list") + "?q=keptsearch"
    assert "Keptsearch" in _page(Client(), url)
    with django_assert_num_queries(0):
        assert "Keptsearch" in _page(Client(), url)


def test_a_kept_page_answers_304_to_its_visitor_until_it_changes(listed) -> None:
    period, players, _published = listed
    url = reverse("players:detail", args=[players[1].fed_id])
    client = Client()
    first = client.get(url)
    etag = first["ETag"]
    assert first["Cache-Control"] == "public, max-age=60"
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    # The page is everyone's: another visitor (a proxy revalidating) gets the 304 too.
    assert Client().get(url, headers={"if-none-match": etag}).status_code == 304
    # A correction: the page changes, so does its ETag.
    _version(period, players, version=2, base=2100)
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 200 and ">2101<" in again.content.decode()
    assert again["ETag"] != etag
