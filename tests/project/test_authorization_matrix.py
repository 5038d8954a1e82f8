"""Who may do what, URL by URL: the authorization matrix.

Every URL pattern of the project, walked from the resolver, has an entry in EXPECTED: for GET
and for POST, the outcome for each of seven users (ROLES):

- ``"ok"``: the view ran: 200 (or 304), or a redirect anywhere but the login page (the action
  was done, or refused by a business rule with a message: a period already closed…);
- ``"login"``: a redirect to the login page (an anonymous visitor on a page that needs a role);
- ``403``, ``404``, ``405``.

``test_every_url_pattern_has_an_entry`` fails when a pattern has no entry (so a new URL cannot
slip in unchecked) or an entry names a pattern that no longer exists. Left out, by prefix:
``admin/`` (Django's admin checks is_staff and the model permissions itself;
tests/project/test_admin_statuses.py covers what this project changes there) and ``i18n/`` (Django's
set_language, the same for everyone). Static files have no URL pattern (WhiteNoise serves them
from its middleware). The API schema is in: it is public like the API.

The cases: tests/project/authorization_pages.py (the pages) and authorization_api.py (the
API), in the vocabulary of authorization_cases.py. The objects (the `world` fixture,
tests/project/conftest.py) come from tests/factories.py: a period calculated and published, the
players' protests against its list (the player's and the other player's), the arbiter's
tournament and the other arbiter's, a list import job. Each request runs in a savepoint that is
rolled back, so a POST (close, publish, approve…) leaves the same objects to the next case;
POSTs carry a valid payload, so an allowed POST does its work rather than answering 400.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.project.authorization_api import API
from tests.project.authorization_cases import LOGIN, OK, ROLES, Case, JSONBody
from tests.project.authorization_pages import PAGES

EXPECTED: dict[str, Case] = {**PAGES, **API}

#: Checked elsewhere or the same for everyone (see the module's docstring).
EXCLUDED_PREFIXES = ("admin/", "i18n/")


def url_patterns(
    resolver: URLResolver | None = None, prefix: str = ""
) -> Iterator[tuple[str, Any]]:
    """(the full pattern, the view) for every URL pattern, through every include()."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from url_patterns(entry, prefix + str(entry.pattern))
        else:
            assert isinstance(entry, URLPattern)
            yield prefix + str(entry.pattern), entry.callback


def checked_patterns() -> dict[str, Any]:
    return {p: view for p, view in url_patterns() if not p.startswith(EXCLUDED_PREFIXES)}


def test_every_url_pattern_has_an_entry() -> None:
    patterns = set(checked_patterns())
    assert not patterns - set(EXPECTED), (
        f"URL patterns with no expected outcomes: {sorted(patterns - set(EXPECTED))}"
    )
    assert not set(EXPECTED) - patterns, (
        f"entries for no URL pattern: {sorted(set(EXPECTED) - patterns)}"
    )
    for case in EXPECTED.values():
        assert len(case.get) == len(case.post) == len(ROLES)


def test_every_view_of_the_apps_checks_a_named_permission() -> None:
    """ratings/views/*, protests/views.py, lists/views.py, desk/views.py, accounts/views.py,
    tournaments/views.py and players/views.py use core.permissions.permission_required, which
    marks the view with its permission."""
    apps = ("ratings.views", "protests.views", "lists.views", "desk.views", "accounts.views")
    apps_views = {
        p: v
        for p, v in checked_patterns().items()
        if v.__module__.startswith((*apps, "tournaments.views", "players.views"))
    }
    assert len(apps_views) > 30
    unmarked = sorted(
        p for p, v in apps_views.items() if not getattr(v, "permission_required", None)
    )
    assert not unmarked, f"views without permission_required: {unmarked}"


@contextmanager
def rolled_back() -> Iterator[None]:
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def outcome(response: Any) -> Any:
    if response.status_code in (301, 302, 303):
        return LOGIN if response["Location"].startswith(resolve_url(settings.LOGIN_URL)) else OK
    if response.status_code in (200, 201, 202, 304):
        return OK
    return response.status_code


@pytest.mark.django_db
def test_authorization_matrix(world: SimpleNamespace) -> None:
    mismatches = []
    checked = 0
    for pattern, case in EXPECTED.items():
        for method, expected in (("GET", case.get), ("POST", case.post)):
            for role, user, want in zip(ROLES, world.users, expected, strict=True):
                client = Client()  # no cookie (session, messages) from the case before
                with rolled_back():
                    if user is not None:
                        client.force_login(user)
                    path = case.path(world)
                    if method == "GET":
                        response = client.get(path)
                    else:
                        data = case.data(world) if case.data else {}
                        if isinstance(data, JSONBody):
                            body = json.dumps(data.make(world), cls=DjangoJSONEncoder)
                            response = client.post(path, body, content_type="application/json")
                        else:
                            response = client.post(path, data)
                    got = outcome(response)
                checked += 1
                if got != want:
                    mismatches.append(
                        f"{method} {path} ({pattern}) as {role}: expected {want}, got {got}"
                        f" ({response.status_code} {response.get('Location', '')})"
                    )
    assert checked == len(EXPECTED) * 2 * len(ROLES)
    assert not mismatches, "\n".join(mismatches)
