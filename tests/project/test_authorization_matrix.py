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

The objects come from tests/factories.py: a period calculated and published, the players'
protests against its list (the player's and the other player's), the arbiter's tournament and
the other arbiter's, a list import job. Each request runs in a savepoint that is rolled back, so
a POST (close, publish, approve…) leaves the same objects to the next case; POSTs carry a valid
payload, so an allowed POST does its work rather than answering 400.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from core.api.tokens import token_create
from protests.models import ProtestAttachment
from tests.factories import (
    CROSSTABLE_FORM,
    make_import_job,
    make_protest,
    make_published,
    make_role_users,
    make_tournament,
    registration_data,
)
from tournaments.models import ReportUploadJob
from tournaments.services import report_upload

ROLES = ("anonymous", "player", "other player", "arbiter", "other arbiter", "officer", "admin")
OK, LOGIN = "ok", "login"

# Outcomes per role, in the order of ROLES.
EVERYONE = (OK, OK, OK, OK, OK, OK, OK)
NO_METHOD = (405, 405, 405, 405, 405, 405, 405)
NOT_FOUND = (404, 404, 404, 404, 404, 404, 404)
#: tournaments.manage_tournament: the arbiter who registered it, officers (and the superuser).
RUNS_IT = (LOGIN, 403, 403, OK, 403, OK, OK)
#: tournaments.register_tournament: arbiters and officers.
ARBITERS = (LOGIN, 403, 403, OK, OK, OK, OK)
#: periods.*, ratings.publish_list, lists.import_list, protests.decide_protest,
#: tournaments.approve_registration.
OFFICERS = (LOGIN, 403, 403, 403, 403, OK, OK)
#: protests.submit_protest: players linked to the registry (the superuser passes every rule,
#: and the service then refuses him with a message: no player of his own).
PLAYERS = (LOGIN, OK, OK, 403, 403, 403, OK)
#: protests.view_protest on the player's protest: he, officers, the superuser.
OWNS_IT = (LOGIN, OK, 403, 403, 403, OK, OK)
#: protests.answer_protest on the player's protest (answer, appeal): he alone (and the superuser).
HIS_OWN = (LOGIN, OK, 403, 403, 403, 403, OK)
#: protests.follow_protests ("my protests"): players and officers.
FOLLOWS = (LOGIN, OK, OK, 403, 403, OK, OK)
#: DRF, IsAuthenticatedOrReadOnly over read-only viewsets: anonymous writes are refused before
#: the method is looked at.
API_WRITE = (403, 405, 405, 405, 405, 405, 405)
#: The API answers 401 (with a Token challenge) where a page sends to the login page.
API_OFFICERS = (401, 403, 403, 403, 403, OK, OK)
API_RUNS_IT = (401, 403, 403, OK, 403, OK, OK)
API_OWNS_IT = (401, OK, 403, 403, 403, OK, OK)
UNVERSIONED = (308, 308, 308, 308, 308, 308, 308)
#: Any signed-in user (the API tokens page).
SIGNED_IN = (LOGIN, OK, OK, OK, OK, OK, OK)


@dataclass(frozen=True)
class Case:
    path: Callable[[Any], str]
    get: tuple[Any, ...]
    post: tuple[Any, ...]
    data: Callable[[Any], Any] | None = None  # the POST payload


@dataclass(frozen=True)
class JSONBody:
    """A POST payload sent as application/json (the API's), not as a form."""

    make: Callable[[Any], dict[str, Any]]


def json_body(make: Callable[[Any], dict[str, Any]]) -> Callable[[Any], JSONBody]:
    return lambda w: JSONBody(make)


#: A two-player period for the calculator (docs/calculator.md).
CALCULATOR = {
    "ruleset": "fide-2024",
    "period": {"start": "2026-10-01", "end": "2026-10-31"},
    "players": [{"id": "1", "rating": 2000, "games": 50}, {"id": "2", "rating": 1900, "games": 50}],
    "tournaments": [
        {
            "id": "T1",
            "system": "swiss",
            "end_date": "2026-10-20",
            "games": [{"white": "1", "black": "2", "result": "1-0"}],
        }
    ],
}


