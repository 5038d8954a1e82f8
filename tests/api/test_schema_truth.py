"""What the schema says the API does, one promise at a time (docs/api.md, "The schema tells the
truth"; the whole of it is tests/api/test_schemathesis.py): public operations declared public,
query parameters read as declared, closed bodies of the declared JSON types, 400 for what does
not match the schema and 422 for what matches it and cannot be processed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.api.conftest import client_as

pytestmark = pytest.mark.django_db


def _schema() -> dict[str, Any]:
    return dict(json.loads(Client().get("/api/v1/schema/?format=json").content))


def test_operations_anonymous_clients_may_call_are_declared_public(world):
    operations = _schema()["paths"]
    public = {
        f"{method.upper()} {path}"
        for path, methods in operations.items()
        for method, operation in methods.items()
        if {} in operation["security"]
    }
    assert "GET /api/v1/lists/{id}/entries/" in public
    assert "POST /api/v1/calculator/" in public
    assert "GET /api/v1/desk/" not in public and "POST /api/v1/protests/" not in public
    anonymous = client_as(world, "anonymous")
    for label in public:
        method, path = label.split(" ", 1)
        if method == "GET" and "{" not in path:
            assert anonymous.get(path).status_code == 200, label
    assert anonymous.get("/api/v1/desk/").status_code == 401


def test_every_query_parameter_declares_its_type_and_the_numbers_their_bounds():
    for path, methods in _schema()["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    schema = parameter["schema"]
                    where = f"{method} {path} {parameter['name']}"
                    assert schema["type"] in ("string", "integer", "boolean"), where
                    if schema["type"] == "integer":
                        assert "minimum" in schema and "maximum" in schema, where
                    if schema["type"] == "string" and not {"enum", "format"} & set(schema):
                        assert "pattern" in schema, where


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        (f"limit={200 + 1}", "limit"),
        ("offset=-1", "offset"),
        ("limit=", "limit"),
        ("limit=2&limit=3", "limit"),
        ("needs_recalculation=-338820", "needs_recalculation"),
        ("needs_recalculation=", "needs_recalculation"),
        ("status=", "status"),
        ("status=nonsense", "status"),
        ("start_after=20261001", "start_after"),
    ],
)
def test_a_query_parameter_off_its_schema_is_400_naming_it(world, query, field):
    response = client_as(world, "anonymous").get(f"/api/v1/periods/?{query}")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_query_parameters_within_their_schema_are_read(world):
    client = client_as(world, "anonymous")
    assert client.get("/api/v1/periods/?needs_recalculation=false&limit=200").status_code == 200
    assert client.get("/api/v1/lists/?period=999999").json()["count"] == 0  # an id of nothing
    url = f"/api/v1/lists/{world.published.pk}/entries/"
    assert client.get(url, {"active": "0", "born_from": "1900"}).status_code == 200
    assert client.get(url, {"rating_min": "2000.5"}).status_code == 400
    assert client.get(url, {"cursor": "bad cursor"}).status_code == 400  # off its pattern
    assert client.get(url, {"cursor": "QUJD"}).status_code == 422  # well formed, not ours


def test_a_body_of_other_json_types_or_fields_is_400_one_naming_nothing_is_422(world):
    player, officer = client_as(world, "player"), client_as(world, "officer")
    decide = f"/api/v1/protests/{world.protest.pk}/decide/"
    wrong = officer.post(decide, {"upheld": "true", "decision": 0}, format="json")
    assert wrong.status_code == 400
    assert {e["field"] for e in wrong.json()["errors"]} == {"upheld", "decision"}
    nowhere = player.post("/api/v1/protests/", {"list": 999999, "text": "x"}, format="json")
    assert nowhere.status_code == 422 and nowhere.json()["errors"][0]["field"] == "list"
    nul = officer.post(decide, {"upheld": False, "decision": "a\x00b"}, format="json")
    assert nul.status_code == 400


def test_the_calculator_tells_a_malformed_body_from_one_the_engine_refuses(world):
    client = client_as(world, "anonymous")
    period = {
        "ruleset": "fide-2024",
        "period": {"start": "2026-10-01", "end": "2026-10-31"},
        "players": [{"id": "1", "rating": 2000}],
        "tournaments": [
            {
                "id": "T",
                "system": "swiss",
                "end_date": "2026-10-20",
                "games": [{"white": "1", "black": "2", "result": "1-0"}],
            }
        ],
    }
    unknown_player = client.post("/api/v1/calculator/", period, format="json")
    assert unknown_player.status_code == 422
    assert unknown_player.json()["errors"][0]["field"] == "tournaments[0].games[0].black"
    extra = client.post("/api/v1/calculator/", {**period, "extra": 1}, format="json")
    assert extra.status_code == 400
    declared = _schema()["paths"]["/api/v1/calculator/"]["post"]["requestBody"]
    body = declared["content"]["application/json"]["schema"]
    assert declared["required"] and body["additionalProperties"] is False


def test_a_tournament_not_rated_yet_has_no_changes_yet(world):
    response = client_as(world, "anonymous").get(
        f"/api/v1/tournaments/{world.tournament.pk}/changes/"
    )
    assert response.status_code == 200
    assert response.json() == {"list": None, "players": []}
