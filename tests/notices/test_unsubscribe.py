"""The one-click unsubscribe (RFC 8058): the link POSTed by a mail program, without a session
or a CSRF token, stops one kind for one user; GET only asks to confirm; a forged or altered
token is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from notices import texts
from notices.models import Notice, NoticePreference
from notices.services import notice_create
from notices.tokens import unsubscribe_token
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _compose() -> texts.Message:
    return texts.Message(subject="Hello", text="Something happened.", link="/")


def test_one_click_post_without_login_or_csrf() -> None:
    user = make_user(email="u@example.org")
    url = reverse("notices:unsubscribe", args=[unsubscribe_token(user_id=user.pk, kind="report")])
    client = Client(enforce_csrf_checks=True)  # as a mail program: no cookie, no token
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    preference = NoticePreference.objects.get(user=user)
    assert preference.report is False
    # Only that kind: the others stay on.
    assert preference.list_published and preference.event_rated and preference.officer_digest
    # And the next notice of that kind is not written.
    assert notice_create(user=user, kind="report", compose=_compose) is None
    assert notice_create(user=user, kind="event_rated", compose=_compose) is not None
    assert list(Notice.objects.values_list("kind", flat=True)) == ["event_rated"]


def test_get_asks_to_confirm_and_changes_nothing(client) -> None:
    user = make_user()
    token = unsubscribe_token(user_id=user.pk, kind="list_published")
    response = client.get(reverse("notices:unsubscribe", args=[token]), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Se publica una nueva lista de rating" in html  # the kind, in Spanish
    assert f'action="/notices/unsubscribe/{token}/"' in html and 'method="post"' in html
    assert not NoticePreference.objects.exists()


def test_a_forged_or_altered_token_is_refused(client) -> None:
    user = make_user()
    good = unsubscribe_token(user_id=user.pk, kind="report")
    other = unsubscribe_token(user_id=user.pk + 1, kind="report")
    forged = other.split(":")[0] + ":" + good.split(":", 1)[1]
    for token in (forged, "nonsense", good[:-2] + "xx"):
        url = reverse("notices:unsubscribe", args=[token])
        assert client.post(url).status_code == 404
        assert client.get(url).status_code == 404
    # A valid token for a user who no longer exists.
    gone = unsubscribe_token(user_id=user.pk + 1000, kind="report")
    assert client.post(reverse("notices:unsubscribe", args=[gone])).status_code == 404
    assert not NoticePreference.objects.exists()
