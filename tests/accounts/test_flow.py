"""A player's way in, through the pages (docs/accounts.md): he signs up, follows the link of the
confirmation e-mail (read from the outbox), claims his record by federation ID and birth date,
and the officer approves it on his desk; refusals, duplicates and wrong links."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts.models import ClaimRequest, RequestStatus
from core.outbox import OutboxMail
from core.roles import PLAYER, RATING_OFFICER
from tests.factories import make_player, make_player_user, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "Quiet-Knight-4812"
BIRTH = dt.date(1990, 5, 17)


def _sign_up(client: Client, capture, username: str = "ana", email: str = "ana@example.org"):
    with capture(execute=True):
        return client.post(
            "/accounts/signup/",
            {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        )


def _confirmation_link(email: str) -> str:
    [message] = [m for m in mail.outbox if m.to == [email]]
    found = re.search(r"http://\S+(/accounts/signup/confirm/\S+/)", str(message.body))
    assert found, message.body
    return found.group(1)


def _claim(client: Client, **data):
    return client.post("/accounts/claim/", {"method": "fed_id", **data}, follow=True)


def test_sign_up_confirm_claim_and_the_officer_approves(
    django_capture_on_commit_callbacks,
) -> None:
    record = make_player(fed_id="AB123", surname="Roca", given_name="Ana", birth_date=BIRTH)
    client = Client()
    response = _sign_up(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/sent/"
    user = get_user_model().objects.get(username="ana")
    assert not user.is_active  # closed until the address is confirmed
    refused = client.post("/accounts/login/", {"username": "ana", "password": PASSWORD})
    assert refused.status_code == 200  # the form again: an inactive account does not log in
    # The e-mail went through the outbox (a row, sent by the worker after commit).
    row = OutboxMail.objects.get(kind="accounts.signup")
    assert row.recipients == ["ana@example.org"] and row.status == "sent"
    link = _confirmation_link("ana@example.org")
    # Opening the link shows a button; only the POST opens the account.
    assert client.get(link).status_code == 200
    user.refresh_from_db()
    assert not user.is_active
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/accounts/claim/"
    user.refresh_from_db()
    assert user.is_active
    assert not user.groups.filter(name=PLAYER).exists()  # not before a claim is approved
    # Signed in by the confirmation: he claims his record.
    page = _claim(client, fed_id="AB123", birth_date="1990-05-17")
    assert "Your claim is sent" in page.content.decode()
    claim = ClaimRequest.objects.get(user=user)
    assert (claim.player, claim.status, claim.method) == (record, "pending", "fed_id")
    # The officer sees it on his desk and approves it there.
    officer = Client()
    officer.force_login(make_user("officer", role=RATING_OFFICER))
    desk = officer.get("/ratings/desk/").content.decode()
    assert f'data-claim="{claim.pk}"' in desk and "ana@example.org" in desk
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = officer.post(f"/accounts/claims/{claim.pk}/decide/", {"approve": "1"})
    assert response.status_code == 302 and response["Location"] == "/ratings/desk/"
    record.refresh_from_db()
    assert record.user == user
    assert user.groups.filter(name=PLAYER).exists()
    claim.refresh_from_db()
    assert claim.status == RequestStatus.APPROVED and claim.decided_at is not None
    [message] = mail.outbox
    assert message.to == ["ana@example.org"] and "/players/AB123/" in message.body
    # The link worked once.
    again = Client().post(link, follow=True).content.decode()
    assert "confirmed already" in again
    # Now a player, he lands on his card and may ask for corrections.
    assert client.get("/accounts/landing/")["Location"] == "/players/AB123/"
    assert client.get("/accounts/corrections/").status_code == 200


def test_the_officer_refuses_with_a_reason(django_capture_on_commit_callbacks) -> None:
    make_player(fed_id="CD456", birth_date=BIRTH)
    user = make_user("pere", email="pere@example.org")
    client = Client()
    client.force_login(user)
    _claim(client, fed_id="CD456", birth_date="1990-05-17")
    claim = ClaimRequest.objects.get(user=user)
    officer = Client()
    officer.force_login(make_user(role=RATING_OFFICER))
    page = officer.post(f"/accounts/claims/{claim.pk}/decide/", {"approve": "0"}, follow=True)
    assert "Write the reason" in page.content.decode()
    claim.refresh_from_db()
    assert claim.status == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        officer.post(
            f"/accounts/claims/{claim.pk}/decide/",
            {"approve": "0", "reason": "The club says he is his brother."},
        )
    claim.refresh_from_db()
    assert (claim.status, claim.reason) == ("refused", "The club says he is his brother.")
    assert claim.player.user is None
    [message] = mail.outbox
    assert message.to == ["pere@example.org"] and "his brother" in message.body
    # Refused, he may claim again.
    assert "Send the claim" in client.get("/accounts/claim/").content.decode()


def test_a_claim_that_matches_nothing_a_second_claim_and_a_linked_record() -> None:
    make_player(fed_id="EF789", birth_date=BIRTH)
    year_only = make_player(fed_id="GH000", birth_year=1990)
    linked = make_player(fed_id="IJ111", birth_date=BIRTH)
    owner_user = make_player_user(linked, "owner", role=PLAYER)
    client = Client()
    user = make_user("joan")
    client.force_login(user)
    wrong_date = _claim(client, fed_id="EF789", birth_date="1990-05-18").content.decode()
    unknown_id = _claim(client, fed_id="ZZ999", birth_date="1990-05-17").content.decode()
    # The same sentence whatever was wrong: the page does not say whether the ID exists.
    assert "No player of the registry matches" in wrong_date
    assert "No player of the registry matches" in unknown_id
    assert "already" not in unknown_id
    linked_page = _claim(client, fed_id="IJ111", birth_date="1990-05-17").content.decode()
    assert "linked to an account already" in linked_page
    assert not ClaimRequest.objects.exists()
    # The registry knows the year only: the year is what is compared.
    _claim(client, fed_id="GH000", birth_date="1990-01-01")
    assert ClaimRequest.objects.get().player == year_only
    second = _claim(client, fed_id="EF789", birth_date="1990-05-17").content.decode()
    assert "waiting for the rating office already" in second or "claim-pending" in second
    assert ClaimRequest.objects.count() == 1
    # A player already linked may not claim (the rule): 403.
    owner = Client()
    owner.force_login(owner_user)
    assert owner.get("/accounts/claim/").status_code == 403


def test_claims_by_fide_id_and_the_other_claims_of_a_record_approved(
    django_capture_on_commit_callbacks,
) -> None:
    record = make_player(fed_id="KL222", fide_id=2_200_001)
    first, second = make_user("first", email="a@example.org"), make_user("second", email="")
    for user in (first, second):
        client = Client()
        client.force_login(user)
        client.post("/accounts/claim/", {"method": "fide_id", "fide_id": "2200001"})
    claims = list(ClaimRequest.objects.order_by("id"))
    assert [c.user for c in claims] == [first, second]
    officer = make_user(role=RATING_OFFICER)
    client = Client()
    client.force_login(officer)
    client.post(f"/accounts/claims/{claims[0].pk}/decide/", {"approve": "1"})
    for claim in claims:
        claim.refresh_from_db()
    assert [c.status for c in claims] == ["approved", "refused"]
    assert claims[1].reason  # the record went to another account
    record.refresh_from_db()
    assert record.user == first


def test_sign_up_with_an_address_already_used_says_the_same(
    django_capture_on_commit_callbacks,
) -> None:
    make_user("maria", email="maria@example.org")
    client = Client()
    response = _sign_up(client, django_capture_on_commit_callbacks, "maria2", "Maria@example.org")
    assert response["Location"] == "/accounts/signup/sent/"  # as for a new address
    assert not get_user_model().objects.filter(username="maria2").exists()
    [message] = mail.outbox
    assert message.to == ["Maria@example.org"] and "already has one" in message.body
    assert "/accounts/password/reset/" in message.body


def test_an_unconfirmed_address_gets_a_new_link(django_capture_on_commit_callbacks) -> None:
    client = Client()
    _sign_up(client, django_capture_on_commit_callbacks, "lluis", "lluis@example.org")
    _sign_up(client, django_capture_on_commit_callbacks, "lluis2", "lluis@example.org")
    assert [m.to for m in mail.outbox] == [["lluis@example.org"]] * 2
    assert "lluis" in mail.outbox[1].body and "/accounts/signup/confirm/" in mail.outbox[1].body
    assert get_user_model().objects.filter(email__iexact="lluis@example.org").count() == 1


def test_weak_password_taken_user_name_and_wrong_links(
    django_capture_on_commit_callbacks, settings
) -> None:
    make_user("taken")
    client = Client()
    weak = client.post(
        "/accounts/signup/",
        {"username": "new", "email": "n@example.org", "password1": "123", "password2": "123"},
    )
    assert weak.status_code == 200 and "too short" in weak.content.decode()
    taken = _sign_up(client, django_capture_on_commit_callbacks, "Taken", "t@example.org")
    assert "This user name is taken" in taken.content.decode()
    assert not get_user_model().objects.filter(email__in=["n@example.org", "t@example.org"])
    bad = client.post("/accounts/signup/confirm/not-a-token/", follow=True).content.decode()
    assert "This link is not valid" in bad
    _sign_up(client, django_capture_on_commit_callbacks, "late", "late@example.org")
    link = _confirmation_link("late@example.org")
    settings.ACCOUNTS_CONFIRM_DAYS = -1  # every link has expired
    assert "This link has expired" in client.post(link, follow=True).content.decode()
    assert not get_user_model().objects.get(username="late").is_active


def test_sign_ups_from_one_address_are_limited(settings, django_capture_on_commit_callbacks):
    settings.ACCOUNTS_SIGNUPS_PER_HOUR = 2
    client = Client(REMOTE_ADDR="192.0.2.77")
    for n in range(2):
        response = _sign_up(client, django_capture_on_commit_callbacks, f"bot{n}", f"b{n}@x.org")
        assert response.status_code == 302
    third = _sign_up(client, django_capture_on_commit_callbacks, "bot2", "b2@x.org")
    assert "Too many sign-ups" in third.content.decode()
    assert not get_user_model().objects.filter(username="bot2").exists()


def test_claims_that_match_nothing_are_limited(settings) -> None:
    settings.ACCOUNTS_CLAIM_FAILURES_PER_DAY = 2
    make_player(fed_id="MN333", birth_date=BIRTH)
    client = Client()
    client.force_login(make_user())
    for day in (1, 2):
        page = _claim(client, fed_id="MN333", birth_date=f"1990-01-0{day}").content.decode()
        assert "No player of the registry matches" in page
    page = _claim(client, fed_id="MN333", birth_date="1990-05-17").content.decode()
    assert "Too many claims" in page  # even the right date, once the limit is reached
    assert not ClaimRequest.objects.exists()
