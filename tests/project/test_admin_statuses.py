"""Statuses are read-only in the admin: they change through the services, never by hand.
Published lists and their entries (and the calculation and import records) are view-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from core.roles import RATING_OFFICER
from lists.models import ListImportJob
from periods.models import RatingPeriod
from protests.models import Protest
from ratings.models import CalculationRun, ListEntry, PlayerRating, PublishedList
from tests import factories
from tournaments.models import Report, Tournament

pytestmark = pytest.mark.django_db

#: Fields that hold a workflow state, wherever a model has them…
STATUS_FIELDS = {
    "status",
    "needs_recalculation",
    "progress",
    "phase",
    "decided_by",
    "decided_at",
    "decision",
    "late_registration",
    "approved_by",
    "approved_at",
    "closed_at",
    "calculated_at",
    "published_at",
    "validated_at",
    "rated_at",
    "report_received_at",
    # a protest's steps (protests.services)
    "information_request",
    "information_requested_at",
    "information_answer",
    "information_answered_at",
    "appealed_at",
    "appeal_text",
    "appeal_deposit",
    "appeal_decided_by",
    "appeal_decided_at",
    "appeal_decision",
    "deposit_returned_at",
    "corrected_list",
}
#: …and the player's rating statuses, which a publication advances.
MODEL_STATUS_FIELDS: dict[type[Model], set[str]] = {
    PlayerRating: {"kind", "activity", "out_of_list", "flagged_lists"}
}


def test_every_admin_shows_status_fields_read_only(rf) -> None:
    request = rf.get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    checked = 0
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in (
            "players",
            "periods",
            "tournaments",
            "ratings",
            "protests",
            "lists",
        ):
            continue
        if not model_admin.has_change_permission(request):
            continue  # view-only admin: every field is read-only
        fields = {f.name for f in model._meta.get_fields() if f.concrete}
        statuses = fields & (STATUS_FIELDS | MODEL_STATUS_FIELDS.get(model, set()))
        readonly = set(model_admin.get_readonly_fields(request))
        assert statuses <= readonly, (model, statuses - readonly)
        checked += bool(statuses)
    assert checked >= 5  # tournaments, reports, periods, protests, player ratings


@pytest.mark.parametrize("model", [PublishedList, ListEntry, CalculationRun, ListImportJob])
def test_published_records_and_jobs_are_view_only(rf, model) -> None:
    request = rf.get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    model_admin = admin.site._registry[model]
    assert model_admin.has_view_permission(request)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def _form_data(response: Any) -> dict[str, Any]:
    """The change form as the browser would send it back, unchanged."""
    form = response.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management[f].html_name: management[f].value() for f in management.fields})
    return data


@pytest.fixture
def officer_client() -> Client:
    officer = factories.make_user(role=RATING_OFFICER, is_staff=True)
    client = Client()
    client.force_login(officer)
    return client


@pytest.fixture
def superuser_client() -> Client:
    client = Client()
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    )
    return client


def _post_change(client: Client, obj: Any, changes: dict[str, Any]) -> Any:
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    page = client.get(url)
    assert page.status_code == 200
    response = client.post(url, {**_form_data(page), **changes, "_save": "Save"})
    assert response.status_code == 302, (
        response.context["adminform"].form.errors if response.context else ""
    )
    obj.refresh_from_db()
    return obj


@pytest.mark.parametrize("who", ["officer_client", "superuser_client"])
def test_a_status_posted_in_the_admin_does_not_change(request, who) -> None:
    client = request.getfixturevalue(who)
    system = factories.make_system()
    period = factories.make_period(system)
    tournament = factories.make_tournament(system, factories.make_user(), late_registration=True)
    player = factories.make_player()
    protest = factories.make_protest(
        factories.make_published_list(period, [player]), player, factories.make_user()
    )

    tournament = _post_change(
        client,
        tournament,
        {
            "name": "Renamed open",
            "status": "published",
            "late_registration": "",
            "approved_by": "1",
        },
    )
    assert tournament.name == "Renamed open"  # the form was saved…
    assert (tournament.status, tournament.late_registration, tournament.approved_by_id) == (
        "registered",
        True,
        None,
    )  # …without its statuses

    period = _post_change(
        client,
        period,
        {"closing_date": "2026-11-25", "status": "published", "needs_recalculation": "on"},
    )
    assert str(period.closing_date) == "2026-11-25"
    assert (period.status, period.needs_recalculation) == ("open", False)

    protest = _post_change(
        client,
        protest,
        {
            "text": "Amended grounds",
            "status": "upheld",
            "decision": "Upheld by hand",
            "appeal_deposit": "30.00",
            "information_request": "By hand",
        },
    )
    assert protest.text == "Amended grounds"
    assert (protest.status, protest.decision) == ("submitted", "")
    assert (protest.appeal_deposit, protest.information_request) == (None, "")
    assert (
        Tournament.objects.count() == 1
        and RatingPeriod.objects.count() == 1
        and Protest.objects.count() == 1
    )


def test_a_report_status_posted_in_the_admin_does_not_change(superuser_client) -> None:
    tournament = factories.make_tournament(factories.make_system(), factories.make_user())
    report = Report.objects.create(
        tournament=tournament,
        submission=1,
        filename="r.trf",
        format="trf16",
        data=b"",
        sha256="",
        size=0,
        status="rejected",
        uploaded_by=factories.make_user(),
    )
    report = _post_change(
        superuser_client, report, {"filename": "renamed.trf", "status": "accepted"}
    )
    assert report.filename == "renamed.trf" and report.status == "rejected"
