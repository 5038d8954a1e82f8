"""Matching (issue 14 items 2 and 10): a FIDE ID with another name is not matched silently; one
form with "create all new", a registry search, errors on their row, choices kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Player
from tests.factories import make_player
from tournaments.models import Report, TournamentPlayer

from .test_flow import sample_trf, setup, trf_line, upload  # noqa: F401  (setup is a fixture)

pytestmark = pytest.mark.django_db


def trf(lines: list[str]) -> bytes:
    head = ["012 Open de prueba", "022 Sitges", "XXR 3"]
    return ("\n".join(head + lines) + "\n").encode()


def test_fide_id_of_another_player_is_not_matched_and_warned(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    wrong = make_player(
        surname="Lorenzo Ávila", given_name="Álvaro", fide_id=32000111, birth_year=2013
    )
    data = sample_trf(unknown_name="Benitez Cadenas, Luis Miguel")
    # Player 3's FIDE ID column (58-68) points to the registry's Lorenzo Ávila.
    lines = data.decode().split("\n")
    for i, text in enumerate(lines):
        if text.startswith("001    3"):
            lines[i] = text[:57] + f"{32000111:>11}" + text[68:]
    client.force_login(setup["arbiter"])
    assert upload(client, t, "\n".join(lines).encode()).status_code == 302
    line = TournamentPlayer.objects.get(tournament=t, start_rank=3)
    assert line.player_id is None  # not matched silently
    report = Report.objects.get(tournament=t)
    warned = [p for p in report.problems if p["code"] == "fide_id_other_player"]
    assert len(warned) == 1 and warned[0]["severity"] == "warning"
    assert warned[0]["params"]["rank"] == 3 and "Benitez" in warned[0]["params"]["name"]
    assert warned[0]["line"] is not None
    page = client.get(reverse("tournaments:matching", args=[t.pk])).content.decode()
    assert "fide-mismatch" in page and str(wrong) in page
    # The same FIDE ID with the same name is still a sure match (José, by FIDE ID).
    assert TournamentPlayer.objects.get(tournament=t, start_rank=1).player == setup["jose"]


def test_create_all_new_in_one_click(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    data = trf(
        [
            trf_line(1, "Alpha, Ana", ["   2 w 1"], points=1.0),
            trf_line(2, "Beta, Bea", ["   1 b 0"], points=0.0),
            trf_line(3, "Vidal, Marc", ["0000 - Z"], fide_id="2200004", points=0.0),
        ]
    ).replace(b"XXR 3", b"XXR 1")
    client.force_login(setup["arbiter"])
    upload(client, t, data)
    response = client.post(reverse("tournaments:matching", args=[t.pk]), {"create_all_new": "1"})
    assert response.status_code == 302
    assert Player.objects.filter(surname__in=["Alpha", "Beta"]).count() == 2
    assert not TournamentPlayer.objects.filter(tournament=t, player__isnull=True).exists()
    assert TournamentPlayer.objects.get(tournament=t, start_rank=3).player == setup["marc"]


def test_registry_search_by_row_and_errors_on_their_row_with_choices_kept(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())  # line 3 "Nuevo Jugador, Pedro" is new
    make_player(surname="Taken", given_name="Id", fed_id="E-77")
    search = client.get(reverse("tournaments:player-search", args=[t.pk]), {"q": "Vidal"})
    assert search.status_code == 200
    assert [r["fed_id"] for r in search.json()["results"]] == [setup["marc"].fed_id]
    url = reverse("tournaments:matching", args=[t.pk])
    # Line 3 created with a federation ID the registry already has: an error on row 3,
    # nothing saved, the choice and the typed ID shown again.
    response = client.post(url, {"pick_3": "new", "fedid_3": "E-77"})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="errors-3"' in html and "Player 3, Nuevo Jugador, Pedro" in html
    assert '<option value="new" selected>' in html and 'value="E-77"' in html
    assert not Player.objects.filter(surname="Nuevo Jugador").exists()
    # A federation ID nobody has, typed in the search field: an error on that row.
    response = client.post(url, {"find_3": "NOPE-1"})
    assert response.status_code == 422 and "NOPE-1" in response.content.decode()
    # The search's answer picks the registry player.
    pedro = make_player(surname="Nuevo Jugador", given_name="Pedro", fed_id="E-88")
    response = client.post(url, {"find_3": "E-88"}, follow=True)
    assert response.redirect_chain[0][1] == 302
    # One of each, in the singular (not "1 new players created").
    assert "1 player picked. 0 new players created." in response.content.decode()
    assert TournamentPlayer.objects.get(tournament=t, start_rank=3).player == pedro
    t.refresh_from_db()
    assert t.status == "validated"


def test_the_same_registry_player_on_two_lines_is_an_error_on_the_row(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    response = client.post(
        reverse("tournaments:matching", args=[t.pk]), {"pick_3": str(setup["jose"].pk)}
    )
    assert response.status_code == 422
    assert "already player 1" in response.content.decode()
