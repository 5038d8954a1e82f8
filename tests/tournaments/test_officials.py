"""The arbiters' and organisers' registry (docs/arbiters.md, "Arbiters and organisers"):
registration and the officer's decision, the free-text chief arbiters migrated into records,
TRF line 102 matched at upload, feda-1996 1.1 on a registered tournament, the public pages."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.urls import reverse

from core import roles
from core.errors import Refused
from formats.reports import parse_report
from tests.factories import make_system, make_tournament, make_user
from tests.tournaments.test_flow import sample_trf
from tournaments.models import Tournament
from tournaments.officials import selectors
from tournaments.officials.models import Arbiter, Organiser
from tournaments.officials.services import arbiter_register, official_decide, organiser_register
from tournaments.services import report_upload, validation

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    return {
        "arbiter": make_user("arb-o", role=roles.ARBITER),
        "officer": make_user("off-o", role=roles.RATING_OFFICER),
        "player": make_user("pla-o", role=roles.PLAYER),
    }


def test_an_arbiter_registers_pending_an_officer_approved(users) -> None:
    pending = arbiter_register(
        user=users["arbiter"], data={"name": "Eva Sala", "category": "regional"}
    )
    assert pending.state == "pending" and pending.registered_by == users["arbiter"]
    approved = organiser_register(user=users["officer"], data={"name": "Club Escacs Sants"})
    assert approved.state == "approved" and approved.decided_by == users["officer"]
    with pytest.raises(PermissionDenied):
        arbiter_register(user=users["player"], data={"name": "X"})


def test_the_officer_decides_a_refusal_says_why(users) -> None:
    record = arbiter_register(user=users["arbiter"], data={"name": "Eva Sala"})
    with pytest.raises(PermissionDenied):
        official_decide(record=record, user=users["arbiter"], approve=True)
    with pytest.raises(Refused):
        official_decide(record=record, user=users["officer"], approve=False, reason="  ")
    official_decide(record=record, user=users["officer"], approve=False, reason="No title.")
    record.refresh_from_db()
    assert (record.state, record.reason, record.decided_by) == (
        "refused",
        "No title.",
        users["officer"],
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("IA Jane Doe (12345678)", ("Jane Doe", 12345678)),
        ("Roca, Pau", ("Roca, Pau", None)),
        ("FA  Sala Vidal, Eva 2212345", ("Sala Vidal, Eva", 2212345)),
        ("", ("", None)),
    ],
)
def test_line_102_name_and_fide_id(text: str, expected: tuple[str, int | None]) -> None:
    assert selectors.chief_arbiter_parts(text) == expected


def test_the_free_text_chief_arbiters_become_pending_records(users) -> None:
    """Three tournaments, two names (one written twice with other case and spaces): two
    pending records, every tournament linked, the text kept."""
    system = make_system()
    a = make_tournament(system, users["arbiter"], chief_arbiter="Pau Roca")
    b = make_tournament(system, users["arbiter"], chief_arbiter="  pau ROCA ")
    c = make_tournament(system, users["arbiter"], chief_arbiter="Eva Sala")
    migration = importlib.import_module("tournaments.migrations.0011_arbiters_and_organisers")
    with connection.cursor() as cursor:
        cursor.execute(migration.Migration.operations[-1].sql)
    assert sorted(Arbiter.objects.values_list("name", "state")) == [
        ("Eva Sala", "pending"),
        ("Pau Roca", "pending"),
    ]
    linked = dict(Tournament.objects.values_list("pk", "chief_arbiter_record__name"))
    assert (linked[a.pk], linked[b.pk], linked[c.pk]) == ("Pau Roca", "Pau Roca", "Eva Sala")
    b.refresh_from_db()
    assert b.chief_arbiter == "  pau ROCA "


def test_line_102_is_matched_at_upload_by_name(users) -> None:
    # sample_trf's line 102 is "A. Arbiter" (no FIDE ID): matched by name, any case.
    record = Arbiter.objects.create(name="a. arbiter", title="FA", state="approved")
    other = Arbiter.objects.create(name="Someone Else", fide_id=22_500_001)
    tournament = make_tournament(make_system(), users["arbiter"])
    report_upload(tournament=tournament, user=users["arbiter"], data=sample_trf(), filename="r.trf")
    tournament.refresh_from_db()
    assert tournament.chief_arbiter_record_id == record.pk
    # A tournament that already names its arbiter keeps him.
    named = make_tournament(make_system(), users["arbiter"], chief_arbiter_record=other)
    report_upload(tournament=named, user=users["arbiter"], data=sample_trf(), filename="r.trf")
    named.refresh_from_db()
    assert named.chief_arbiter_record_id == other.pk


def test_line_102_fide_id_wins_over_the_name(users) -> None:
    by_id = Arbiter.objects.create(name="Jane Doe", fide_id=12345678)
    Arbiter.objects.create(name="A. Arbiter")
    tournament = make_tournament(make_system(), users["arbiter"])
    data = sample_trf().replace(b"102 A. Arbiter", b"102 IA A. Arbiter (12345678)")
    report_upload(tournament=tournament, user=users["arbiter"], data=data, filename="r.trf")
    tournament.refresh_from_db()
    assert tournament.chief_arbiter_record_id == by_id.pk


def test_feda_1_1_on_a_registered_tournament(users) -> None:
    """A national event (1.11) directed by a regional arbiter: the error, with the article;
    the officer's refusal of a record re-checks the tournament."""
    system = make_system(ruleset="feda-1996")
    regional = Arbiter.objects.create(name="Eva Sala", category="regional", state="approved")
    tournament = make_tournament(
        system, users["arbiter"], level="national", chief_arbiter_record=regional
    )
    codes = {
        (p.code, p.params["article"])
        for p in validation._checks(tournament=tournament, parsed=_parsed())
    }
    assert ("chief_arbiter_category", "feda-1996 1.1") in codes
    tournament.level = "regional"  # 1.12: a regional arbiter matches
    found = {p.code for p in validation._checks(tournament=tournament, parsed=_parsed())}
    assert not found & {"chief_arbiter_category", "chief_arbiter_untitled"}


