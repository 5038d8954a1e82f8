"""The export to FIDE (fide-2024 9.1): every real TRF of ../shared/data/trf goes through the
upload pipeline into stored data, is written back as TRF16 and TRF-2026 from what is stored, and
reads back through the project's own parser to the same games (players, rounds, colours,
results); an officer's correction is what the export says."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from core import roles
from core.errors import Refused
from formats.reports import decode_report, parse_report
from formats.reports.records import ParsedReport
from ratings.office.services import game_correct
from tests.factories import (
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tests.shared_data import SHARED_DATA
from tournaments import fide_export
from tournaments import services as tournament_services
from tournaments.models import Game, Tournament, TournamentPlayer
from tournaments.services import validation

DATA = SHARED_DATA / "trf"
SAMPLES = sorted(p.name for p in DATA.glob("*.trf")) if DATA.exists() else []

pytestmark = pytest.mark.django_db


def _games(parsed: ParsedReport) -> set[tuple[object, ...]]:
    """The games as the office stores them: byes by player and round (an absence is a
    zero-point bye), games against a dummy "bye" player dropped like the lines are."""
    dummies = {p.start_rank for p in parsed.players if p.dummy}
    out: set[tuple[object, ...]] = set()
    for g in parsed.games:
        if g.white_rank in dummies or (g.black_rank in dummies):
            continue
        if g.black_rank is None:
            kind = "bye_zero" if g.kind == "absent" else g.kind
            out.add((g.round, g.white_rank, None, kind, g.white_score))
            continue
        colours = (
            (g.white_rank, g.black_rank)
            if g.colours_known
            else tuple(sorted((g.white_rank, g.black_rank)))
        )
        out.add((g.round, *colours, g.kind, g.white_score, g.black_score))
    return out


def _upload(tournament: Tournament, arbiter, data: bytes, capture) -> None:
    with capture(execute=True):
        tournament_services.report_upload(
            tournament=tournament, user=arbiter, data=data, filename="r.trf"
        )
    tournament.refresh_from_db()
    if tournament.status != "validated":
        with capture(execute=True):
            tournament_services.players_confirm(
                tournament=tournament, user=arbiter, picks={}, create_all_new=True
            )
        tournament.refresh_from_db()


def _stored(name: str, capture) -> tuple[Tournament, ParsedReport]:
    data = (DATA / name).read_bytes()
    original = parse_report(decode_report(data, max_bytes=len(data) + 1), format="trf")
    rating_system = make_system(ruleset="fide-2024")
    arbiter = make_user(role=roles.ARBITER)
    # the file's own dates; registered a month before and received the day after the end (the
    # regulation's deadlines), as it was
    start = original.header.start_date or dt.date(2025, 11, 10)
    end = max(original.header.end_date or start, start)
    tournament = make_tournament(
        rating_system,
        arbiter,
        start_date=start,
        end_date=end,
        base_minutes=120,
        increment_seconds=30,
        rounds=original.rounds_in_file or None,
    )
    if original.teams:
        Tournament.objects.filter(pk=tournament.pk).update(system="team")
    Tournament.objects.filter(pk=tournament.pk).update(
        registered_at=timezone.make_aware(
            dt.datetime.combine(start - dt.timedelta(days=30), dt.time(12))
        )
    )
    tournament.refresh_from_db()
    _upload(tournament, arbiter, data, capture)
    if tournament.status != "validated":
        Tournament.objects.filter(pk=tournament.pk).update(
            report_received_at=timezone.make_aware(
                dt.datetime.combine(end + dt.timedelta(days=1), dt.time(12))
            )
        )
        tournament.refresh_from_db()
        with capture(execute=True):
            tournament_services.tournament_revalidate(tournament=tournament)
        tournament.refresh_from_db()
    return tournament, original


@pytest.mark.parametrize("name", SAMPLES or ["(none)"])
def test_real_trf_round_trips_through_the_export(name, django_capture_on_commit_callbacks) -> None:
    if not SAMPLES:
        pytest.skip("../shared/data/trf not available")
    tournament, original = _stored(name, django_capture_on_commit_callbacks)
    if tournament.status != "validated":
        # the regulation's checks stop it (an unfinished event: the partial TRFx file); its
        # lines are stored and matched, its games written by the pipeline's own writer
        errors = [p["code"] for p in tournament.reports.last().problems if p["severity"] == "error"]
        assert set(errors) <= {"rounds_differ", "unfinished"}, errors
        validation._write_games(tournament=tournament, parsed=original)
        Tournament.objects.filter(pk=tournament.pk).update(status="validated")
        tournament.refresh_from_db()
    stored_games = Game.objects.filter(tournament=tournament).count()
    lines = dict(tournament.players.values_list("start_rank", "name"))
    assert stored_games and lines
    for version in ("trf16", "trf26"):
        export = fide_export.tournament_fide_export(tournament=tournament, version=version)
        back = parse_report(export.text, format="trf")
        assert back.ok, back.errors
        assert back.header.format == version
        assert len(back.games) == stored_games
        assert _games(back) == _games(original)
        # the players: the same start ranks and names as stored
        assert {p.start_rank: p.name for p in back.players} == lines


def _corrected(capture) -> Tournament:
    """Three lines, three rounds, stored as validated and rated, then an officer's correction:
    round 1 was reported 1-0 and is corrected to 0-1."""
    system = make_system(ruleset="fide-2024")
    period = make_period(system, status="published")
    arbiter = make_user(role=roles.ARBITER)
    t = make_tournament(
        system, arbiter, name="Open Sitges", rounds=3, status="rated", period=period
    )
    alba = make_player(
        surname="Roca",
        given_name="Alba",
        sex="F",
        fide_id=2200001,
        federation="ESP",
        title="WFM",
        birth_date=dt.date(1990, 5, 4),
        birth_year=1990,
    )
    one = TournamentPlayer.objects.create(
        tournament=t, player=alba, start_rank=1, name="Roca, Alba", sex="F", rating_at_start=2105
    )
    two = TournamentPlayer.objects.create(
        tournament=t, player=make_player(), start_rank=2, name="Sala, Pau", federation="ESP"
    )
    three = TournamentPlayer.objects.create(
        tournament=t, player=make_player(), start_rank=3, name="Puig, Joan", rating_at_start=1900
    )
    first = make_game(t, one, two, "1-0", round=1)
    Game.objects.create(
        tournament=t, round=1, white=three, result="bye", kind="bye_half", white_score=0.5
    )
    draw = make_game(t, two, three, "1/2-1/2", round=2)
    Game.objects.filter(pk=draw.pk).update(
        left_out_code="rate_of_play", left_out_article="fide-2024 1.1"
    )
    Game.objects.create(
        tournament=t, round=2, white=one, result="bye", kind="bye_full", white_score=1
    )
    make_game(t, three, one, "+-", round=3, kind="forfeit")
    officer = make_user(role=roles.RATING_OFFICER)
    with capture(execute=False):
        game_correct(
            game=first, result="0-1", reason="the arbiter swapped the result", user=officer
        )
    return t


def _line(text: str, rank: int) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith(f"001 {rank:4d}"))


def test_a_corrected_result_and_the_registry_appear_in_the_export(
    django_capture_on_commit_callbacks,
) -> None:
    t = _corrected(django_capture_on_commit_callbacks)
    text = fide_export.tournament_fide_export(tournament=t, version="trf16").text
    one, two, three = _line(text, 1), _line(text, 2), _line(text, 3)
    # TRF16 001 columns (FORMATS.md): 11-13 title, 49-52 rating, 54-56 federation, 58-68 the
    # FIDE ID (from the registry: the line reported none), 70-79 birth date, 81-84 points,
    # 86-89 rank, round r at 92+10(r-1): opponent, colour, result
    assert one[9:13] == "wWFM"
    assert one[48:52] == "2105" and one[53:56] == "ESP"
    assert one[57:68] == "    2200001" and one[69:79] == "1990/05/04"
    # Roca: lost round 1 (corrected from a win), full-point bye, forfeit loss = 1.0, 3rd
    assert one[80:84] == " 1.0" and one[85:89] == "   3"
    assert one[91:99] == "   2 w 0" and one[101:109] == "0000 - F" and one[111:119] == "   3 b -"
    # Sala: won round 1 (corrected), drew round 2 = 1.5, 2nd; unrated: blank rating
    assert two[48:52] == "    " and two[80:84] == " 1.5" and two[85:89] == "   2"
    assert two[91:99] == "   1 b 1" and two[101:109] == "   3 w ="
    # Puig: half-point bye, draw, forfeit win = 2.0, 1st
    assert three[80:84] == " 2.0" and three[85:89] == "   1"
    assert three[91:99] == "0000 - H" and three[111:119] == "   1 w +"
    assert "XXR 3" in text.splitlines() and "###" not in text
    back = parse_report(text, format="trf")
    assert back.ok and back.header.format == "trf16"
    assert (1, 1, 2, "0", "played") in {
        (g.round, g.white_rank, g.black_rank, g.result, g.kind) for g in back.games
    }


def test_trf26_marks_the_game_left_out_of_the_calculation(
    django_capture_on_commit_callbacks,
) -> None:
    t = _corrected(django_capture_on_commit_callbacks)
    text = fide_export.tournament_fide_export(tournament=t, version="trf26").text
    lines = text.splitlines()
    assert "142 3" in lines and "XXR 3" not in lines
    left_out = [ln for ln in lines if ln.startswith("###")]
    assert len(left_out) == 1
    assert left_out[0].startswith("### not rated: round 2, 2 - 3, fide-2024 1.1")
    back = parse_report(text, format="trf")
    assert back.ok and back.header.format == "trf26" and len(back.games) == 5


def test_only_a_validated_or_rated_tournament_is_exported() -> None:
    system = make_system(ruleset="fide-2024")
    t = make_tournament(system, make_user(role=roles.ARBITER), status="report_received")
    with pytest.raises(Refused):
        fide_export.tournament_fide_export(tournament=t, version="trf16")
    with pytest.raises(Refused):
        fide_export.fide_export_version("xml")


def test_the_period_batch_and_the_sent_state(django_capture_on_commit_callbacks) -> None:
    t = _corrected(django_capture_on_commit_callbacks)
    # a rated tournament of the period whose report gave no rounds (a crosstable)
    other = make_tournament(t.rating_system, t.arbiter, status="published", period=t.period)
    a = TournamentPlayer.objects.create(tournament=other, start_rank=1, name="A, B")
    b = TournamentPlayer.objects.create(tournament=other, start_rank=2, name="C, D")
    Game.objects.filter(pk=make_game(other, a, b).pk).update(round=None)
    period = t.period
    assert period is not None
    data = fide_export.period_fide_batch(period=period, version="trf16")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        assert names == [f"{t.pk}-open-sitges.trf16.trf", "SKIPPED.txt"]
        assert archive.read(names[0]).decode().startswith("012 Open Sitges\n")
        assert archive.read("SKIPPED.txt").decode().startswith(f"{other.pk} ")
    assert set(fide_export.tournaments_fide_unsent()) == {t, other}
    with pytest.raises(PermissionDenied):
        tournament_services.tournament_fide_sent_record(tournament=t, user=t.arbiter)
    officer = make_user(role=roles.RATING_OFFICER)
    tournament_services.tournament_fide_sent_record(
        tournament=t, user=officer, sent_on=dt.date(2026, 11, 2)
    )
    assert (t.fide_sent_on, t.fide_sent_by) == (dt.date(2026, 11, 2), officer)
    assert list(fide_export.tournaments_fide_unsent()) == [other]


def test_pages_and_api_answer_the_files_and_record_the_sending(
    client, django_capture_on_commit_callbacks
) -> None:
    t = _corrected(django_capture_on_commit_callbacks)
    assert t.period is not None
    officer = make_user(role=roles.RATING_OFFICER)
    # the arbiter downloads his tournament's TRF from its page
    client.force_login(t.arbiter)
    page = client.get(f"/tournaments/{t.pk}/")
    assert b'id="fide-export-trf26"' in page.content and b'id="fide-sent-form"' not in page.content
    response = client.get(f"/tournaments/{t.pk}/fide-export/?format=trf26")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert b"\n142 3\n" in response.content
    # the API: TRF16 by default, TRF-2026 by `format`, an error as JSON
    api = client.get(f"/api/v1/tournaments/{t.pk}/fide-export/")
    assert api.status_code == 200 and api["Content-Type"].startswith("text/plain")
    assert b"\nXXR 3\n" in api.content
    assert (
        b"\n142 3\n" in client.get(f"/api/v1/tournaments/{t.pk}/fide-export/?format=trf26").content
    )
    client.force_login(officer)
    desk = client.get("/ratings/desk/")
    assert b'id="fide-unsent"' in desk.content and b"Open Sitges" in desk.content
    batch = client.get(f"/api/v1/periods/{t.period.pk}/fide-batch/?format=trf26")
    assert batch.status_code == 200 and batch["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(batch.content)) as archive:
        assert archive.namelist() == [f"{t.pk}-open-sitges.trf26.trf"]
    page_batch = client.get(f"/tournaments/periods/{t.period.pk}/fide-batch/?format=trf16")
    assert page_batch.status_code == 200 and page_batch.content.startswith(b"PK")
    future = client.post(
        f"/api/v1/tournaments/{t.pk}/fide-sent/", {"sent_on": "2999-01-01"}, "application/json"
    )
    assert future.status_code == 409
    sent = client.post(
        f"/api/v1/tournaments/{t.pk}/fide-sent/", {"sent_on": "2026-11-03"}, "application/json"
    )
    assert sent.status_code == 200
    assert sent.json() == {
        "id": t.pk,
        "fide_sent_on": "2026-11-03",
        "fide_sent_by": officer.get_username(),
    }
    assert b'id="fide-unsent"' not in client.get("/ratings/desk/").content
    # the page's form records it again (today), the history keeps both
    assert client.post(f"/tournaments/{t.pk}/fide-sent/", {}).status_code == 302
    t.refresh_from_db()
    assert t.fide_sent_on == timezone.localdate()
    events = list(
        apps.get_model("tournaments", "TournamentEvent")
        .objects.filter(pgh_obj=t)
        .values_list("fide_sent_on", flat=True)
    )
    assert dt.date(2026, 11, 3) in events and timezone.localdate() in events
