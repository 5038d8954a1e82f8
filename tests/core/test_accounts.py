"""Accounts (issue 28, build item 7): password reset by e-mail, with the e-mail sent through
the outbox by a worker (a Celery task), never in the request; password change for every
signed-in user; login lockout per address across user names (password spraying), besides per
user name and address."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from axes.models import AccessAttempt
from celery import current_app
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from core.outbox import OutboxMail
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _reset_link(body: str) -> str:
    match = re.search(r"https?://\S+/accounts/password/reset/\S+/\S+/", body)
    assert match, body
    return match.group(0)


@override_settings(SITE_URL="https://ratings.example.org")
def test_a_password_reset_e_mail_goes_through_the_outbox_and_its_link_sets_a_new_password(
    client, django_capture_on_commit_callbacks
) -> None:
    user = make_user("ana", password="old-pw-123!", email="ana@example.org")
    task = current_app.tasks["core.send_outbox_mail"]
    with mock.patch.object(task, "apply_async", wraps=task.apply_async) as sent:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = client.post(
                reverse("password_reset"),
                {"email": "ana@example.org"},
                HTTP_ACCEPT_LANGUAGE="es",
            )
        assert response.status_code == 302
        assert response["Location"] == reverse("password_reset_done")
        assert mail.outbox == []  # nothing sent in the request
        (row,) = OutboxMail.objects.all()  # written in the request, pending
        assert (row.kind, row.status, row.recipients) == (
            "password.reset",
            "pending",
            ["ana@example.org"],
        )
        assert "contraseña" in row.subject  # the request's language
        assert len(callbacks) == 1 and not sent.called
        callbacks[0]()  # the commit: the task is sent (and runs eagerly, as a worker would)
    assert sent.call_count == 1 and sent.call_args.kwargs["args"] == (row.pk,)
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1
    (message,) = mail.outbox
    assert message.subject == row.subject and message.to == ["ana@example.org"]
    link = _reset_link(str(message.body))
    assert link.startswith("https://ratings.example.org/")  # SITE_URL, not the request's host
    assert "ana" in message.body

    path = link.removeprefix("https://ratings.example.org")
    form = client.get(path, follow=True)
    assert form.status_code == 200 and b'id="password-reset-confirm"' in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "n3w-Secret-pw!", "new_password2": "n3w-Secret-pw!"},
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("n3w-Secret-pw!")
    # The link is used once.
    again = client.get(path, follow=True)
    assert b'id="invalid-link"' in again.content


def test_an_unknown_address_gets_the_same_answer_and_no_e_mail(client) -> None:
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_the_pages_are_translated(client) -> None:
    page = client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE="ca")
    assert page.status_code == 200 and 'lang="ca"' in page.content.decode()
    assert "Heu oblidat la contrasenya?" in page.content.decode()


def test_every_signed_in_user_changes_his_password(client) -> None:
    user = make_user("pau", password="old-pw-123!")  # no role, not staff
    url = reverse("password_change")
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(user)
    page = client.get(url)
    assert page.status_code == 200 and b'id="password-change"' in page.content
    wrong = client.post(
        url,
        {"old_password": "nope", "new_password1": "n3w-Secret!", "new_password2": "n3w-Secret!"},
    )
    assert wrong.status_code == 200
    response = client.post(
        url,
        {
            "old_password": "old-pw-123!",
            "new_password1": "n3w-Secret!",
            "new_password2": "n3w-Secret!",
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("n3w-Secret!")
    assert client.get(reverse("password_change_done")).status_code == 200  # still signed in
    assert b'id="change-password"' in client.get("/").content  # the link in the header


def _attempt(client, username: str, password: str, addr: str = "127.0.0.1"):
    return client.post(
        reverse("login"),
        {"username": username, "password": password, "next": ""},
        REMOTE_ADDR=addr,
    )


@override_settings(AXES_FAILURE_LIMIT=5, AXES_ADDRESS_FAILURE_LIMIT=8)
def test_one_address_trying_many_user_names_is_locked_out(client) -> None:
    """Password spraying: one wrong password on each of many accounts, from one address."""
    real = make_user("eva", password="right-pw-123")
    for n in range(7):
        response = _attempt(client, f"user{n}", "Summer2026!")
        assert response.status_code == 200, n  # each user name failed once only
    eighth = _attempt(client, "user7", "Summer2026!")
    assert eighth.status_code == 429 and b'id="lockout"' in eighth.content
    assert b"from your address" in eighth.content
    # The address is locked for every user name, even with the right password...
    refused = _attempt(client, "eva", "right-pw-123")
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    # ... and not another address.
    other = _attempt(client, "eva", "right-pw-123", addr="10.9.8.7")
    assert other.status_code == 302 and client.session["_auth_user_id"] == str(real.pk)


@override_settings(AXES_FAILURE_LIMIT=5, AXES_ADDRESS_FAILURE_LIMIT=8)
def test_a_good_login_does_not_clear_the_addresss_count(client) -> None:
    make_user("own", password="right-pw-123")
    for n in range(6):
        _attempt(client, f"victim{n}", "guess")
    assert _attempt(client, "own", "right-pw-123").status_code == 302  # the sprayer's own
    client.logout()
    assert sum(a.failures_since_start for a in AccessAttempt.objects.all()) == 6
    _attempt(client, "victim6", "guess")
    assert _attempt(client, "victim7", "guess").status_code == 429
