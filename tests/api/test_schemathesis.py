"""The API against its own OpenAPI schema, on a live test server: schemathesis generates
requests for every operation from the schema, as an anonymous client and as each role (its
token), and checks every answer: no server error, a documented status code, content type and
headers, a body that matches the schema. A bounded number of examples per operation and role
keeps it well under a minute."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import make_world

#: Anonymous, and one user of each role (the superuser passes every rule: left out).
ROLES = ("anonymous", "player", "arbiter", "officer")
EXAMPLES = 3
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@contextmanager
def _no_capture(**_: Any) -> Iterator[None]:
    yield  # transactional test: on_commit callbacks run at each commit already


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_api_keeps_to_its_schema(live_server: Any) -> None:
    world = make_world(_no_capture)
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/v1/schema/?format=json")
    failures: list[str] = []
    calls: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        for role in ROLES:
            token = world.tokens[role]
            headers = {"Authorization": f"Token {token}"} if token else {}
            _explore(operation, live_server.url, role, headers, calls, failures)
    assert len(calls) >= len(ROLES) * 20
    assert not failures, f"{len(failures)} failures:\n" + "\n\n".join(failures[:20])


def _explore(
    operation: Any,
    base_url: str,
    role: str,
    headers: dict[str, str],
    calls: list[str],
    failures: list[str],
) -> None:
    """EXAMPLES generated requests to one operation as one role; failures are collected."""

    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        calls.append(role)
        try:
            case.call_and_validate(base_url=base_url, headers=headers, checks=CHECKS)
        except (Exception, BaseExceptionGroup) as exc:  # each failure, with its case
            failures.append(f"{role} {case.method} {case.formatted_path}: {exc}"[:2000])

    run()
