"""'My notices' and the preferences, on the pages and in the API (v1): each user his own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from notices import texts
from notices.models import Notice, NoticePreference
from notices.services import notice_create
from tests.factories import make_system, make_user

pytestmark = pytest.mark.django_db


def _notice(user, subject: str) -> Notice:
    notice = notice_create(
        user=user,
        kind="event_rated",
        compose=lambda: texts.Message(subject=subject, text="Body of " + subject, link="/x/"),
    )
    assert notice is not None
    return notice


def test_my_notices_page_shows_his_own_and_marks_them_read(client) -> None:
    me, other = make_user(), make_user()
    _notice(me, "Mine one")
    _notice(other, "Not mine")
    client.force_login(me)
    html = client.get(reverse("notices:mine")).content.decode()
    assert "Mine one" in html and "Body of Mine one" in html and "Not mine" not in html
    assert 'id="nav-notices"' in html  # linked from the navigation
    assert client.post(reverse("notices:mine")).status_code == 302
    assert not Notice.objects.filter(user=me, read_at__isnull=True).exists()
    assert Notice.objects.filter(user=other, read_at__isnull=True).exists()


def test_preferences_page_saves_kinds_language_and_systems(client) -> None:
    me = make_user()
    system = make_system()
    client.force_login(me)
    page = client.get(reverse("notices:preferences"), HTTP_ACCEPT_LANGUAGE="ca")
    assert page.status_code == 200
    assert "Preferències d'avisos" in page.content.decode()
    response = client.post(
        reverse("notices:preferences"),
        {
            "language": "pt",
            "by_email": "on",
            "list_published": "on",
            "report": "on",
            "officer_digest": "on",
            "systems": [system.pk],
        },
    )
    assert response.status_code == 302
    preference = NoticePreference.objects.get(user=me)
    assert preference.language == "pt" and preference.by_email
    assert not preference.event_rated and not preference.live_rating and preference.report
    assert list(preference.systems.all()) == [system]


def test_api_lists_his_notices_and_marks_one_read(client) -> None:
    me, other = make_user(), make_user()
    mine = _notice(me, "Mine")
    theirs = _notice(other, "Theirs")
    client.force_login(me)
    data = client.get("/api/v1/notices/").json()
    assert [n["subject"] for n in data["results"]] == ["Mine"]
    assert data["results"][0]["read_at"] is None
    assert client.get(f"/api/v1/notices/{theirs.pk}/").status_code == 403
    assert client.post(f"/api/v1/notices/{theirs.pk}/read/").status_code == 403
    read = client.post(f"/api/v1/notices/{mine.pk}/read/")
    assert read.status_code == 200 and read.json()["read_at"] is not None
    theirs.refresh_from_db()
    assert theirs.read_at is None
    client.logout()
    assert client.get("/api/v1/notices/").status_code == 401


def test_api_preferences_get_and_update(client) -> None:
    me = make_user()
    system = make_system(code="std")
    client.force_login(me)
    defaults = client.get("/api/v1/notices/preferences/").json()
    assert defaults == {
        "language": "",
        "by_email": True,
        "list_published": True,
        "event_rated": True,
        "live_rating": True,
        "report": True,
        "officer_digest": True,
        "systems": [],
    }
    changed = client.patch(
        "/api/v1/notices/preferences/",
        {"language": "es", "event_rated": False, "systems": ["std"]},
        content_type="application/json",
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["systems"] == ["std"] and changed.json()["event_rated"] is False
    preference = NoticePreference.objects.get(user=me)
    assert preference.language == "es" and list(preference.systems.all()) == [system]
    bad = client.patch(
        "/api/v1/notices/preferences/", {"language": "xx"}, content_type="application/json"
    )
    assert bad.status_code == 400
    # A NUL in a followed system's code (PostgreSQL cannot look it up: schemathesis got a 500),
    # a field it does not know, a code of the wrong JSON type: 400, naming the field.
    for body, field in (
        ({"systems": ["st\u0000d"]}, "systems"),
        ({"colour": "red"}, "colour"),
        ({"systems": [7]}, "systems"),
    ):
        bad = client.patch("/api/v1/notices/preferences/", body, content_type="application/json")
        assert bad.status_code == 400, (body, bad.content)
        assert field in str(bad.json()["errors"])


def test_the_schema_documents_notices(client) -> None:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in (
        "/api/v1/notices/",
        "/api/v1/notices/{id}/read/",
        "/api/v1/notices/preferences/",
        "/api/v1/notices/read-all/",
    ):
        assert path in schema, path
