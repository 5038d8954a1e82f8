"""Real files from ../shared/data/trf through the upload view: never a 500, rows only when
accepted."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from core import roles
from tests.factories import make_system, make_tournament, make_user
from tests.shared_data import SHARED_DATA
from tournaments.models import Report, TournamentPlayer

DATA = SHARED_DATA / "trf"
SAMPLES = sorted(p.name for p in DATA.glob("*.trf")) if DATA.exists() else []

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", SAMPLES or ["(none)"])
def test_real_trf_files_upload_without_server_error(client, name) -> None:
    if not SAMPLES:
        pytest.skip("../shared/data/trf not available")
    data = (DATA / name).read_bytes()
    system = make_system(ruleset="fide-2024")
    arbiter = make_user(role=roles.ARBITER)
    start = timezone.localdate() + dt.timedelta(days=40)
    tournament = make_tournament(
        system, arbiter, start_date=start, end_date=start + dt.timedelta(days=5)
    )
    client.force_login(arbiter)
    response = client.post(
        reverse("tournaments:upload", args=[tournament.pk]),
        {"file": SimpleUploadedFile(name, data), "format": "auto"},
    )
    assert response.status_code in (302, 400, 422)
    report = Report.objects.get(tournament=tournament)
    lines = TournamentPlayer.objects.filter(tournament=tournament).count()
    if report.status == "accepted":
        assert response.status_code == 302 and lines > 0
        page = client.get(reverse("tournaments:manage", args=[tournament.pk]))
        assert page.status_code == 200
        assert client.get(reverse("tournaments:matching", args=[tournament.pk])).status_code == 200
    else:
        assert lines == 0 and report.problems


def test_csv_and_feda_companion(client) -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral")
    arbiter = make_user(role=roles.ARBITER)
    start = timezone.localdate() + dt.timedelta(days=40)
    tournament = make_tournament(
        system, arbiter, start_date=start, end_date=start + dt.timedelta(days=1)
    )
    client.force_login(arbiter)
    url = reverse("tournaments:upload", args=[tournament.pk])

    def upload(name: str, data: bytes, declared_format: str) -> int:
        form = {"file": SimpleUploadedFile(name, data), "format": declared_format}
        return client.post(url, form).status_code

    csv = (
        b'No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,"Roca, Pau",,24001,2000,x,1,1\n2,"Sala, '
        b'Eva",,24002,1900,0,x,=\n3,"Puig, Joan",,,,0,=,x\n'
    )
    assert upload("rr.csv", csv, "auto") == 302
    assert TournamentPlayer.objects.filter(tournament=tournament).count() == 3
    feda = (
        b"24001,Roca Pau,M,ESP,01-01-80,2,2,1900\n24002,Sala "
        b"Eva,F,ESP,02-02-85,0.5,2,1950\n00000000,Puig Joan,M,ESP,03-03-90,0.5,2,1950\n"
    )
    assert upload("rr.asc", feda, "feda") == 302
    statuses = dict(Report.objects.filter(tournament=tournament).values_list("format", "status"))
    assert statuses == {
        "csv": "accepted",
        "feda": "accepted",
    }  # the ASCII file accompanies the crosstable
    assert TournamentPlayer.objects.filter(tournament=tournament).count() == 3
    assert TournamentPlayer.objects.get(tournament=tournament, start_rank=1).fed_id == "24001"
