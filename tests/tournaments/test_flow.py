"""The arbiter's flow through the services and the views: register, upload, match, validate."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from players.models import Player
from tests.factories import (
    CROSSTABLE_FORM,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
    registration_data,
)
from tournaments import services
from tournaments.models import Game, Report, Tournament, TournamentPlayer
from tournaments.services import validation

pytestmark = pytest.mark.django_db


def trf_line(
    rank: int,
    name: str,
    cells: list[str],
    *,
    rating: int | None = None,
    fide_id: str = "",
    sex: str = "m",
    birth: str = "",
    points: float | None = None,
) -> str:
    """A TRF16 `001` line, column by column (FIDE specification: rank 5-8, sex 10, name 15-47,
    rating 49-52, federation 54-56, FIDE ID 58-68, birth 70-79, points 81-84, round 1 at 92)."""
    pts = f"{points:4.1f}" if points is not None else "    "
    line = (
        f"001 {rank:4d} {sex}    {name:<33} {rating or '':>4} ESP {fide_id:>11} {birth:<10} {pts} "
        f"{rank:4d}"
    )
    assert len(line) == 89
    return line + "".join("  " + c for c in cells)


def sample_trf(*, unknown_name: str = "Nuevo Jugador, Pedro") -> bytes:
    """4-player round robin, 3 rounds (hand-written; points: 2.5, 2, 1.5, 0)."""
    lines = [
        "012 Open de prueba",
        "022 Sitges",
        "032 ESP",
        "102 A. Arbiter",
        "XXR 3",
        trf_line(
            1,
            "MUÑOZ PEREZ, JOSE",
            ["   4 w 1", "   2 w =", "   3 b 1"],
            rating=2250,
            fide_id="2200001",
            points=2.5,
        ),
        trf_line(
            2,
            "Garcia Lopez, Ana",
            ["   3 w =", "   1 b =", "   4 w 1"],
            rating=1950,
            sex="w",
            birth="1990/05/01",
            points=2.0,
        ),
        trf_line(
            3, unknown_name, ["   2 b =", "   4 b 1", "   1 w 0"], birth="2001/01/01", points=1.5
        ),
        trf_line(
            4,
            "Vidal, Marc",
            ["   1 b 0", "   3 w 0", "   2 b 0"],
            rating=2100,
            fide_id="2200004",
            points=0.0,
        ),
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.fixture
def setup():
    system = make_system(ruleset="fide-2024", rate_of_play="standard")
    arbiter = make_user("arbiter1", role=roles.ARBITER)
    officer = make_user("officer1", role=roles.RATING_OFFICER)
    # Over (a report is received after the last day), registered in time (20 days ahead).
    start = timezone.localdate() - dt.timedelta(days=4)
    tournament = make_tournament(
        system, arbiter, start_date=start, end_date=start + dt.timedelta(days=2)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=24)
    )  # the factory's `system` is the rating system
    tournament.refresh_from_db()
    jose = make_player(surname="Muñoz Pérez", given_name="José", fide_id=2200001)
    ana = make_player(surname="García López", given_name="Ana", sex="F", birth_year=1990)
    marc = make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    return {
        "system": system,
        "arbiter": arbiter,
        "officer": officer,
        "tournament": tournament,
        "jose": jose,
        "ana": ana,
        "marc": marc,
    }


def upload(client, tournament, data: bytes, name: str = "report.trf", fmt: str = "auto"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(
        reverse("tournaments:upload", args=[tournament.pk]),
        {"file": SimpleUploadedFile(name, data), "format": fmt},
    )


def test_upload_matches_registry_and_waits_for_the_unknown_player(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    data = sample_trf()
    response = upload(client, t, data)
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == "report_received" and t.report_received_at is not None
    report = Report.objects.get(tournament=t)
    assert report.status == "accepted" and report.sha256 == hashlib.sha256(data).hexdigest()
    assert bytes(report.data) == data and report.size == len(data)
    lines = {ln.start_rank: ln for ln in TournamentPlayer.objects.filter(tournament=t)}
    assert lines[1].player == setup["jose"]  # FIDE ID (and accents/case in the name)
    assert lines[2].player == setup["ana"]  # name and birth year, accent-insensitive
    assert lines[3].player is None  # new: not created before confirmation
    assert lines[4].player == setup["marc"]
    assert lines[1].rating_at_start == 2250 and lines[3].rating_at_start is None
    assert not Game.objects.filter(tournament=t).exists()  # games wait for the matching
    assert not Player.objects.filter(surname="Nuevo Jugador").exists()

    page = client.get(reverse("tournaments:matching", args=[t.pk])).content.decode()
    assert 'class="match-new"' in page and page.count('class="match-matched"') == 3

    response = client.post(
        reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new", "fedid_3": "N-77"}
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == "validated" and t.validated_at is not None
    new = Player.objects.get(fed_id="N-77")
    assert (new.surname, new.given_name, new.birth_year) == ("Nuevo Jugador", "Pedro", 2001)
    games = Game.objects.filter(tournament=t)
    assert games.count() == 6
    g = games.get(round=1, white__start_rank=2)
    assert (g.black.start_rank, g.result, str(g.white_score)) == (3, "1/2-1/2", "0.5")
    public = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Validated" in public


def test_a_new_upload_supersedes_and_keeps_picks(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    assert upload(client, t, sample_trf() + b"\n").status_code == 302
    reports = list(
        Report.objects.filter(tournament=t)
        .order_by("submission")
        .values_list("submission", "status")
    )
    assert reports == [(1, "superseded"), (2, "accepted")]
    t.refresh_from_db()
    assert t.status == "validated"
    assert TournamentPlayer.objects.filter(tournament=t, player__isnull=True).count() == 0


@pytest.mark.parametrize(
    ("data", "name", "code", "status"),
    [
        (b"", "r.trf", "empty", 400),
        (b"\x00\x01\x02\x03" * 100, "r.trf", "binary", 400),
        (b"012 Open\n001    1 m\x00   Name\n", "r.trf", "binary", 400),
        ("012 Open\n001    1 m    Name".encode("utf-16"), "r.trf", "utf16", 400),
        (
            b"No,Name,FIDE ID,Fed ID,Rating,1,2\n1,A,,,,x,1\n2,B,,,,0,x\n",
            "r.trf",
            "format_mismatch",
            400,
        ),
        (b"hello world\nthis is not a report\n", "r.dat", "unknown_format", 400),
    ],
)
def test_bad_input_is_one_clear_message_and_4xx(client, setup, data, name, code, status) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    response = upload(client, t, data, name)
    assert response.status_code == status
    report = Report.objects.get(tournament=t)
    assert report.status == "rejected" and [p["code"] for p in report.problems] == [code]
    assert b"upload-problems" in response.content
    assert not TournamentPlayer.objects.filter(tournament=t).exists()
    t.refresh_from_db()
    assert t.status == "registered"


def test_too_large_is_refused_before_parsing(client, setup, settings) -> None:
    settings.REPORT_MAX_BYTES = 100
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    response = upload(client, t, sample_trf())
    assert response.status_code == 413
    report = Report.objects.get(tournament=t)
    assert report.problems[0]["code"] == "too_large" and bytes(report.data) == b""
    assert "100" in response.content.decode()


def test_parse_errors_reject_with_line_and_column(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    bad = sample_trf().replace(b"   3 b 1", b"   2 b 1")  # player 1 claims player 2 twice
    response = upload(client, t, bad)
    assert response.status_code == 422
    report = Report.objects.get(tournament=t)
    assert report.status == "rejected"
    assert any(p["line"] == 6 and p["severity"] == "error" for p in report.problems)
    assert not TournamentPlayer.objects.filter(tournament=t).exists()
    assert not Game.objects.exists()


def test_permissions(client, setup) -> None:
    t = setup["tournament"]
    other = make_user("arbiter2", role=roles.ARBITER)
    client.force_login(other)
    assert client.get(reverse("tournaments:manage", args=[t.pk])).status_code == 403
    assert upload(client, t, sample_trf()).status_code == 403
    assert not Report.objects.exists()
    assert t.name not in client.get(reverse("tournaments:list") + "?mine=1").content.decode()
    client.force_login(setup["officer"])
    assert client.get(reverse("tournaments:manage", args=[t.pk])).status_code == 200
    client.logout()
    assert client.get(reverse("tournaments:manage", args=[t.pk])).status_code == 302
    assert client.get(reverse("tournaments:detail", args=[t.pk])).status_code == 200
    plain = make_user("nobody")
    client.force_login(plain)
    assert client.get(reverse("tournaments:register")).status_code == 403


def test_after_rating_only_an_officer_changes_the_report(client, setup) -> None:
    t = setup["tournament"]
    period = make_period(setup["system"], start=t.end_date.replace(day=1))
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    Tournament.objects.filter(pk=t.pk).update(
        status="rated", rated_at=timezone.now(), period=period
    )
    response = upload(client, t, sample_trf())
    assert response.status_code == 403
    assert Report.objects.filter(tournament=t).count() == 1
    client.force_login(setup["officer"])
    assert upload(client, t, sample_trf()).status_code == 302
    period.refresh_from_db()
    t.refresh_from_db()
    assert period.needs_recalculation is True
    assert t.rated_at is not None and t.status == "rated"


def test_registration_deadline_and_approval(client, setup) -> None:
    system = setup["system"]
    client.force_login(setup["arbiter"])
    start = timezone.localdate() + dt.timedelta(days=10)
    period = make_period(system, start=(start + dt.timedelta(days=2)).replace(day=1))
    base = registration_data(system, start)
    response = client.post(reverse("tournaments:register"), {**base, "top_rating": 2650})
    assert response.status_code == 302
    on_time = Tournament.objects.get(name="Magistral")
    assert on_time.late_registration is False and on_time.arbiter == setup["arbiter"]
    assert on_time.period == period
    client.post(reverse("tournaments:register"), {**base, "name": "Super", "top_rating": 2750})
    late = Tournament.objects.get(name="Super")
    assert late.late_registration is True and late.approved_by is None  # 30 days (fide-2024 0.2)
    client.post(
        reverse("tournaments:register"), {**base, "name": "Femenino", "top_woman_rating": 2510}
    )
    assert Tournament.objects.get(name="Femenino").late_registration is True
    # The arbiter cannot approve; the officer can, and it is recorded.
    assert client.post(reverse("tournaments:approve", args=[late.pk])).status_code == 403
    client.force_login(setup["officer"])
    client.post(reverse("tournaments:approve", args=[late.pk]))
    late.refresh_from_db()
    assert late.approved_by == setup["officer"] and late.approved_at is not None


def test_late_registration_blocks_validation_until_approved(client, setup) -> None:
    t = setup["tournament"]
    Tournament.objects.filter(pk=t.pk).update(late_registration=True)
    t.refresh_from_db()
    # The report shows a player over 2700: the 30-day deadline of fide-2024 0.2 applies.
    data = sample_trf().replace(b"2250 ESP", b"2750 ESP")
    client.force_login(setup["arbiter"])
    upload(client, t, data)
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    t.refresh_from_db()
    assert t.status == "report_received"
    report = Report.objects.get(tournament=t)
    assert [p["article"] for p in report.problems if p["severity"] == "error"] == ["fide-2024 0.2"]
    services.tournament_approve_late(tournament=t, officer=setup["officer"])
    t.refresh_from_db()
    assert t.status == "validated"


def test_ambiguous_names_need_a_pick(client, setup) -> None:
    t = setup["tournament"]
    a = make_player(surname="Nuevo Jugador", given_name="Pedro")
    b = make_player(surname="NUEVO JUGADOR", given_name="Pedro")
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    page = client.get(reverse("tournaments:matching", args=[t.pk])).content.decode()
    assert 'class="match-ambiguous"' in page and a.fed_id in page and b.fed_id in page
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": str(b.pk)})
    assert TournamentPlayer.objects.get(tournament=t, start_rank=3).player == b
    t.refresh_from_db()
    assert t.status == "validated"


def test_regulation_error_blocks_validation(client, setup) -> None:
    t = setup["tournament"]
    # A first control of 25 moves (fide-2024 1.2: at least 30). The minimum time of 1.1 is read
    # per game and leaves games out instead (tests/tournaments/test_games_left_out.py).
    Tournament.objects.filter(pk=t.pk).update(moves_per_control=25)
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    t.refresh_from_db()
    assert t.status == "report_received"
    assert not Game.objects.filter(tournament=t).exists()
    page = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert "fide-2024 1.2" in page and "it must be at least 30 moves" in page


def test_crosstable_form(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    url = reverse("tournaments:crosstable", args=[t.pk])
    assert client.get(url + "?size=3").status_code == 200
    data = {**CROSSTABLE_FORM, "fide_id_1": "2200004", "rating_1": 2100}
    bad = {**data, "cell_3_2": "0"}
    response = client.post(url, bad)
    assert response.status_code == 422
    assert "do not mirror" in response.content.decode()
    assert not TournamentPlayer.objects.filter(tournament=t).exists()
    response = client.post(url, data)
    assert response.status_code == 302
    report = Report.objects.filter(tournament=t, status="accepted").get()
    assert report.format == "form"
    lines = {ln.start_rank: ln for ln in TournamentPlayer.objects.filter(tournament=t)}
    assert lines[1].player == setup["marc"] and lines[3].player is None
    too_many = client.get(url + "?size=50").content.decode()
    assert 'name="name_20"' in too_many and 'name="name_21"' not in too_many


def test_an_upload_is_one_transaction(setup, monkeypatch) -> None:
    t = setup["tournament"]
    make_player(surname="Nuevo Jugador", given_name="Pedro", birth_year=2001)  # every line matches

    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(validation, "_write_games", broken)
    with pytest.raises(RuntimeError):
        services.report_upload(
            tournament=t, user=setup["arbiter"], data=sample_trf(), filename="r.trf"
        )
    assert (
        not Report.objects.exists()
        and not TournamentPlayer.objects.exists()
        and not Game.objects.exists()
    )
    t.refresh_from_db()
    assert t.status == "registered" and t.report_received_at is None


def test_messages_name_the_field_line_and_column(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    bad = sample_trf().replace(
        b"   1 m    MU", b"   X m    MU"
    )  # start rank of line 6 is not a number
    response = upload(client, t, bad)
    assert response.status_code == 422
    html = response.content.decode()
    assert "start_rank: X is not a valid number" in html
    report = Report.objects.get(tournament=t)
    assert {
        (p["line"], p["column"]) for p in report.problems if p["code"] == "malformed_number"
    } == {(6, 5)}


def test_confirmation_after_rating_needs_an_officer(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    Tournament.objects.filter(pk=t.pk).update(status="published")
    assert (
        client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"}).status_code
        == 403
    )
    assert not Player.objects.filter(surname="Nuevo Jugador").exists()
