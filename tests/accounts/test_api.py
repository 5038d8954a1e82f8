"""Accounts in the API v1: sign up, claims and corrections, created, listed and decided with the
same services and rules as the pages (docs/accounts.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from accounts.models import ClaimRequest, CorrectionRequest
from core.roles import PLAYER, RATING_OFFICER
from tests.factories import make_player, make_player_user, make_user

pytestmark = pytest.mark.django_db


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_sign_up_through_the_api(django_capture_on_commit_callbacks) -> None:
    body = {"username": "eva", "email": "eva@example.org", "password": "Quiet-Knight-4812"}
    with django_capture_on_commit_callbacks(execute=True):
        response = _client().post("/api/v1/accounts/signup/", body, format="json")
    assert response.status_code == 202
    assert not get_user_model().objects.get(username="eva").is_active
    [message] = mail.outbox
    assert "/accounts/signup/confirm/" in message.body
    weak = _client().post(
        "/api/v1/accounts/signup/", {**body, "username": "eva2", "password": "1"}, format="json"
    )
    assert weak.status_code == 422 and "password" in str(weak.json()["errors"])
    # Signed in, there is no sign-up.
    assert _client(make_user()).post("/api/v1/accounts/signup/", body).status_code == 403


def test_claims_through_the_api() -> None:
    record = make_player(fed_id="UV777", birth_date=dt.date(1985, 2, 3))
    user = make_user("claimant", email="c@example.org")
    other = make_user("other")
    response = _client(user).post(
        "/api/v1/accounts/claims/",
        {"method": "fed_id", "fed_id": "UV777", "birth_date": "1985-02-03"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    claim_id = response.json()["id"]
    assert response.json()["player"] == "UV777" and response.json()["status"] == "pending"
    again = _client(user).post(
        "/api/v1/accounts/claims/", {"method": "fide_id", "fide_id": 1}, format="json"
    )
    assert again.status_code in (400, 409)  # refused by the service: one pending claim
    # Each sees his own; the officer sees all.
    assert [c["id"] for c in _client(user).get("/api/v1/accounts/claims/").json()["results"]] == [
        claim_id
    ]
    assert _client(other).get("/api/v1/accounts/claims/").json()["results"] == []
    assert _client(other).get(f"/api/v1/accounts/claims/{claim_id}/").status_code == 403
    officer = make_user(role=RATING_OFFICER)
    listed = _client(officer).get("/api/v1/accounts/claims/?status=pending").json()["results"]
    assert [c["id"] for c in listed] == [claim_id]
    # Only officers decide.
    decide = f"/api/v1/accounts/claims/{claim_id}/decide/"
    assert _client(user).post(decide, {"approve": True}, format="json").status_code == 403
    refused = _client(officer).post(decide, {"approve": False}, format="json")
    assert refused.status_code in (400, 409)  # a refusal needs a reason
    approved = _client(officer).post(decide, {"approve": True}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    record.refresh_from_db()
    assert record.user == user and user.groups.filter(name=PLAYER).exists()


def test_corrections_through_the_api() -> None:
    record = make_player(fed_id="WX888", club="Old")
    user = make_player_user(record, "p", role=PLAYER)
    other = make_player_user(make_player(), "q", role=PLAYER)
    response = _client(user).post(
        "/api/v1/accounts/corrections/", {"club": "New", "note": "Moved."}, format="json"
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["changes"] == {"club": "New"} and data["previous"] == {"club": "Old"}
    assert _client(other).get("/api/v1/accounts/corrections/").json()["results"] == []
    assert _client(other).get(f"/api/v1/accounts/corrections/{data['id']}/").status_code == 403
    stranger = make_user()
    assert _client(stranger).post("/api/v1/accounts/corrections/", {"club": "X"}).status_code == 403
    decide = f"/api/v1/accounts/corrections/{data['id']}/decide/"
    assert _client(user).post(decide, {"approve": True}, format="json").status_code == 403
    officer = make_user(role=RATING_OFFICER)
    done = _client(officer).post(decide, {"approve": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "approved"
    record.refresh_from_db()
    assert record.club == "New"
    assert CorrectionRequest.objects.get().decided_by == officer
    assert not ClaimRequest.objects.exists()


def test_the_schema_documents_the_accounts_endpoints(client) -> None:
    schema = client.get("/api/v1/schema/?format=json").json()
    for path in (
        "/api/v1/accounts/signup/",
        "/api/v1/accounts/claims/",
        "/api/v1/accounts/claims/{id}/decide/",
        "/api/v1/accounts/corrections/",
        "/api/v1/accounts/corrections/{id}/decide/",
    ):
        assert path in schema["paths"], path
