"""The API's promises: the rules of the pages, no mass assignment, one error shape naming the
field, a hard page cap, cached immutable list pages with ETag and Last-Modified, throttling
with Retry-After, tokens created and revoked by their user, CSRF on the session."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from core.api.pagination import MAX_LIMIT
from core.api.tokens import ApiToken
from players.models import Player
from protests.models import Protest
from ratings.models import ListEntry
from tests.api.conftest import ROLES, client_as
from tests.factories import make_player
from tournaments.models import Report, Tournament

pytestmark = pytest.mark.django_db

CSV = (
    b'No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,"Roca, Pau",,24001,2000,x,1,1\n'
    b'2,"Sala, Eva",,24002,1900,0,x,=\n3,"Puig, Joan",,,,0,=,x\n'
)


def _registration(world: SimpleNamespace, **extra: object) -> dict[str, object]:
    return {
        "name": "Magistral",
        "city": "León",
        "start_date": "2027-03-10",
        "end_date": "2027-03-12",
        "system": "round_robin",
        "base_minutes": 90,
        "increment_seconds": 30,
        "chief_arbiter": "X",
        "rating_system": world.system.code,
        **extra,
    }


def test_mass_assignment_is_refused_and_the_error_names_the_field(world):
    client = client_as(world, "arbiter")
    body = _registration(world, status="published", arbiter=world.users["officer"].pk)
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["status"] == 400 and error["code"] == "invalid"
    assert {e["field"] for e in error["errors"]} == {"status", "arbiter"}
    assert all(e["code"] == "unknown_field" for e in error["errors"])
    assert not Tournament.objects.filter(name="Magistral").exists()


def test_an_arbiter_registers_a_tournament_as_his_own(world):
    response = client_as(world, "arbiter").post(
        "/api/v1/tournaments/", _registration(world), format="json"
    )
    assert response.status_code == 201, response.content
    tournament = Tournament.objects.get(pk=response.json()["id"])
    assert tournament.arbiter == world.users["arbiter"]
    assert tournament.status == "registered"


def test_a_missing_field_is_named(world):
    body = _registration(world)
    del body["start_date"]
    response = client_as(world, "arbiter").post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["start_date"]


def test_an_arbiter_cannot_upload_to_another_arbiters_tournament(world):
    url = f"/api/v1/tournaments/{world.other_tournament.pk}/reports/"
    upload = {"file": SimpleUploadedFile("rr.csv", CSV), "format": "csv"}
    response = client_as(world, "arbiter").post(url, upload, format="multipart")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert not Report.objects.filter(tournament=world.other_tournament).exists()
    # ... nor read its reports; its own arbiter may, and gets the report with its problems.
    assert client_as(world, "arbiter").get(url).status_code == 403
    upload = {"file": SimpleUploadedFile("rr.csv", CSV), "format": "csv"}
    own = client_as(world, "other arbiter").post(url, upload, format="multipart")
    assert own.status_code == 201, own.content
    report = own.json()
    assert report["status"] == "accepted" and report["submission"] == 1
    assert report["tournament_status"] in ("report_received", "validated")
    detail = client_as(world, "other arbiter").get(f"{url}1/").json()
    assert detail["sha256"] == report["sha256"]
    assert isinstance(detail["problems"], list)


def test_a_large_report_is_read_on_a_worker_as_on_the_site(
    world, settings, django_capture_on_commit_callbacks
):
    """Over REPORT_INLINE_BYTES the API answers 202 with the upload job (no request waits for
    the parser); the job, polled at its Location, ends with the report it stored."""
    settings.REPORT_INLINE_BYTES = 100  # the CSV below is over it
    url = f"/api/v1/tournaments/{world.tournament.pk}/reports/"
    upload = {"file": SimpleUploadedFile("rr.csv", CSV), "format": "csv"}
    client = client_as(world, "arbiter")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, upload, format="multipart")
    assert response.status_code == 202, response.content
    job = response.json()
    assert response["Location"].endswith(f"/uploads/{job['id']}/")
    assert not job["done"] and job["report"] is None
    polled = client.get(response["Location"]).json()
    assert polled["done"] and polled["status"] == "succeeded" and polled["report"] == 1
    assert Report.objects.get(tournament=world.tournament, submission=1).size == len(CSV)
    # Another arbiter cannot follow it.
    assert client_as(world, "other arbiter").get(response["Location"]).status_code == 403


def test_a_rejected_report_is_recorded_with_its_problems(world):
    url = f"/api/v1/tournaments/{world.tournament.pk}/reports/"
    upload = {"file": SimpleUploadedFile("junk.csv", b"\x00\x01\x02binary"), "format": "csv"}
    response = client_as(world, "arbiter").post(url, upload, format="multipart")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "rejected"
    assert body["problems"] and all(p["message"] for p in body["problems"])


def test_a_player_cannot_read_another_players_protest(world):
    url = f"/api/v1/protests/{world.other_protest.pk}/"
    assert client_as(world, "player").get(url).status_code == 403
    assert client_as(world, "other player").get(url).status_code == 200
    assert client_as(world, "anonymous").get(url).status_code == 401
    listed = client_as(world, "player").get("/api/v1/protests/").json()["results"]
    assert [p["id"] for p in listed] == [world.protest.pk]
    # The list shows exactly what the object rule lets each user see.
    for role in ROLES[1:]:
        user = world.users[role]
        shown = {p["id"] for p in client_as(world, role).get("/api/v1/protests/").json()["results"]}
        allowed = {p.pk for p in Protest.objects.all() if user.has_perm("protests.view_protest", p)}
        assert shown == allowed, role


def _no_open_protests(world) -> None:
    """The world's players each have an open protest against the list; one per entry."""
    Protest.objects.filter(published_list=world.published).delete()


