"""A rated or published tournament's report (issue 14 item 3): the arbiter cannot replace it by
any path (upload page, crosstable form, matching), and an officer's replacement with a blocking
error is rejected: the report in force and the status "Published" stay."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_period
from tournaments.models import Report, Tournament

from .test_flow import sample_trf, setup, upload  # noqa: F401  (setup is a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(client, setup):  # noqa: F811
    t = setup["tournament"]
    period = make_period(setup["system"], start=t.end_date.replace(day=1))
    client.force_login(setup["arbiter"])
    assert upload(client, t, sample_trf()).status_code == 302
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    t.refresh_from_db()
    assert t.status == "validated"
    Tournament.objects.filter(pk=t.pk).update(status="published", period=period)
    t.refresh_from_db()
    return {**setup, "tournament": t, "period": period}


def test_the_arbiter_cannot_replace_by_any_path(client, published) -> None:
    t = published["tournament"]
    client.force_login(published["arbiter"])
    page = client.get(reverse("tournaments:manage", args=[t.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="report-locked"' in html and 'id="upload-form"' not in html
    assert upload(client, t, sample_trf(unknown_name="Otro, Jugador")).status_code == 403
    url = reverse("tournaments:crosstable", args=[t.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"size": 2, "name_1": "A, B", "name_2": "C, D"}).status_code == 403
    assert Report.objects.filter(tournament=t).count() == 1
    t.refresh_from_db()
    assert t.status == "published"


def test_an_officers_replacement_with_a_blocking_error_is_rejected(client, published) -> None:
    t = published["tournament"]
    before = Report.objects.get(tournament=t, status="accepted")
    client.force_login(published["officer"])
    # Five rounds announced, three registered: a blocking error of the checks.
    bad = sample_trf().replace(b"XXR 3", b"XXR 5")
    Tournament.objects.filter(pk=t.pk).update(rounds=3)
    response = upload(client, t, bad)
    assert response.status_code == 422
    assert "rounds_differ" in response.content.decode()
    t.refresh_from_db()
    assert t.status == "published"
    newest = Report.objects.filter(tournament=t).latest("submission")
    assert newest.status == "rejected"
    before.refresh_from_db()
    assert before.status == "accepted"
    assert t.games.count() == 6  # the rated games are kept


def test_an_officers_replacement_with_a_new_player_is_no_longer_published(
    client, published
) -> None:
    t = published["tournament"]
    client.force_login(published["officer"])
    assert upload(client, t, sample_trf(unknown_name="Otro Nuevo, Luis")).status_code == 302
    t.refresh_from_db()
    published["period"].refresh_from_db()
    # An unmatched line: no games, so not rated; the period is to be recalculated.
    assert t.status == "report_received" and t.games.count() == 0
    assert published["period"].needs_recalculation is True
