"""Issue 23 item 6, "data kept in step": the slips of the arbiter's flow (the crosstable form's
rounds and colours, a tournament validated after its period was published, matching on a FIDE
ID another record holds). Each test failed before its fix."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core import roles
from periods import selectors as period_selectors
from periods.models import PeriodStatus, RatingPeriod
from tests.factories import (
    CROSSTABLE_FORM,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tests.tournaments.test_flow import sample_trf, upload
from tournaments import selectors
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    system = make_system(ruleset="fide-2024", rate_of_play="standard")
    arbiter = make_user("arbiter1", role=roles.ARBITER)
    officer = make_user("officer1", role=roles.RATING_OFFICER)
    start = timezone.localdate() - dt.timedelta(days=4)
    tournament = make_tournament(
        system, arbiter, start_date=start, end_date=start + dt.timedelta(days=2)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=24)
    )
    tournament.refresh_from_db()
    return {"system": system, "arbiter": arbiter, "officer": officer, "tournament": tournament}


# ------------------------------------------------------------------ 2. the crosstable form


def test_crosstable_form_stores_no_invented_round_or_colour(client, world) -> None:
    """A 3-player round robin from the form: 3 games, whose rounds and colours the form does
    not give. Before: all in round 1, the first player White in both of his."""
    t = world["tournament"]
    people = [
        make_player(surname="Vidal", given_name="Marc"),
        make_player(surname="García López", given_name="Ana"),
        make_player(surname="Nuevo", given_name="Uno"),
    ]
    data = {**CROSSTABLE_FORM, **{f"fed_id_{i}": p.fed_id for i, p in enumerate(people, 1)}}
    client.force_login(world["arbiter"])
    response = client.post(reverse("tournaments:crosstable", args=[t.pk]), data)
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == "validated"
    games = list(Game.objects.filter(tournament=t))
    assert len(games) == 3
    assert all(g.round is None and not g.colours_known for g in games)
    # The public page says unknown, never "R1" with a colour.
    table = selectors.tournament_crosstable(tournament=t)
    cells = [c for row in table.rows for c in row.cells if c]
    assert len(cells) == 6 and all(c.round is None and c.colour == "" for c in cells)
    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Rounds and colours unknown" in page
    assert ">R1<" not in page


# ------------------------------------------------------------------ 1. validated after publication


def test_validated_after_its_period_was_published_moves_to_the_open_period(client, world) -> None:
    """The report arrived in time for its period, waited for the matching while that period
    was closed and published, and was validated afterwards. Before: it stayed in the published
    period, "will be rated" there, and the open period's desk did not list it."""
    t, system = world["tournament"], world["system"]
    make_player(surname="Muñoz Pérez", given_name="José", fide_id=2200001)
    make_player(surname="García López", given_name="Ana", sex="F", birth_year=1990)
    make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    own = period_selectors.period_dates(system=system, day=t.end_date)
    published = make_period(system, start=own.start, end=own.end, closing_date=own.closing_date)
    client.force_login(world["arbiter"])
    upload(client, t, sample_trf())
    t.refresh_from_db()
    assert t.status == "report_received" and t.period == published
    # Meanwhile the officer closes, calculates and publishes that period; the next one opens.
    RatingPeriod.objects.filter(pk=published.pk).update(status=PeriodStatus.PUBLISHED)
    next_open = make_period(system, start=own.end + dt.timedelta(days=1))
    client.post(reverse("tournaments:matching", args=[t.pk]), {"pick_3": "new"})
    t.refresh_from_db()
    assert t.status == "validated"
    assert t.period == next_open and t.moved_from_period == published
    # The arbiter's desk and page say so.
    desk = client.get(reverse("tournaments:desk")).content.decode()
    assert "was already published" in desk and str(next_open) in desk
    manage = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert 'id="period-moved"' in manage
    # The officer's desk lists it in the open period, with the choice of a correction.
    client.force_login(world["officer"])
    officer_desk = client.get(reverse("ratings:desk")).content.decode()
    assert 'id="moved-after-publication"' in officer_desk and t.name in officer_desk
    response = client.post(reverse("tournaments:rate_as_correction", args=[t.pk]))
    assert response.status_code == 302
    t.refresh_from_db()
    published.refresh_from_db()
    assert t.period == published and published.needs_recalculation
    officer_desk = client.get(reverse("ratings:desk")).content.decode()
    assert 'id="moved-after-publication"' not in officer_desk


def test_the_arbiter_cannot_choose_the_correction(client, world) -> None:
    client.force_login(world["arbiter"])
    t = world["tournament"]
    response = client.post(reverse("tournaments:rate_as_correction", args=[t.pk]))
    assert response.status_code == 403


# ------------------------------------------------------------------ 3. a FIDE ID held by another


def test_matching_a_fide_id_taken_by_another_record(client, world) -> None:
    """Line 1 reports the FIDE ID 2200001, which the registry gives to someone else (another
    name, another birth year). Before: the page offered "Create a new player", and creating
    him refused the whole form ("Player with this FIDE ID already exists. Nothing was saved")."""
    t = world["tournament"]
    owner = make_player(surname="Otro", given_name="Jugador", fide_id=2200001, birth_year=1950)
    make_player(surname="García López", given_name="Ana", sex="F", birth_year=1990)
    make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    client.force_login(world["arbiter"])
    upload(client, t, sample_trf())
    page = client.get(reverse("tournaments:matching", args=[t.pk])).content.decode()
    row = page[page.index('id="pick_1"') : page.index("</select>", page.index('id="pick_1"'))]
    assert f'value="{owner.pk}"' in row  # the owner is offered
    assert 'value="new_without_fide"' in row and 'value="new"' not in row
    response = client.post(
        reverse("tournaments:matching", args=[t.pk]),
        {"pick_1": "new_without_fide", "pick_3": "new"},
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == "validated"
    line = t.players.get(start_rank=1)
    assert line.player != owner and line.player.fide_id is None and line.fide_id == "2200001"
    owner.refresh_from_db()
    assert owner.fide_id == 2200001
    # The officer is told, on his desk.
    client.force_login(world["officer"])
    desk = client.get(reverse("ratings:desk")).content.decode()
    conflicts = desk[desk.index('id="fide-id-conflicts"') :]
    assert "2200001" in conflicts and str(owner) in conflicts and t.name in conflicts


def test_the_api_rates_a_moved_tournament_as_a_correction(client, world) -> None:
    """The same choice through the API v1 (the page's service): 409 until the tournament was
    moved, then the tournament in its own period, which is marked for recalculation."""
    t, system = world["tournament"], world["system"]
    own = make_period(system, start=dt.date(2026, 10, 1), status=PeriodStatus.PUBLISHED)
    now_open = make_period(system, start=dt.date(2026, 11, 1))
    client.force_login(world["officer"])
    url = f"/api/v1/tournaments/{t.pk}/rate-as-correction/"
    assert client.post(url).status_code == 409
    Tournament.objects.filter(pk=t.pk).update(
        status="validated", period=now_open, moved_from_period=own
    )
    response = client.post(url)
    assert response.status_code == 200 and response.json()["period"] == own.pk
    own.refresh_from_db()
    assert own.needs_recalculation
