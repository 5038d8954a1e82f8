"""The arbiter's desk: his tournaments by status, each with its next action."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from tests.factories import make_system, make_tournament, make_user
from tournaments import selectors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_desk_groups_by_status_with_the_next_action(client) -> None:
    system = make_system(ruleset="fide-2024")
    arbiter = make_user("deskarb", role=roles.ARBITER)
    other = make_user("otherarb", role=roles.ARBITER)
    today = timezone.localdate()
    future = make_tournament(
        system,
        arbiter,
        name="Future",
        start_date=today + dt.timedelta(days=9),
        end_date=today + dt.timedelta(days=10),
    )
    over = make_tournament(
        system,
        arbiter,
        name="Over",
        start_date=today - dt.timedelta(days=5),
        end_date=today - dt.timedelta(days=3),
    )
    late = make_tournament(
        system, arbiter, name="Late", start_date=today, end_date=today, late_registration=True
    )
    done = make_tournament(system, arbiter, name="Done")
    Tournament.objects.filter(pk=done.pk).update(status="published")
    make_tournament(system, other, name="Not mine")
    desk = selectors.tournament_desk(user=arbiter, today=today)
    assert [status for status, _entries in desk] == ["registered", "published"]
    actions = {e.tournament.name: e.action for _s, entries in desk for e in entries}
    assert actions == {
        "Future": "play",
        "Over": "upload",
        "Late": "await_approval",
        "Done": "none",
    }
    client.force_login(arbiter)
    html = client.get(reverse("tournaments:desk")).content.decode()
    assert "Not mine" not in html and 'id="desk-published"' in html
    assert f'href="/tournaments/{over.pk}/manage/">Upload the report' in html
    assert future.name in html and late.name in html
