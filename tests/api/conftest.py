"""The API tests' world: a period calculated and published, the seven users of the
authorization matrix, each with an API token, two tournaments and two protests."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from rest_framework.test import APIClient

from core.api.tokens import token_create
from tests.factories import make_protest, make_published, make_role_users, make_tournament

ROLES = ("anonymous", "player", "other player", "arbiter", "other arbiter", "officer", "admin")


def make_world(capture: Any) -> SimpleNamespace:
    """`capture`: pytest-django's django_capture_on_commit_callbacks (the calculation runs
    when its request commits)."""
    system, period, players, rated, published = make_published(capture)
    role_users = make_role_users(players)
    player, other_player = role_users["player"], role_users["other player"]
    arbiter, other_arbiter = role_users["arbiter"], role_users["other arbiter"]
    tournament = make_tournament(system, arbiter)
    other_tournament = make_tournament(system, other_arbiter)
    protest = make_protest(published, players[0], player)
    other_protest = make_protest(published, players[1], other_player)
    users = (None, *role_users.values())
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
