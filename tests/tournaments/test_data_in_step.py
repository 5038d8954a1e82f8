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
from tests.factories import (
    CROSSTABLE_FORM,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
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
