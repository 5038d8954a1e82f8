"""A player's data (docs/privacy.md): the birth year shown only by his choice on the card and
in the API, the download of his data (JSON and a zip of CSVs), the erasure request and what
its approval does, the privacy page in four languages."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from rest_framework.test import APIClient

from core.api.tokens import token_create
from core.errors import Refused
from core.models import ApiToken
from core.roles import PLAYER, RATING_OFFICER
from players import services
from players.models import ErasureRequest, Player
from ratings.models import ListEntry
from tests.factories import make_player, make_player_user, make_protest, make_published, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def office(django_capture_on_commit_callbacks):
    cache.clear()
    system, period, players, tournament, published = make_published(
        django_capture_on_commit_callbacks
    )
    me = players[0]
    me.birth_date = dt.date(1990, 5, 17)
    me.save()
    user = make_player_user(me, "me", role=PLAYER)
    user.email = "me@example.org"
    user.save()
    make_protest(published, me, user)
    return {"player": me, "user": user, "published": published, "tournament": tournament}


def test_birth_year_hidden_by_default_then_shown_by_his_choice(client, office):
    me = Player.objects.get(pk=office["player"].pk)
    assert me.birth_year == 1990 and me.birth_year_public is False
    card = reverse("players:detail", args=[me.fed_id])
    assert 'id="birth-year"' not in client.get(card).content.decode()
    assert client.get(f"/api/v1/players/{me.fed_id}/").json()["birth_year"] is None
    assert client.get(f"/api/v1/players/?q={me.fed_id}").json()["results"][0]["birth_year"] is None

    client.force_login(office["user"])
    response = client.post(reverse("mydata:birth_year"), {"birth_year_public": "on"})
    assert response.status_code == 302
    client.logout()
    # The anonymous card is cached: the change shows at once (updated_at is in its key).
    assert '<dd id="birth-year">1990</dd>' in client.get(card).content.decode()
    for kept in (caches["default"], caches["local"]):  # the API's card: PLAYER_CACHE_SECONDS
        kept.clear()
    assert client.get(f"/api/v1/players/{me.fed_id}/").json()["birth_year"] == 1990

    client.force_login(office["user"])
    client.post(reverse("mydata:birth_year"), {})
    assert Player.objects.get(pk=me.pk).birth_year_public is False


def test_published_list_download_keeps_the_birth_year(client, office):
    """The list's downloads stay as published: the birth year column whatever the choice."""
    published = office["published"]
    url = reverse("ratings:list_download", args=[published.pk, "csv"])
    text = client.get(url).content.decode()
    assert "1990" in text


def test_his_data_as_json(client, office):
    client.force_login(office["user"])
    response = client.get(reverse("mydata:json"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    me = office["player"]
    record = data["record"][0]
    assert record["fed_id"] == me.fed_id and record["birth_date"] == "1990-05-17"
    assert record["account_email"] == "me@example.org"
    entries = ListEntry.objects.filter(player=me)
    assert [e["rating"] for e in data["list_entries"]] == [e.rating for e in entries]
    assert len(entries) == 1
    # build(): he won one game (white, round 1) and nothing else.
    assert len(data["games"]) == 1
    assert data["games"][0]["colour"] == "white" and data["games"][0]["result"] == "1-0"
    assert data["protests"][0]["text"] == "Round 3 was a draw, not a loss."
    assert data["ratings"][0]["system"] == office["published"].system.code
    assert any("birth date" in e["changes"] for e in data["history"])
    # The API gives the same sections.
    api = client.get("/api/v1/me/data/").json()
    assert api == data


def test_his_data_as_csv_zip(client, office):
    client.force_login(office["user"])
    response = client.get(reverse("mydata:csv"))
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {"record.csv", "games.csv", "list_entries.csv", "protests.csv", "history.csv"} <= names
    rows = list(csv.DictReader(io.StringIO(archive.read("record.csv").decode())))
    assert rows[0]["fed_id"] == office["player"].fed_id
    assert rows[0]["birth_date"] == "1990-05-17"
    games = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode())))
    assert len(games) == 1 and games[0]["round"] == "1"


def test_only_a_linked_player_reaches_his_data(client, office):
    assert client.get(reverse("mydata:page")).status_code == 302  # to the login page
    client.force_login(make_user())
    assert client.get(reverse("mydata:json")).status_code == 403
    assert client.get("/api/v1/me/data/").status_code == 403


def test_the_page_says_what_an_erasure_does_before_he_asks(client, office):
    client.force_login(office["user"])
    html = client.get(reverse("mydata:page")).content.decode()
    assert 'id="erasure-effects"' in html and 'id="erasure-form"' in html
    assert "your name in the lists is not replaced" in html