def _csv_crosstable() -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "rr.csv",
        (
            b'No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,"Roca, Pau",,24001,2000,x,1,1\n'
            b'2,"Sala, Eva",,24002,1900,0,x,=\n3,"Puig, Joan",,,,0,=,x\n'
        ),
    )


def _registration(w: Any) -> dict[str, Any]:
    return registration_data(w.system, timezone.localdate() + dt.timedelta(days=40))


EXPECTED: dict[str, Case] = {
    # ---- site
    "": Case(lambda w: "/", EVERYONE, EVERYONE),  # home: the view does not restrict methods
    "healthz": Case(lambda w: "/healthz", EVERYONE, NO_METHOD),
    "healthz/web": Case(lambda w: "/healthz/web", EVERYONE, NO_METHOD),
    "accounts/login/": Case(
        lambda w: "/accounts/login/", EVERYONE, EVERYONE
    ),  # POST {}: the form again
    "accounts/logout/": Case(lambda w: "/accounts/logout/", NO_METHOD, EVERYONE),
    # ---- players (public; the views do not restrict methods)
    "players/": Case(lambda w: "/players/", EVERYONE, EVERYONE),
    "players/<str:fed_id>/": Case(lambda w: f"/players/{w.players[0].fed_id}/", EVERYONE, EVERYONE),
    "players/<str:fed_id>/lists/<int:list_id>/": Case(
        lambda w: f"/players/{w.players[0].fed_id}/lists/{w.published.pk}/", EVERYONE, EVERYONE
    ),
    # ---- tournaments
    "tournaments/": Case(lambda w: "/tournaments/?mine=1", EVERYONE, EVERYONE),
    "tournaments/register/": Case(
        lambda w: "/tournaments/register/", ARBITERS, ARBITERS, _registration
    ),
    "tournaments/desk/": Case(lambda w: "/tournaments/desk/", ARBITERS, ARBITERS),
    "tournaments/<int:pk>/": Case(lambda w: f"/tournaments/{w.tournament.pk}/", EVERYONE, EVERYONE),
    # The report of a tournament not rated yet is not public: 404 for everyone.
    "tournaments/<int:pk>/report/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/report/", NOT_FOUND, NO_METHOD
    ),
    "tournaments/<int:pk>/manage/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/manage/", RUNS_IT, RUNS_IT
    ),
    "tournaments/<int:pk>/upload/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/upload/",
        NO_METHOD,
        RUNS_IT,
        lambda w: {"file": _csv_crosstable(), "format": "auto"},
    ),
    "tournaments/<int:pk>/uploads/<int:job>/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/uploads/{w.upload_job.pk}/", RUNS_IT, NO_METHOD
    ),
    "tournaments/<int:pk>/uploads/<int:job>/progress/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/uploads/{w.upload_job.pk}/progress/",
        RUNS_IT,
        NO_METHOD,
    ),
    "tournaments/<int:pk>/crosstable/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/crosstable/",
        RUNS_IT,
        RUNS_IT,
        lambda w: CROSSTABLE_FORM,
    ),
    "tournaments/<int:pk>/players/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/players/", RUNS_IT, RUNS_IT
    ),
    "tournaments/<int:pk>/players/search/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/players/search/?q=a", RUNS_IT, NO_METHOD
    ),
    "tournaments/<int:pk>/approve/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/approve/", NO_METHOD, OFFICERS
    ),
    # ---- rating systems and published lists (public)
    "ratings/": Case(lambda w: "/ratings/", EVERYONE, EVERYONE),
    "ratings/<slug:code>/": Case(lambda w: f"/ratings/{w.system.code}/", EVERYONE, EVERYONE),
    "ratings/lists/<int:pk>/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/", EVERYONE, EVERYONE
    ),
    "ratings/lists/<int:pk>/diff/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/diff/", EVERYONE, EVERYONE
    ),
    "ratings/lists/<int:pk>/downloads/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/downloads/", EVERYONE, NO_METHOD
    ),
    r"ratings/^lists/(?P<pk>[0-9]+)/download\.(?P<fmt>csv|json|txt|xml)$": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/download.csv", EVERYONE, NO_METHOD
    ),
    # ---- list imports (officers)
    "ratings/lists/import/": Case(
        lambda w: "/ratings/lists/import/",
        OFFICERS,
        OFFICERS,
        lambda w: {
            "system": w.system.pk,
            "format": "csv",
            "file": SimpleUploadedFile("list.csv", b"fed_id,surname,given_name,rating\n"),
        },
    ),
    "ratings/lists/import/<int:pk>/": Case(
        lambda w: f"/ratings/lists/import/{w.job.pk}/", OFFICERS, NO_METHOD
    ),
    "ratings/lists/import/<int:pk>/progress/": Case(
        lambda w: f"/ratings/lists/import/{w.job.pk}/progress/", OFFICERS, NO_METHOD
    ),
    "ratings/lists/import/<int:pk>/requeue/": Case(
        lambda w: f"/ratings/lists/import/{w.job.pk}/requeue/", NO_METHOD, OFFICERS
    ),
    # ---- rating periods (officers)
    "ratings/<slug:code>/open-next/": Case(
        lambda w: f"/ratings/{w.system.code}/open-next/", NO_METHOD, OFFICERS
    ),
    "ratings/periods/<int:pk>/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/", OFFICERS, OFFICERS
    ),
    "ratings/periods/<int:pk>/progress/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/progress/", OFFICERS, OFFICERS
    ),
    # GET: the summary to confirm; POST with confirm=1: the action.
    "ratings/periods/<int:pk>/close/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/close/",
        OFFICERS,
        OFFICERS,
        lambda w: {"confirm": "1"},
    ),
    "ratings/periods/<int:pk>/calculate/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/calculate/",
        OFFICERS,
        OFFICERS,
        lambda w: {"confirm": "1"},
    ),
    "ratings/periods/<int:pk>/publish/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/publish/",
        OFFICERS,
        OFFICERS,
        lambda w: {"note": "v2", "confirm": "1"},
    ),
    "ratings/periods/<int:pk>/review/list/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/list/?status=rated&page=1",
        OFFICERS,
        OFFICERS,
    ),
    # ---- the officer's desk and game corrections
    "ratings/desk/": Case(lambda w: "/ratings/desk/", OFFICERS, OFFICERS),
    "ratings/tournaments/<int:pk>/games/": Case(
        lambda w: f"/ratings/tournaments/{w.validated.pk}/games/", OFFICERS, OFFICERS
    ),
    "ratings/games/<int:pk>/correct/": Case(
        lambda w: f"/ratings/games/{w.game.pk}/correct/",
        OFFICERS,
        OFFICERS,
        lambda w: {"result": "0-1", "reason": "The arbiter's sheet says Black won."},
    ),
    "ratings/periods/<int:pk>/rerate/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/rerate/", NO_METHOD, OFFICERS
    ),
    "ratings/periods/<int:pk>/review/tournaments/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/tournaments/", OFFICERS, OFFICERS
    ),
    "ratings/periods/<int:pk>/review/statuses/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/statuses/", OFFICERS, OFFICERS
    ),
    "ratings/periods/<int:pk>/review/players/<int:player_id>/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/players/{w.players[1].pk}/",
        OFFICERS,
        OFFICERS,
    ),
    # ---- protests
    "ratings/lists/<int:pk>/protest/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/protest/",
        PLAYERS,
        PLAYERS,
        lambda w: {"text": "Round 2 was a draw."},
    ),
    "ratings/protests/": Case(lambda w: "/ratings/protests/", FOLLOWS, NO_METHOD),
    "ratings/protests/office/": Case(lambda w: "/ratings/protests/office/", OFFICERS, NO_METHOD),
    "ratings/protests/<int:pk>/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/", OWNS_IT, NO_METHOD
    ),
    "ratings/protests/<int:pk>/attachment/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/attachment/", OWNS_IT, NO_METHOD
    ),
    "ratings/protests/<int:pk>/request-information/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/request-information/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"request": "Which round?"},
    ),
    # The player's own steps (refused with a message while the protest is not in their state).
    "ratings/protests/<int:pk>/answer/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/answer/",
        NO_METHOD,
        HIS_OWN,
        lambda w: {"answer": "Round 2."},
    ),
    "ratings/protests/<int:pk>/appeal/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/appeal/",
        NO_METHOD,
        HIS_OWN,
        lambda w: {"text": "The board should look again."},
    ),
    "ratings/protests/<int:pk>/appeal/decide/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/appeal/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"upheld": "0", "decision": "The decision stands."},
    ),
    "ratings/protests/<int:pk>/decide/": Case(
        lambda w: f"/ratings/protests/{w.protest.pk}/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"upheld": "0", "decision": "The result stands."},
    ),
    # ---- the API (DRF, /api/v1/): 401 instead of the login page, 405 before any rule
    "api/v1/": Case(lambda w: "/api/v1/", EVERYONE, NO_METHOD),
    "api/v1/^players/$": Case(lambda w: "/api/v1/players/?q=surname", EVERYONE, NO_METHOD),
    "api/v1/^players/(?P<fed_id>[0-9A-Za-z-]+)/$": Case(
        lambda w: f"/api/v1/players/{w.players[0].fed_id}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^systems/$": Case(lambda w: "/api/v1/systems/", EVERYONE, NO_METHOD),
    "api/v1/^systems/(?P<code>[-a-zA-Z0-9_]+)/$": Case(
        lambda w: f"/api/v1/systems/{w.system.code}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^periods/$": Case(lambda w: "/api/v1/periods/", EVERYONE, NO_METHOD),
    "api/v1/^periods/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/calculate/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/calculate/", NO_METHOD, API_OFFICERS
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/progress/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/progress/", API_OFFICERS, NO_METHOD
    ),
    # Published already, no new draft: the service refuses (409) as the page does (a message).
    "api/v1/^periods/(?P<pk>[^/.]+)/publish/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/publish/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 409, 409),
        json_body(lambda w: {"note": "v2"}),
    ),
    "api/v1/^lists/$": Case(lambda w: "/api/v1/lists/", EVERYONE, NO_METHOD),
    "api/v1/^lists/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/lists/{w.published.pk}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^lists/(?P<pk>[^/.]+)/entries/$": Case(
        lambda w: f"/api/v1/lists/{w.published.pk}/entries/?status=rated", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/$": Case(
        lambda w: "/api/v1/tournaments/?mine=true",
        EVERYONE,
        (401, 403, 403, OK, OK, OK, OK),
        json_body(lambda w: {**_registration(w), "rating_system": w.system.code}),
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/crosstable/$": Case(
        lambda w: f"/api/v1/tournaments/{w.rated.pk}/crosstable/", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/changes/$": Case(
        lambda w: f"/api/v1/tournaments/{w.rated.pk}/changes/", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/players/(?P<start_rank>[0-9]+)/calculation/$": Case(
        lambda w: f"/api/v1/tournaments/{w.rated.pk}/players/1/calculation/", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/reports/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/reports/",
        API_RUNS_IT,
        API_RUNS_IT,
        lambda w: {"file": _csv_crosstable(), "format": "auto"},
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/reports/(?P<submission>[0-9]+)/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/reports/{w.report.submission}/",
        API_RUNS_IT,
        NO_METHOD,
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/uploads/(?P<job>[0-9]+)/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/uploads/{w.upload_job.pk}/",
        API_RUNS_IT,
        NO_METHOD,
    ),
    # The superuser passes the rule; the service refuses him (409): no player of his own.
    # Each player already has an open protest against this list: the rule lets him in and the
    # service refuses a second one (409), as the page does (tests/api/test_api.py files one).
    "api/v1/^protests/$": Case(
        lambda w: "/api/v1/protests/",
        (401, OK, OK, OK, OK, OK, OK),
        (401, 409, 409, 403, 403, 403, 409),
        json_body(
            lambda w: {
                "list": w.published.pk,
                "subject": "Open, round 2",
                "text": "Round 2 was a draw.",
            }
        ),
    ),
    "api/v1/^protests/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/protests/{w.protest.pk}/", API_OWNS_IT, NO_METHOD
    ),
    "api/v1/^protests/(?P<pk>[^/.]+)/decide/$": Case(
        lambda w: f"/api/v1/protests/{w.protest.pk}/decide/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"upheld": False, "decision": "The result stands."}),
    ),
    "api/v1/calculator/": Case(
        lambda w: "/api/v1/calculator/", NO_METHOD, EVERYONE, json_body(lambda w: CALCULATOR)
    ),
    "api/v1/desk/": Case(lambda w: "/api/v1/desk/", API_OFFICERS, NO_METHOD),
    "api/v1/schema/": Case(lambda w: "/api/v1/schema/", EVERYONE, NO_METHOD),
    "api/v1/docs/": Case(lambda w: "/api/v1/docs/", EVERYONE, NO_METHOD),
    "api/v1/redoc/": Case(lambda w: "/api/v1/redoc/", EVERYONE, NO_METHOD),
    # /api/ without a version: 308 to the same path under /api/v1/, whatever the method.
    "api/^(?P<rest>(?!v[0-9]+/).*)$": Case(lambda w: "/api/players/", UNVERSIONED, UNVERSIONED),
    # ---- API tokens: a signed-in user's own
    "account/tokens/": Case(
        lambda w: "/account/tokens/", SIGNED_IN, SIGNED_IN, lambda w: {"name": "club site"}
    ),
    "account/tokens/<int:pk>/revoke/": Case(
        lambda w: f"/account/tokens/{w.token.pk}/revoke/", NO_METHOD, SIGNED_IN
    ),
}

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
    """ratings/views/*, protests/views.py, lists/views.py, desk/views.py, tournaments/views.py
    and players/views.py use core.permissions.permission_required, which marks the view with
    its permission."""
    apps = ("ratings.views", "protests.views", "lists.views", "desk.views")
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