def test_a_player_protests_and_an_officer_decides(world):
    _no_open_protests(world)
    created = client_as(world, "player").post(
        "/api/v1/protests/",
        {"list": world.published.pk, "subject": "Open, round 2", "text": "Game 2 was a draw."},
        format="json",
    )
    assert created.status_code == 201, created.content
    protest = created.json()
    assert protest["player"] == world.players[0].fed_id and protest["status"] == "submitted"
    decide = f"/api/v1/protests/{protest['id']}/decide/"
    assert (
        client_as(world, "player")
        .post(decide, {"upheld": True, "decision": "Round 2 was a draw."}, format="json")
        .status_code
        == 403
    )
    decided = client_as(world, "officer").post(
        decide, {"upheld": True, "decision": "Round 2 was a draw."}, format="json"
    )
    assert decided.status_code == 200 and decided.json()["status"] == "upheld"
    # Without written reasons the field is named; a decided protest cannot be decided again.
    bare = client_as(world, "officer").post(decide, {"upheld": False}, format="json")
    assert bare.status_code == 400 and bare.json()["errors"][0]["field"] == "decision"
    again = client_as(world, "officer").post(
        decide, {"upheld": False, "decision": "No."}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "refused"
    world.period.refresh_from_db()
    assert world.period.needs_recalculation


def test_an_officer_starts_a_calculation_and_follows_it(world):
    period = world.period
    officer = client_as(world, "officer")
    assert (
        client_as(world, "arbiter").post(f"/api/v1/periods/{period.pk}/calculate/").status_code
        == 403
    )
    # An open period: refused as on the page.
    next_period = period.system.periods.get(status="open")
    refused = officer.post(f"/api/v1/periods/{next_period.pk}/calculate/")
    assert refused.status_code == 409
    assert refused.json()["message"]
    progress = officer.get(f"/api/v1/periods/{period.pk}/progress/").json()
    assert progress["status"] == "succeeded" and progress["done"] is True
    desk = officer.get("/api/v1/desk/").json()
    assert desk["counts"]["protests"] == 2 and len(desk["protests"]) == 2


def test_entries_are_cursor_paginated_and_filtered(world):
    client = client_as(world, "anonymous")
    url = f"/api/v1/lists/{world.published.pk}/entries/"
    seen: list[str] = []
    page = client.get(url, {"limit": 1}).json()
    while True:
        seen.extend(e["fed_id"] for e in page["results"])
        if not page["next"]:
            break
        page = client.get(page["next"]).json()
    entries = ListEntry.objects.filter(published_list=world.published).select_related("player")
    expected = [
        e.player.fed_id
        for e in sorted(
            entries, key=lambda e: (-(e.rating if e.rating is not None else -1), e.player_id)
        )
    ]
    assert seen == expected and len(seen) == world.published.entry_count
    rated = client.get(url, {"rating_min": 2100}).json()["results"]
    assert rated and all(e["rating"] >= 2100 for e in rated)
    bad = client.get(url, {"rating_min": "high"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "rating_min"
    assert client.get(url, {"cursor": "garbage!"}).status_code == 400


def test_entries_carry_an_etag_and_answer_304(world):
    client = client_as(world, "anonymous")
    url = f"/api/v1/lists/{world.published.pk}/entries/"
    first = client.get(url)
    assert first.status_code == 200
    assert first["ETag"] and first["Last-Modified"]
    assert "public" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    other = client.get(url, {"status": "rated"})
    assert other["ETag"] != first["ETag"]


def test_a_page_is_never_longer_than_the_cap(world):
    for n in range(MAX_LIMIT + 5):
        make_player(surname=f"Bulk{n}")
    client = client_as(world, "anonymous")
    data = client.get("/api/v1/players/", {"limit": MAX_LIMIT}).json()
    assert len(data["results"]) == MAX_LIMIT
    assert data["count"] == Player.objects.count()
    # Over the cap is refused, naming the parameter (the schema's maximum), not read as the cap.
    for path in ("/api/v1/players/", "/api/v1/tournaments/"):
        over = client.get(path, {"limit": 1_000_000})
        assert over.status_code == 400
        assert [e["field"] for e in over.json()["errors"]] == ["limit"]


def test_the_player_search_is_the_sites(world):
    player = world.players[2]
    data = client_as(world, "anonymous").get("/api/v1/players/", {"q": player.fed_id}).json()
    assert [p["fed_id"] for p in data["results"]] == [player.fed_id]
    detail = client_as(world, "anonymous").get(f"/api/v1/players/{player.fed_id}/").json()
    (rating,) = detail["ratings"]
    state = player.ratings.get()
    assert rating["rating"] == state.rating and rating["system"] == world.system.code
    entry = ListEntry.objects.get(published_list=world.published, player=player)
    assert rating["k"] == entry.k and rating["status"] == entry.status
    assert [h["list"] for h in rating["history"]] == [world.published.pk]
    assert rating["ranks"]["national"] >= 1


def test_the_calculator_rates_and_names_the_field_at_fault(world, settings):
    client = client_as(world, "anonymous")
    period: dict[str, Any] = {
        "ruleset": "fide-2024",
        "period": {"start": "2026-10-01", "end": "2026-10-31"},
        "players": [{"id": "1", "rating": 2000, "games": 50}, {"id": "2", "rating": -5}],
        "tournaments": [],
    }
    bad = client.post("/api/v1/calculator/", period, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "players[1].rating"
    period["players"][1]["rating"] = 1900
    period["tournaments"] = [
        {
            "id": "T1",
            "system": "swiss",
            "end_date": "2026-10-20",
            "games": [{"white": "1", "black": "2", "result": "1-0"}],
        }
    ]
    good = client.post("/api/v1/calculator/", period, format="json")
    assert good.status_code == 200, good.content
    assert good.json()["ruleset"] == "fide-2024"
    settings.API_CALCULATOR_MAX_BYTES = 100
    big = client.post("/api/v1/calculator/", period, format="json")
    assert big.status_code == 413 and big.json()["code"] == "too_large"


def test_throttling_answers_429_with_retry_after(world, monkeypatch):
    # A cache of its own: no count from another test (the suite's rates are out of the way).
    monkeypatch.setattr(SimpleRateThrottle, "cache", LocMemCache("throttle-test", {}))
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {"anon": "3/minute", "user": "5/minute", "calculator": "2/minute"},
    )
    anonymous = client_as(world, "anonymous")
    codes = [anonymous.get("/api/v1/systems/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = anonymous.get("/api/v1/systems/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled"
    # Per user: another client is counted apart.
    officer = client_as(world, "officer")
    assert [officer.get("/api/v1/systems/").status_code for _ in range(6)] == [200] * 5 + [429]


def test_tokens_are_created_and_revoked_by_their_user(world):
    browser = Client()
    browser.force_login(world.users["arbiter"])
    page = browser.post("/account/tokens/", {"name": "club site"})
    assert page.status_code == 200
    key = page.context["new_key"]
    token = ApiToken.objects.get(user=world.users["arbiter"], name="club site")
    assert key.startswith(token.prefix) and key not in token.digest  # only a digest is stored
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert program.get("/api/v1/tournaments/?mine=true").status_code == 200
    # Another user cannot revoke it.
    other = Client()
    other.force_login(world.users["other arbiter"])
    other.post(f"/account/tokens/{token.pk}/revoke/")
    assert ApiToken.objects.filter(pk=token.pk).exists()
    browser.post(f"/account/tokens/{token.pk}/revoke/")
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    refused = program.get("/api/v1/tournaments/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"


def test_the_session_needs_the_csrf_token_for_writes(world):
    _no_open_protests(world)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(world.users["player"])
    body = json.dumps({"list": world.published.pk, "subject": "Open", "text": "Round 1."})
    refused = browser.post("/api/v1/protests/", body, content_type="application/json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["message"]
    browser.get("/account/tokens/")  # sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    accepted = browser.post(
        "/api/v1/protests/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert accepted.status_code == 201, accepted.content


def test_unversioned_paths_point_to_v1(world):
    response = Client().get("/api/players/?q=x")
    assert response.status_code == 308
    assert response["Location"] == "/api/v1/players/?q=x"
    assert Client().get("/api/")["Location"] == "/api/v1/"


def test_the_documentation_pages_load_nothing_from_elsewhere(world):
    html = Client().get("/api/v1/docs/").content.decode()
    assert "http://" not in html and "https://" not in html
    assert "<style" not in html and "<script>" not in html
    # Redoc's address leads to the same page (its bundle fetched a logo from a CDN).
    assert Client().get("/api/v1/redoc/")["Location"] == "/api/v1/docs/"
    script = Client().get("/api/v1/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_an_unknown_api_url_answers_in_the_error_shape(world):
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {
        "status": 404,
        "code": "not_found",
        "message": "Not found.",
        "errors": [],
    }
    assert "text/html" in Client().get("/no-such-page/")["Content-Type"]


def test_the_crosstable_is_the_tournament_pages(world):
    data = client_as(world, "anonymous").get(f"/api/v1/tournaments/{world.rated.pk}/crosstable/")
    assert data.status_code == 200
    table = data.json()
    assert table["rounds"] == 2
    first = table["rows"][0]
    assert first["start_rank"] == 1 and first["fed_id"] == world.players[0].fed_id
    # Player 1 beat player 2 in round 1 and had no game in round 2.
    assert first["cells"][0]["opponent"] == 2 and first["cells"][0]["result"] == "1"
    assert first["cells"][1] is None
    assert first["points"] == 1.0
    changes = client_as(world, "anonymous").get(f"/api/v1/tournaments/{world.rated.pk}/changes/")
    assert changes.status_code == 200
    rows = {p["fed_id"]: p for p in changes.json()["players"]}
    assert rows[world.players[0].fed_id]["change"] > 0 > rows[world.players[1].fed_id]["change"]
    calc = client_as(world, "anonymous").get(
        f"/api/v1/tournaments/{world.rated.pk}/players/1/calculation/"
    )
    assert calc.status_code == 200
    (game,) = calc.json()["games"]
    assert game["opponent"] == world.players[1].fed_id and game["score"] == 1.0
