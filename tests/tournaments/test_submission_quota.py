"""Rejected uploads are kept within a quota per tournament (REPORT_REJECTED_KEEP): the newest
keep their bytes, older ones keep their record (file name, size, SHA-256, problems) without
the bytes; accepted reports are never touched. The manage page lists the submissions 25 a page."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from core import roles
from tests.factories import make_system, make_tournament, make_user
from tests.tournaments.test_flow import sample_trf
from tournaments import services
from tournaments.models import Report, ReportStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament_and_arbiter():
    arbiter = make_user("quota-arbiter", role=roles.ARBITER)
    return make_tournament(make_system(), arbiter), arbiter


def bad(i: int) -> bytes:
    return f"012 Open {i}\n001 junk\n".encode()


def test_only_the_newest_rejected_uploads_keep_their_bytes(tournament_and_arbiter, settings):
    settings.REPORT_REJECTED_KEEP = 3
    tournament, arbiter = tournament_and_arbiter
    for i in range(1, 7):
        report = services.report_upload(
            tournament=tournament, user=arbiter, data=bad(i), filename=f"bad{i}.trf"
        )
        assert report.status == ReportStatus.REJECTED
    rows = {r.submission: r for r in Report.objects.filter(tournament=tournament)}
    assert len(rows) == 6  # every record kept
    for n in (4, 5, 6):
        assert bytes(rows[n].data) == bad(n)
    for n in (1, 2, 3):
        old = rows[n]
        assert bytes(old.data) == b""
        assert old.filename == f"bad{n}.trf"
        assert old.size == len(bad(n))
        assert old.sha256 == hashlib.sha256(bad(n)).hexdigest()
        assert old.problems  # why it was rejected is still there


def test_accepted_reports_keep_their_bytes(tournament_and_arbiter, settings):
    settings.REPORT_REJECTED_KEEP = 1
    tournament, arbiter = tournament_and_arbiter
    data = sample_trf()
    good = services.report_upload(tournament=tournament, user=arbiter, data=data, filename="ok.trf")
    for i in range(3):
        services.report_upload(tournament=tournament, user=arbiter, data=bad(i), filename="x.trf")
    good.refresh_from_db()
    assert good.status != ReportStatus.REJECTED
    assert bytes(good.data) == data


def test_the_manage_page_lists_submissions_by_page(client, tournament_and_arbiter, settings):
    settings.REPORT_REJECTED_KEEP = 2
    tournament, arbiter = tournament_and_arbiter
    for i in range(30):
        services.report_upload(
            tournament=tournament, user=arbiter, data=bad(i), filename=f"f{i:02d}.trf"
        )
    client.force_login(arbiter)
    url = reverse("tournaments:manage", args=[tournament.pk])
    first = client.get(url).content.decode()
    assert "f29.trf" in first and "f05.trf" in first and "f04.trf" not in first
    assert 'id="submissions-pager"' in first
    second = client.get(url + "?page=2").content.decode()
    assert "f04.trf" in second and "f00.trf" in second and "f05.trf" not in second
    assert second.count("bytes-dropped") == 5
    assert first.count("bytes-dropped") == 25 - 2
    assert client.get(url + "?page=999").status_code == 200  # the last page
