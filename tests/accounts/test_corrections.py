"""Correction requests (docs/accounts.md): a claimed player asks, the officer accepts (the
record changes and its history keeps the change) or refuses with a reason; e-mails both ways."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.test import Client

from accounts.models import CorrectionRequest
from accounts.services.corrections import correction_decide, correction_submit
from core import history
from core.errors import Refused
from core.roles import PLAYER, RATING_OFFICER
from players.models import Player
from tests.factories import make_player, make_player_user, make_user

pytestmark = pytest.mark.django_db


def _player(**fields):
    record = make_player(
        fed_id="QR555", surname="Garcia", given_name="Ana", club="Peón", birth_year=1990, **fields
    )
    user = make_player_user(record, "ana", role=PLAYER)
    user.email = "ana@example.org"
    user.save(update_fields=["email"])
    client = Client()
    client.force_login(user)
    return record, user, client


def _form(record: Player, **changes):
    data = {
        "surname": record.surname,
        "given_name": record.given_name,
        "birth_date": "",
        "birth_year": record.birth_year or "",
        "club": record.club,
        "region": record.region,
        "note": "",
    }
    data.update(changes)
    return data


def _officer() -> Client:
    client = Client()
    client.force_login(make_user(role=RATING_OFFICER))
    return client


def test_an_accepted_correction_changes_the_record_and_its_history(
    django_capture_on_commit_callbacks,
) -> None:
    record, user, client = _player()
    # The form shows the record's values; only what differs is asked for.
    page = client.get("/accounts/corrections/").content.decode()
    assert 'value="Garcia"' in page and 'value="Peón"' in page
    response = client.post(
        "/accounts/corrections/",
        _form(record, surname="García", club="Club Escacs Sants", note="Accent; new club."),
    )
    assert response.status_code == 302
    request = CorrectionRequest.objects.get()
    assert request.changes == {"surname": "García", "club": "Club Escacs Sants"}
    assert request.previous == {"surname": "Garcia", "club": "Peón"}
    assert (request.requested_by, request.status) == (user, "pending")
    officer = _officer()
    desk = officer.get("/ratings/desk/").content.decode()
    assert f'data-correction="{request.pk}"' in desk and "Club Escacs Sants" in desk
    with django_capture_on_commit_callbacks(execute=True):
        officer.post(f"/accounts/corrections/{request.pk}/decide/", {"approve": "1"})
    record.refresh_from_db()
    assert (record.surname, record.club, record.given_name) == (
        "García",
        "Club Escacs Sants",
        "Ana",
    )
    assert record.name_key.startswith("garcia ana")  # the folded name follows
    request.refresh_from_db()
    assert request.status == "approved" and request.decided_at is not None
    # The record's history has the change, with the officer and the request in its context.
    event = history.object_history(obj=record)[0]  # the newest (linking the account was one)
    assert event.action == "changed"
    changed = {c.field: (c.old, c.new) for c in event.changes}
    assert changed["surname(s)"] == ("Garcia", "García")
    assert changed["club"] == ("Peón", "Club Escacs Sants")
    assert event.path == f"/accounts/corrections/{request.pk}/decide/"
    context = (
        Player.pgh_event_model.objects.filter(  # type: ignore[attr-defined]
            pgh_obj_id=record.pk, pgh_label="update"
        )
        .latest("pgh_id")
        .pgh_context
    )
    assert context.metadata["correction"] == request.pk
    [message] = mail.outbox
    assert message.to == ["ana@example.org"] and "/players/QR555/" in message.body
    # The player sees it decided on his page.
    assert "Approved" in client.get("/accounts/corrections/").content.decode()


def test_a_refused_correction_needs_a_reason_and_changes_nothing(
    django_capture_on_commit_callbacks,
) -> None:
    record, user, client = _player()
    client.post("/accounts/corrections/", _form(record, birth_year="1991", note="Wrong year."))
    request = CorrectionRequest.objects.get()
    officer = _officer()
    officer.post(f"/accounts/corrections/{request.pk}/decide/", {"approve": "0"})
    request.refresh_from_db()
    assert request.status == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        officer.post(
            f"/accounts/corrections/{request.pk}/decide/",
            {"approve": "0", "reason": "The birth certificate says 1990."},
        )
    request.refresh_from_db()
    record.refresh_from_db()
    assert (request.status, request.reason) == ("refused", "The birth certificate says 1990.")
    assert record.birth_year == 1990
    [message] = mail.outbox
    assert message.to == ["ana@example.org"] and "says 1990" in message.body
    with pytest.raises(Refused, match="decided already"):
        correction_decide(correction=request, user=make_user(role=RATING_OFFICER), approve=True)


def test_what_a_request_may_ask() -> None:
    record, user, _client = _player(birth_date=dt.date(1990, 3, 1))
    with pytest.raises(Refused, match="Change at least one field"):
        correction_submit(user=user, changes={"surname": "Garcia", "club": "Peón"})
    with pytest.raises(Refused, match="Only the name"):
        correction_submit(user=user, changes={"fide_id": 1})
    with pytest.raises(Refused, match="cannot be left empty"):
        correction_submit(user=user, changes={"given_name": " "})
    with pytest.raises(Refused, match="correct the birth date"):
        correction_submit(user=user, changes={"birth_year": 1991})
    with pytest.raises(Refused, match="not possible"):
        correction_submit(user=user, changes={"birth_date": dt.date.today() + dt.timedelta(2)})
    correction_submit(user=user, changes={"birth_date": dt.date(1991, 3, 1)})
    with pytest.raises(Refused, match="waits for the rating office already"):
        correction_submit(user=user, changes={"club": "Other"})
    # The date's year becomes the record's year once accepted.
    request = CorrectionRequest.objects.get()
    correction_decide(correction=request, user=make_user(role=RATING_OFFICER), approve=True)
    record.refresh_from_db()
    assert (record.birth_date, record.birth_year) == (dt.date(1991, 3, 1), 1991)


def test_only_officers_decide_and_a_player_sees_only_his_own() -> None:
    record, user, client = _player()
    other_record = make_player(fed_id="ST666")
    other = make_player_user(other_record, "other", role=PLAYER)
    client.post("/accounts/corrections/", _form(record, club="New"))
    mine = CorrectionRequest.objects.get()
    theirs = correction_submit(user=other, changes={"club": "Theirs"})
    # A player may not decide, not even his own.
    assert (
        client.post(f"/accounts/corrections/{mine.pk}/decide/", {"approve": "1"}).status_code == 403
    )
    with pytest.raises(PermissionDenied):
        correction_decide(correction=mine, user=user, approve=True)
    # An account without a record (or not a player) may not ask.
    stranger = Client()
    stranger.force_login(make_user())
    assert stranger.get("/accounts/corrections/").status_code == 403
    # His page lists his own request only.
    page = client.get("/accounts/corrections/").content.decode()
    assert "New" in page and "Theirs" not in page
    assert user.has_perm("accounts.view_correction", mine)
    assert not user.has_perm("accounts.view_correction", theirs)
