"""The tournament resource's kind of competition and scope flags, and a rating system's kinds
(tournaments/kinds.py; docs/api.md)."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_as
from tests.api.test_api import _registration
from tests.factories import make_system

pytestmark = pytest.mark.django_db


def test_the_api_registers_and_shows_the_kind_and_flags(world) -> None:
    client = client_as(world, "arbiter")
    ruleset = world.system.ruleset
    kinds = client.get(f"/api/v1/systems/{world.system.code}/").json()["competition_kinds"]
    if not kinds:
        # The world's regulation names none: a kind is refused (422, named), none is fine.
        response = client.post(
            "/api/v1/tournaments/",
            _registration(world, kind="regional_championship"),
            format="json",
        )
        assert response.status_code == 422, (ruleset, response.content)
        assert [e["field"] for e in response.json()["errors"]] == ["kind"]
    body = _registration(world, thematic=True, organised_by_others=True)
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    shown = client.get(f"/api/v1/tournaments/{response.json()['id']}/").json()
    assert (shown["kind"], shown["thematic"], shown["organised_by_others"]) == ("", True, True)
    assert shown["rated_by_its_rules"] is False


def test_a_systems_resource_lists_its_regulations_kinds(world) -> None:
    system = make_system(ruleset="cnxc-2000", cycle="semestral", rate_of_play="correspondence")
    kinds = (
        client_as(world, "anonymous")
        .get(f"/api/v1/systems/{system.code}/")
        .json()["competition_kinds"]
    )
    # 5.3: 2200 for the Championship final, 2000 for board 1 of the Team final and the
    # Permanent of the Honour Category.
    assert [(k["id"], k["virtual_rating"], k["article"]) for k in kinds] == [
        ("championship_final", 2200, "cnxc-2000 5.3"),
        ("team_championship_final_board_1", 2000, "cnxc-2000 5.3"),
        ("permanent_honour", 2000, "cnxc-2000 5.3"),
    ]