def _parsed():
    return parse_report(sample_trf().decode(), format="trf")


def test_public_pages_link_the_records(client, users) -> None:
    arbiter = Arbiter.objects.create(name="Pau Roca", title="IA", state="approved")
    organiser = Organiser.objects.create(name="Club Escacs Sants", state="approved")
    tournament = make_tournament(
        make_system(), users["arbiter"], chief_arbiter_record=arbiter, organiser=organiser
    )
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:arbiter_detail", args=[arbiter.pk]) in page
    assert reverse("tournaments:organiser_detail", args=[organiser.pk]) in page
    page = client.get(reverse("tournaments:arbiter_detail", args=[arbiter.pk])).content.decode()
    assert reverse("tournaments:detail", args=[tournament.pk]) in page
    page = client.get(reverse("tournaments:organiser_detail", args=[organiser.pk])).content.decode()
    assert tournament.name in page
    assert "Pau Roca" in client.get(reverse("tournaments:arbiter_list")).content.decode()


def test_a_refused_record_is_the_officers(client, users) -> None:
    refused = Arbiter.objects.create(name="Nobody", state="refused", reason="Unknown.")
    url = reverse("tournaments:arbiter_detail", args=[refused.pk])
    assert client.get(url).status_code == 404
    assert "Nobody" not in client.get(reverse("tournaments:arbiter_list")).content.decode()
    client.force_login(users["officer"])
    assert client.get(url).status_code == 200
    assert "Nobody" in client.get(reverse("tournaments:registry") + "?state=").content.decode()


def test_the_registry_page_decides_and_the_api_too(client, users) -> None:
    record = Arbiter.objects.create(name="Eva Sala")
    client.force_login(users["officer"])
    client.post(reverse("tournaments:arbiter_decide", args=[record.pk]), {"approve": "1"})
    record.refresh_from_db()
    assert record.state == "approved"
    organiser = Organiser.objects.create(name="Club")
    answer = client.post(
        f"/api/v1/organisers/{organiser.pk}/decide/",
        {"approve": False},
        content_type="application/json",
    )
    assert answer.status_code == 409  # a refusal says why
    answer = client.post(
        f"/api/v1/organisers/{organiser.pk}/decide/",
        {"approve": False, "reason": "Unknown club."},
        content_type="application/json",
    )
    assert answer.status_code == 200 and answer.json()["state"] == "refused"


def test_a_fide_id_already_in_the_registry_is_refused_naming_the_record(users) -> None:
    Arbiter.objects.create(name="Jane Doe", fide_id=12345678)
    with pytest.raises(Refused, match="Jane Doe"):
        arbiter_register(user=users["arbiter"], data={"name": "J. Doe", "fide_id": 12345678})
