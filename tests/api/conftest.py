"""The API tests' world: a period calculated and published, the seven users of the
authorization matrix, each with an API token, two tournaments and two protests."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from core.api.tokens import token_create
from core.roles import ARBITER, PLAYER, RATING_OFFICER
from periods import services as period_services
from ratings.calculation import runs
from ratings.publication import services as publication
from tests.factories import build, make_player_user, make_protest, make_tournament, make_user

ROLES = ("anonymous", "player", "other player", "arbiter", "other arbiter", "officer", "admin")


def make_world(capture: Any) -> SimpleNamespace:
    """`capture`: pytest-django's django_capture_on_commit_callbacks (the calculation runs
    when its request commits)."""
    system, period, players, rated = build()
    with capture(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    published = publication.list_publish(period=period)
    player = make_player_user(players[0], "player", role=PLAYER)
    other_player = make_player_user(players[1], "other-player", role=PLAYER)
    arbiter = make_user("arbiter", role=ARBITER)
    other_arbiter = make_user("other-arbiter", role=ARBITER)
    officer = make_user("officer", role=RATING_OFFICER)
    admin = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw-12345678")
    tournament = make_tournament(system, arbiter)
    other_tournament = make_tournament(system, other_arbiter)
    protest = make_protest(published, players[0], player)
    other_protest = make_protest(published, players[1], other_player)
    users = (None, player, other_player, arbiter, other_arbiter, officer, admin)
    tokens = tuple(None if u is None else token_create(user=u, name="tests")[1] for u in users)
    rated.refresh_from_db()
    return SimpleNamespace(
        system=system,
        period=period,
        players=players,
        published=published,
        rated=rated,
        tournament=tournament,
        other_tournament=other_tournament,
        protest=protest,
        other_protest=other_protest,
        users=dict(zip(ROLES, users, strict=True)),
        tokens=dict(zip(ROLES, tokens, strict=True)),
    )


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> SimpleNamespace:
    return make_world(django_capture_on_commit_callbacks)


def client_as(world: SimpleNamespace, role: str) -> APIClient:
    """A client that authenticates with the role's token (none for anonymous)."""
    client = APIClient()
    key = world.tokens[role]
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client
