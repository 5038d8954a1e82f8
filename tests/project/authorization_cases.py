"""The vocabulary of the authorization matrix (tests/project/test_authorization_matrix.py):
the seven users (ROLES), the outcome each gets (``"ok"``, ``"login"``, a status code) named by
who may pass (EVERYONE, OFFICERS, RUNS_IT…), a URL's `Case`, and the POST payloads the cases
send. The cases themselves: authorization_pages.py (the pages), authorization_api.py (the API
and its tokens)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from ratings.models import RerateChain
from tests.factories import registration_data

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
#: players.manage_own_data: a player linked to his record; the superuser has none (404).
MY_DATA = (LOGIN, OK, OK, 403, 403, 403, 404)
API_MY_DATA = (401, OK, OK, 403, 403, 403, 404)
#: accounts.sign_up: visitors not signed in (the superuser passes every rule).
NOT_SIGNED_IN = (OK, 403, 403, 403, 403, 403, OK)
#: accounts.claim_player: signed-in users without a record of their own (the two players have
#: theirs).
NO_RECORD = (LOGIN, 403, 403, OK, OK, OK, OK)
#: accounts.view_claim on the arbiter's claim: he and officers.
CLAIMED_IT = (401, 403, 403, OK, 403, OK, OK)
#: notices.read_notice in the API: his own notice (and the superuser's every rule).
API_HIS_OWN = (401, OK, 403, 403, 403, 403, OK)
#: notices.follow_notices in the API: any signed-in user, his own.
API_SIGNED_IN = (401, OK, OK, OK, OK, OK, OK)
#: Any signed-in user (the API tokens page, the password change).
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


def csv_crosstable() -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "rr.csv",
        (
            b'No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,"Roca, Pau",,24001,2000,x,1,1\n'
            b'2,"Sala, Eva",,24002,1900,0,x,=\n3,"Puig, Joan",,,,0,=,x\n'
        ),
    )


def registration_payload(w: Any) -> dict[str, Any]:
    return registration_data(w.system, timezone.localdate() + dt.timedelta(days=40))


def rerate_chain_of(w: Any) -> Any:
    """A finished re-rating chain of the world's period (its page and the API's progress)."""
    chain, _created = RerateChain.objects.get_or_create(
        system=w.period.system,
        first_period=w.period,
        defaults={"periods": [w.period.pk], "status": "succeeded", "periods_done": 1},
    )
    return chain
