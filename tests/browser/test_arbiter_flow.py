"""An arbiter's evening, in Debian's Chromium: log in, register, upload a TRF, resolve an
unknown player, see the tournament validated."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from players.models import Player
from tests.browser.pages import tournament_register
from tests.factories import make_player, make_system, make_user
from tests.tournaments.test_flow import sample_trf
from tournaments.models import Tournament


def time_passes(tournament: Tournament) -> None:
    """The tournament, registered in time, is over when its report is sent (a report received
    before the last day is refused): its dates move to last week, its registration before."""
    days = (tournament.start_date - timezone.localdate()).days + 7
    Tournament.objects.filter(pk=tournament.pk).update(
        start_date=tournament.start_date - dt.timedelta(days=days),
        end_date=tournament.end_date - dt.timedelta(days=days),
        registered_at=tournament.registered_at - dt.timedelta(days=days),
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_arbiter_registers_uploads_resolves_and_validates(browser_page, live_server, login) -> None:
    page = browser_page
    system = make_system(name="FIDE standard", ruleset="fide-2024", rate_of_play="standard")
    make_user("arbitra", role=roles.ARBITER)
    make_player(surname="Muñoz Pérez", given_name="José", fide_id=2200001)
    make_player(surname="García López", given_name="Ana", sex="F", birth_year=1990)
    make_player(surname="Vidal", given_name="Marc", fide_id=2200004)

    login(page, "arbitra")
    start = timezone.localdate() + dt.timedelta(days=20)
    tournament = tournament_register(
        page,
        name="Obert d'Hivern",
        city="Sitges",
        start=start,
        end=start + dt.timedelta(days=2),
        system="round_robin",
        rounds=3,
        chief_arbiter="A. Arbiter",
        rating_system=system,
    )
    assert tournament.status == "registered" and not tournament.late_registration
    time_passes(tournament)

    page.set_input_files(
        "#id_file", files=[{"name": "hivern.trf", "mimeType": "text/plain", "buffer": sample_trf()}]
    )
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#matching-summary")
    assert "3 matched, 0 ambiguous, 1 new." in page.inner_text("#matching-summary")
    assert page.inner_text("#tournament-status") == "Report received"

    page.click("#review-players")
    row = page.locator("tr.match-new")
    assert "Nuevo Jugador, Pedro" in row.inner_text()
    assert not Player.objects.filter(surname="Nuevo Jugador").exists()
    page.select_option("#pick_3", "new")
    page.click("#confirm-players")
    page.wait_for_selector("text=The tournament is validated.")
    assert page.inner_text("#tournament-status") == "Validated"
    expect(page.locator("tr.match-matched")).to_have_count(4)

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    lifecycle = page.inner_text("#lifecycle")
    assert "Validated: —" not in lifecycle and "Report received: —" not in lifecycle
    assert Player.objects.filter(surname="Nuevo Jugador", given_name="Pedro").count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_crosstable_form_picks_registry_players(browser_page, live_server, login) -> None:
    from tests.factories import make_tournament
    from tournaments.models import TournamentPlayer

    page = browser_page
    system = make_system(ruleset="fide-2024")
    arbiter = make_user("arbitre", role=roles.ARBITER)
    start = timezone.localdate() - dt.timedelta(days=5)
    tournament = make_tournament(system, arbiter, start_date=start, end_date=start)
    marc = make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    login(page, "arbitre")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/crosstable/?size=2")
    page.fill("[name=name_1]", "Vida")
    # A selector, not wait_for_function: the CSP (no 'unsafe-eval') refuses a string predicate.
    page.wait_for_selector("#registry-players option", state="attached")
    option = page.get_attribute("#registry-players option", "value")
    assert option == f"Vidal, Marc ({marc.fed_id})"
    page.fill("[name=name_1]", option)
    assert page.input_value("[name=fed_id_1]") == marc.fed_id
    assert page.input_value("[name=name_1]") == "Vidal, Marc"
    page.fill("[name=name_2]", "Nou, Jugador")
    page.fill("[name=cell_1_2]", "1 ½")
    page.fill("[name=cell_2_1]", "0 ½")
    page.click("#crosstable-form button[type=submit]")
    page.wait_for_selector("text=Crosstable accepted")
    line = TournamentPlayer.objects.get(tournament=tournament, start_rank=1)
    assert line.player == marc
