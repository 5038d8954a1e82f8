"""Login lockouts (django-axes, issue 17 item 3): after AXES_FAILURE_LIMIT wrong passwords for
one user name from one address, even the right password is refused with a translated message
on the site's login page (the admin's login too); an officer's reset lets him in; the lockout
is logged."""

from __future__ import annotations

import logging

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from core.roles import RATING_OFFICER
from tests.factories import make_user

pytestmark = pytest.mark.django_db

LIMIT = 5


def attempt(client, url, username, password, **extra):
    return client.post(url, {"username": username, "password": password, "next": ""}, **extra)


@override_settings(AXES_FAILURE_LIMIT=LIMIT)
def test_five_wrong_passwords_lock_the_login_until_reset(client, caplog) -> None:
    user = make_user("ana", password="right-pw-123")
    url = reverse("login")
    for _ in range(LIMIT - 1):
        response = attempt(client, url, "ana", "wrong")
        assert response.status_code == 200 and b"Please try again" in response.content
    with caplog.at_level(logging.WARNING, logger="core.lockout"):
        fifth = attempt(client, url, "ana", "wrong")
        refused = attempt(client, url, "ana", "right-pw-123")
    for response in (fifth, refused):
        assert response.status_code == 429
        assert b'id="lockout"' in response.content and b"blocked for 15 minutes" in response.content
        assert b"<nav" in response.content or b"<header" in response.content  # the site's layout
    assert "_auth_user_id" not in client.session
    assert any("locked out" in r.getMessage() and "'ana'" in r.getMessage() for r in caplog.records)
    # Another address is not locked out (per user and address).
    other = attempt(client, url, "ana", "right-pw-123", REMOTE_ADDR="10.1.2.3")
    assert other.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)
    client.logout()

    call_command("axes_reset_username", "ana")
    assert attempt(client, url, "ana", "right-pw-123").status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


@override_settings(AXES_FAILURE_LIMIT=LIMIT)
def test_admin_login_is_covered_and_translated(client) -> None:
    make_user("boss", password="right-pw-123", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        response = attempt(client, "/admin/login/", "boss", "wrong")
    assert response.status_code == 429
    response = attempt(client, "/admin/login/", "boss", "right-pw-123", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 429
    assert b"Demasiados intentos fallidos" in response.content
    assert b'name="next" value="/admin/"' in response.content


@override_settings(AXES_FAILURE_LIMIT=LIMIT)
def test_an_officer_unlocks_in_the_admin(client) -> None:
    make_user("ana", password="right-pw-123")
    for _ in range(LIMIT):
        attempt(client, reverse("login"), "ana", "wrong")
    (locked,) = AccessAttempt.objects.filter(username="ana")
    officer = make_user(role=RATING_OFFICER, is_staff=True)
    client.force_login(officer)
    changelist = client.get("/admin/axes/accessattempt/")
    assert changelist.status_code == 200 and b"ana" in changelist.content
    response = client.post(f"/admin/axes/accessattempt/{locked.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not AccessAttempt.objects.exists()
    client.logout()
    assert attempt(client, reverse("login"), "ana", "right-pw-123").status_code == 302