def test_erasure_request_then_approval(client, office):
    me, user = office["player"], office["user"]
    token_create(user=user, name="club site")
    client.force_login(user)
    client.post(reverse("mydata:erasure"), {"note": "I stop playing."})
    request = ErasureRequest.objects.get(player=me)
    assert request.status == "pending" and request.note == "I stop playing."
    html = client.get(reverse("mydata:page")).content.decode()
    assert 'id="erasure-pending"' in html and 'id="erasure-form"' not in html
    with pytest.raises(Refused):
        services.erasure_request(user=user)

    entries_before = list(ListEntry.objects.filter(player=me).values())
    officer = make_user(role=RATING_OFFICER)
    services.erasure_approve(request=request, officer=officer)

    me = Player.objects.get(pk=me.pk)
    assert me.user_id is None and me.birth_date is None and me.birth_year == 1990
    assert me.surname == office["player"].surname  # the name in the lists stays
    user = get_user_model().objects.get(pk=user.pk)
    assert user.email == "" and not user.is_active and not user.has_usable_password()
    assert user.username == f"erased-{user.pk}"
    assert not ApiToken.objects.filter(user=user).exists()
    assert list(ListEntry.objects.filter(player=me).values()) == entries_before
    request.refresh_from_db()
    assert request.status == "approved" and request.decided_by == officer
    with pytest.raises(Refused):
        services.erasure_approve(request=request, officer=officer)


def test_erasure_refusal_needs_a_reason_and_an_officer(office):
    request = services.erasure_request(user=office["user"], note="")
    officer = make_user(role=RATING_OFFICER)
    with pytest.raises(Refused):
        services.erasure_refuse(request=request, officer=officer, outcome=" ")
    with pytest.raises(PermissionDenied):
        services.erasure_refuse(request=request, officer=office["user"], outcome="No.")
    services.erasure_refuse(request=request, officer=officer, outcome="Under protest.")
    request.refresh_from_db()
    assert request.status == "refused" and request.outcome == "Under protest."
    assert Player.objects.get(pk=office["player"].pk).user_id == office["user"].pk


def test_officer_approves_from_the_admin(client, office):
    request = services.erasure_request(user=office["user"], note="")
    officer = make_user(role=RATING_OFFICER, is_staff=True)
    client.force_login(officer)
    changelist = reverse("admin:players_erasurerequest_changelist")
    assert client.get(changelist).status_code == 200
    client.post(changelist, {"action": "approve", "_selected_action": [request.pk]})
    request.refresh_from_db()
    assert request.status == "approved"
    assert Player.objects.get(pk=office["player"].pk).user_id is None


def test_api_privacy_and_erasure(client, office):
    client.force_login(office["user"])
    response = client.patch(
        "/api/v1/me/privacy/", {"birth_year_public": True}, content_type="application/json"
    )
    assert response.status_code == 200 and response.json() == {"birth_year_public": True}
    assert Player.objects.get(pk=office["player"].pk).birth_year_public is True
    bad = client.patch(
        "/api/v1/me/privacy/", {"birth_year_public": "maybe"}, content_type="application/json"
    )
    assert bad.status_code == 400
    made = client.post("/api/v1/me/erasure/", {"note": "x"}, content_type="application/json")
    assert made.status_code == 201 and made.json()["status"] == "pending"
    again = client.post("/api/v1/me/erasure/", {}, content_type="application/json")
    assert again.status_code == 409
    assert len(client.get("/api/v1/me/erasure/").json()) == 1
    schema = client.get("/api/v1/schema/?format=json").json()
    for path in ("/api/v1/me/data/", "/api/v1/me/privacy/", "/api/v1/me/erasure/"):
        assert path in schema["paths"]
    assert "patch" in schema["paths"]["/api/v1/me/privacy/"]


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Privacy: what the rating office keeps and why"),
        ("es", "Privacidad: qué guarda la oficina de valoración y por qué"),
        ("ca", "Privadesa: què guarda l'oficina de valoració i per què"),
        ("pt", "Privacidade: o que o gabinete de rating guarda e porquê"),
    ],
)
def test_privacy_page_in_four_languages_linked_from_the_footer(client, language, heading):
    make_player()
    client.cookies["django_language"] = language
    html = client.get("/privacy/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert heading in html
    assert 'id="privacy-link" href="/privacy/"' in client.get("/").content.decode() or (
        'href="/privacy/" id="privacy-link"' in client.get("/").content.decode()
    )


def test_an_empty_patch_of_the_birth_year_choice_changes_nothing() -> None:
    """A PATCH leaves out what it does not change (schemathesis sent `{}` and got 400)."""
    player = make_player(birth_year=1990)
    client = APIClient()
    client.force_authenticate(make_player_user(player, "patcher", role=PLAYER))
    response = client.patch("/api/v1/me/privacy/", {}, format="json")
    assert response.status_code == 200 and response.json() == {"birth_year_public": False}
    response = client.patch("/api/v1/me/privacy/", {"birth_year_public": True}, format="json")
    assert response.json() == {"birth_year_public": True}
