"""After logging in each role lands on its own page (core.views.landing), unless the login
page was given a `next` address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from core.roles import ARBITER, PLAYER, RATING_OFFICER
from tests.factories import make_player, make_player_user, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"


def _login(client, user, **extra):
    user.set_password(PASSWORD)
    user.save()
    data = {"username": user.username, "password": PASSWORD}
    response = client.post(reverse("login") + extra.get("query", ""), data)
    assert response.status_code == 302
    return client.get(response["Location"])


def test_each_role_lands_on_its_own_page(client) -> None:
    officer = make_user("officer", role=RATING_OFFICER)
    assert _login(client, officer)["Location"] == reverse("ratings:desk")
    client.logout()
    arbiter = make_user("arbiter", role=ARBITER)
    assert _login(client, arbiter)["Location"] == reverse("tournaments:desk")
    client.logout()
    player = make_player()
    user = make_player_user(player, "player", role=PLAYER)
    assert _login(client, user)["Location"] == reverse("players:detail", args=[player.fed_id])
    client.logout()
    nobody = get_user_model().objects.create_user("nobody")
    assert _login(client, nobody)["Location"] == reverse("home")


def test_a_next_address_still_wins(client) -> None:
    officer = make_user("officer2", role=RATING_OFFICER)
    officer.set_password(PASSWORD)
    officer.save()
    response = client.post(
        reverse("login") + "?next=/players/",
        {"username": "officer2", "password": PASSWORD, "next": "/players/"},
    )
    assert response["Location"] == "/players/"


def test_the_home_page_as_next_lands_on_the_desk(client) -> None:
    """The home page's "Log in" link, or an old bookmark of the login page with ?next=/, does
    not bring an officer back to the public home page: he lands on his desk."""
    officer = make_user("officer3", role=RATING_OFFICER)
    officer.set_password(PASSWORD)
    officer.save()
    home = reverse("home")
    response = client.post(
        reverse("login") + f"?next={home}",
        {"username": "officer3", "password": PASSWORD, "next": home},
    )
    assert response.status_code == 302
    assert client.get(response["Location"])["Location"] == reverse("ratings:desk")


def test_the_login_link_carries_next_except_on_the_home_page(client) -> None:
    login = reverse("login")
    home = client.get(reverse("home")).content.decode()
    assert f'href="{login}" id="nav-login"' in home
    players = client.get(reverse("players:list")).content.decode()
    assert f'href="{login}?next=/players/" id="nav-login"' in players