@pytest.fixture
def world(django_capture_on_commit_callbacks) -> SimpleNamespace:
    system, period, players, validated, published = make_published(
        django_capture_on_commit_callbacks
    )
    users = make_role_users(players)
    player, other_player, arbiter = users["player"], users["other player"], users["arbiter"]
    other_arbiter, officer = users["other arbiter"], users["officer"]
    tournament = make_tournament(system, arbiter, late_registration=True)
    make_tournament(system, other_arbiter)  # the other arbiter runs a tournament of his own
    protest = make_protest(published, players[0], player)
    ProtestAttachment.objects.create(
        protest=protest,
        name="scoresheet.pdf",
        content_type="application/pdf",
        data=b"%PDF-1.4",
        size=8,
    )
    make_protest(published, players[1], other_player)  # and the other player has his protest
    report = report_upload(
        tournament=tournament, user=arbiter, data=_csv_crosstable().read(), filename="rr.csv"
    )
    return SimpleNamespace(
        system=system,
        period=period,
        players=players,
        published=published,
        tournament=tournament,
        validated=validated,
        game=validated.games.filter(black__isnull=False).order_by("id").first(),
        rated=validated,
        report=report,
        token=token_create(user=player, name="program")[0],
        protest=protest,
        job=make_import_job(system, officer),
        upload_job=ReportUploadJob.objects.create(tournament=tournament, requested_by=arbiter),
        users=(None, *users.values()),
    )


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
