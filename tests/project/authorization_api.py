"""The authorization matrix's cases for the API (DRF, /api/v1/) and the API tokens pages
(tests/project/test_authorization_matrix.py)."""

from __future__ import annotations

from typing import Any

from ratings.models import ListStatistics
from ratings.statistics import services
from tests.project.authorization_cases import (
    API_HIS_OWN,
    API_MY_DATA,
    API_OFFICERS,
    API_OWNS_IT,
    API_RUNS_IT,
    API_SIGNED_IN,
    CALCULATOR,
    CLAIMED_IT,
    EVERYONE,
    NO_METHOD,
    OK,
    SIGNED_IN,
    UNVERSIONED,
    Case,
    csv_crosstable,
    json_body,
    registration_payload,
    rerate_chain_of,
)


def _statistics_id(w: Any) -> int:
    """The world's list's whole-list figures (written as its publication would)."""
    services.list_statistics_compute(published=w.published)
    return int(ListStatistics.objects.get(published_list=w.published, scope="all").pk)


API: dict[str, Case] = {
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
    # POST only: an officer's empty body is a 400, nothing added.
    "api/v1/^systems/(?P<code>[-a-zA-Z0-9_]+)/rulesets/$": Case(
        lambda w: f"/api/v1/systems/{w.system.code}/rulesets/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 400, 400),
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/calculate/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/calculate/", NO_METHOD, API_OFFICERS
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/rerate/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/rerate/", NO_METHOD, API_OFFICERS
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/rerating/$": Case(
        lambda w: f"/api/v1/periods/{rerate_chain_of(w).first_period_id}/rerating/",
        API_OFFICERS,
        NO_METHOD,
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
    "api/v1/^differentials/$": Case(lambda w: "/api/v1/differentials/", EVERYONE, NO_METHOD),
    "api/v1/^differentials/compute/$": Case(
        lambda w: "/api/v1/differentials/compute/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"system": w.fce.code}),
    ),
    # A draft: only officers see it (404 for the others, as any row they may not see).
    "api/v1/^differentials/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/differentials/{w.differential.pk}/",
        (404, 404, 404, 404, 404, OK, OK),
        NO_METHOD,
    ),
    "api/v1/^differentials/(?P<pk>[^/.]+)/publish/$": Case(
        lambda w: f"/api/v1/differentials/{w.differential.pk}/publish/",
        NO_METHOD,
        (401, 403, 403, 403, 403, OK, OK),
        json_body(lambda w: {"effective_date": "2027-01-01"}),
    ),
    # The world's period is fide-2024: no calibration (cnxc-2000 7.3), officers get 404.
    "api/v1/^periods/(?P<pk>[^/.]+)/calibration/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/calibration/",
        (401, 403, 403, 403, 403, 404, 404),
        NO_METHOD,
    ),
    # The ICCF / FPX lists (lists/api.py): officers.
    "api/v1/^external-lists/$": Case(lambda w: "/api/v1/external-lists/", API_OFFICERS, NO_METHOD),
    "api/v1/^external-lists/import/$": Case(
        lambda w: "/api/v1/external-lists/import/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 400, 400),  # an empty body: the file and fields missing
    ),
    "api/v1/^external-lists/(?P<pk>[^/.]+)/$": Case(
        lambda w: "/api/v1/external-lists/999999/",
        (401, 403, 403, 403, 403, 404, 404),
        NO_METHOD,
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
        json_body(lambda w: {**registration_payload(w), "rating_system": w.system.code}),
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
    "api/v1/^tournaments/(?P<pk>[^/.]+)/rating-report/$": Case(
        lambda w: f"/api/v1/tournaments/{w.rated.pk}/rating-report/", EVERYONE, NO_METHOD
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/players/(?P<start_rank>[0-9]+)/calculation/$": Case(
        lambda w: f"/api/v1/tournaments/{w.rated.pk}/players/1/calculation/", EVERYONE, NO_METHOD
    ),
    # The export to FIDE (fide-2024 9.1): the world's tournament is not validated (409), the
    # validated one is written; recording it as sent: officers, refused (409) when not rated.
    "api/v1/^tournaments/(?P<pk>[^/.]+)/fide-export/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/fide-export/?format=trf16",
        (401, 403, 403, 409, 403, 409, 409),
        NO_METHOD,
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/fide-sent/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/fide-sent/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 409, 409),
    ),
    "api/v1/^periods/(?P<pk>[^/.]+)/fide-batch/$": Case(
        lambda w: f"/api/v1/periods/{w.period.pk}/fide-batch/?format=trf26",
        API_OFFICERS,
        NO_METHOD,
    ),
    # Not moved after a publication: the service refuses (409), as the page does (a message).
    "api/v1/^tournaments/(?P<pk>[^/.]+)/rate-as-correction/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/rate-as-correction/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 409, 409),
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/reports/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/reports/",
        API_RUNS_IT,
        API_RUNS_IT,
        lambda w: {"file": csv_crosstable(), "format": "auto"},
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/reports/(?P<submission>[0-9]+)/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/reports/{w.report.submission}/",
        API_RUNS_IT,
        NO_METHOD,
    ),
    # The parts of a tournament rated in parts (fide-2024 4.1): public to read, nothing to post.
    "api/v1/^tournaments/(?P<pk>[^/.]+)/parts/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/parts/",
        EVERYONE,
        NO_METHOD,
    ),
    # Team substitutions (cnxc-2000 7.2): public to read; recorded by the arbiter until the
    # report is validated and by officers; this system's regulation has none: 409.
    "api/v1/^tournaments/(?P<pk>[^/.]+)/substitutions/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/substitutions/",
        EVERYONE,
        (401, 403, 403, 409, 403, 409, 409),
        json_body(
            lambda w: {
                "round": 1,
                "side": "white",
                "replaced_rank": 1,
                "substitute_rank": 2,
                "date": "2026-01-10",
            }
        ),
    ),
    # The officer's decisions: public to read; taken by officers (this system's regulation,
    # fide-2024, has no return for correction: 409). The appeal (fide-2024 0.4): the arbiter
    # who runs it and officers; the decision on it: officers; no such decision: 404.
    "api/v1/^tournaments/(?P<pk>[^/.]+)/decisions/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/decisions/",
        EVERYONE,
        (401, 403, 403, 403, 403, 409, 409),
        json_body(lambda w: {"kind": "return_for_correction", "reason": "Totals wrong"}),
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/decisions/(?P<decision>[0-9]{1,19})/appeal/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/decisions/999999/appeal/",
        NO_METHOD,
        (401, 403, 403, 404, 403, 404, 404),
    ),
    (
        "api/v1/^tournaments/(?P<pk>[^/.]+)/decisions/(?P<decision>[0-9]{1,19})/appeal-decision/$"
    ): Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/decisions/999999/appeal-decision/",
        NO_METHOD,
        (401, 403, 403, 403, 403, 404, 404),
    ),
    # DELETE only (and the winner PUT only): GET and POST are 405 for everyone.
    "api/v1/^tournaments/(?P<pk>[^/.]+)/substitutions/(?P<substitution>[0-9]+)/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/substitutions/1/",
        NO_METHOD,
        NO_METHOD,
    ),
    "api/v1/^tournaments/(?P<pk>[^/.]+)/winner/$": Case(
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/winner/", NO_METHOD, NO_METHOD
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
    # ---- the arbiters' and organisers' registry (tournaments/officials/api.py): public
    # reads; arbiters and officers register; officers decide.
    "api/v1/^arbiters/$": Case(
        lambda w: "/api/v1/arbiters/",
        EVERYONE,
        (401, 403, 403, OK, OK, OK, OK),
        json_body(lambda w: {"name": "Eva Sala", "category": "regional"}),
    ),
    "api/v1/^arbiters/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/arbiters/{w.arbiter_record.pk}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^arbiters/(?P<pk>[^/.]+)/decide/$": Case(
        lambda w: f"/api/v1/arbiters/{w.arbiter_record.pk}/decide/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"approve": True}),
    ),
    "api/v1/^organisers/$": Case(
        lambda w: "/api/v1/organisers/",
        EVERYONE,
        (401, 403, 403, OK, OK, OK, OK),
        json_body(lambda w: {"name": "Club Escacs Gràcia"}),
    ),
    "api/v1/^organisers/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/organisers/{w.organiser_record.pk}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^organisers/(?P<pk>[^/.]+)/decide/$": Case(
        lambda w: f"/api/v1/organisers/{w.organiser_record.pk}/decide/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"approve": False, "reason": "Unknown club."}),
    ),
    "api/v1/calculator/": Case(
        lambda w: "/api/v1/calculator/", NO_METHOD, EVERYONE, json_body(lambda w: CALCULATOR)
    ),
    # The signed-in player's own data (docs/privacy.md); PATCH of me/privacy/ in
    # tests/players/test_privacy.py.
    "api/v1/me/data/": Case(lambda w: "/api/v1/me/data/", API_MY_DATA, NO_METHOD),
    "api/v1/me/privacy/": Case(lambda w: "/api/v1/me/privacy/", API_MY_DATA, NO_METHOD),
    "api/v1/me/erasure/": Case(
        lambda w: "/api/v1/me/erasure/",
        API_MY_DATA,
        API_MY_DATA,
        json_body(lambda w: {"note": "Please."}),
    ),
    # ---- accounts (docs/accounts.md). Sign-up: visitors not signed in. Claims: the arbiter has
    # a pending one (a second is refused, 409); the superuser and officers, with no record,
    # may claim. Corrections: the player has a pending one (409); the superuser passes the rule
    # and the service refuses him (no record of his own).
    "api/v1/accounts/signup/": Case(
        lambda w: "/api/v1/accounts/signup/",
        NO_METHOD,
        (OK, 403, 403, 403, 403, 403, OK),
        json_body(
            lambda w: {
                "username": "api-newcomer",
                "email": "api-newcomer@example.org",
                "password": "Quiet-Knight-4812",
            }
        ),
    ),
    "api/v1/^accounts/claims/$": Case(
        lambda w: "/api/v1/accounts/claims/",
        (401, OK, OK, OK, OK, OK, OK),
        (401, 403, 403, 409, OK, OK, OK),
        json_body(lambda w: {"method": "fide_id", "fide_id": 9_900_001}),
    ),
    "api/v1/^accounts/claims/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/accounts/claims/{w.claim.pk}/", CLAIMED_IT, NO_METHOD
    ),
    "api/v1/^accounts/claims/(?P<pk>[^/.]+)/decide/$": Case(
        lambda w: f"/api/v1/accounts/claims/{w.claim.pk}/decide/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"approve": False, "reason": "Not him."}),
    ),
    "api/v1/^accounts/corrections/$": Case(
        lambda w: "/api/v1/accounts/corrections/",
        (401, OK, OK, OK, OK, OK, OK),
        (401, 409, OK, 403, 403, 403, 409),
        json_body(lambda w: {"club": "Another club"}),
    ),
    "api/v1/^accounts/corrections/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/accounts/corrections/{w.correction.pk}/", API_OWNS_IT, NO_METHOD
    ),
    "api/v1/^accounts/corrections/(?P<pk>[^/.]+)/decide/$": Case(
        lambda w: f"/api/v1/accounts/corrections/{w.correction.pk}/decide/",
        NO_METHOD,
        API_OFFICERS,
        json_body(lambda w: {"approve": True}),
    ),
    "api/v1/desk/": Case(lambda w: "/api/v1/desk/", API_OFFICERS, NO_METHOD),
    # ---- the scale's health: each list's figures (public); a system's drift settings
    # (officers; PUT sets them, tests/ratings/test_statistics.py)
    "api/v1/^statistics/$": Case(lambda w: "/api/v1/statistics/", EVERYONE, NO_METHOD),
    "api/v1/^statistics/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/statistics/{_statistics_id(w)}/", EVERYONE, NO_METHOD
    ),
    "api/v1/^scale-monitoring/(?P<code>[-a-zA-Z0-9_]+)/$": Case(
        lambda w: f"/api/v1/scale-monitoring/{w.system.code}/", API_OFFICERS, NO_METHOD
    ),
    # List imports (lists/api.py): officers. POST {}: no file (400 for officers).
    "api/v1/^list-imports/$": Case(
        lambda w: "/api/v1/list-imports/", API_OFFICERS, (401, 403, 403, 403, 403, 400, 400)
    ),
    "api/v1/^list-imports/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/list-imports/{w.job.pk}/", API_OFFICERS, NO_METHOD
    ),
    "api/v1/registry/duplicates/": Case(
        lambda w: "/api/v1/registry/duplicates/", API_OFFICERS, NO_METHOD
    ),
    # POST {}: the kept and merged records and the reason are missing (400 for officers).
    "api/v1/registry/merges/": Case(
        lambda w: "/api/v1/registry/merges/", NO_METHOD, (401, 403, 403, 403, 403, 400, 400)
    ),
    # The licence roll and the deceased flag (players/api_licences.py): officers. POST {}: the
    # fields are missing (400 for officers).
    "api/v1/^seasons/$": Case(
        lambda w: "/api/v1/seasons/", API_OFFICERS, (401, 403, 403, 403, 403, 400, 400)
    ),
    "api/v1/^licences/$": Case(
        lambda w: "/api/v1/licences/", API_OFFICERS, (401, 403, 403, 403, 403, 400, 400)
    ),
    "api/v1/^licences/import/$": Case(
        lambda w: "/api/v1/licences/import/", NO_METHOD, (401, 403, 403, 403, 403, 400, 400)
    ),
    # DELETE only (withdrawing a licence; tests/players/test_licences.py): GET and POST 405.
    "api/v1/^licences/(?P<pk>[0-9]{1,19})/$": Case(
        lambda w: f"/api/v1/licences/{w.licence.pk}/", NO_METHOD, NO_METHOD
    ),
    "api/v1/registry/deceased/": Case(
        lambda w: "/api/v1/registry/deceased/", NO_METHOD, (401, 403, 403, 403, 403, 400, 400)
    ),
    "api/v1/schema/": Case(lambda w: "/api/v1/schema/", EVERYONE, NO_METHOD),
    "api/v1/docs/": Case(lambda w: "/api/v1/docs/", EVERYONE, NO_METHOD),
    # Redoc's old address: a permanent redirect to the docs, for everyone, whatever the method.
    "api/v1/redoc/": Case(lambda w: "/api/v1/redoc/", EVERYONE, EVERYONE),
    # /api/ without a version: 308 to the same path under /api/v1/, whatever the method.
    "api/^(?P<rest>(?!v[0-9]+/).*)$": Case(lambda w: "/api/players/", UNVERSIONED, UNVERSIONED),
    # ---- notices (notices/api.py): a signed-in user's own
    "api/v1/^notices/$": Case(lambda w: "/api/v1/notices/", API_SIGNED_IN, NO_METHOD),
    "api/v1/^notices/read-all/$": Case(
        lambda w: "/api/v1/notices/read-all/", NO_METHOD, API_SIGNED_IN
    ),
    "api/v1/^notices/(?P<pk>[^/.]+)/$": Case(
        lambda w: f"/api/v1/notices/{w.notice.pk}/", API_HIS_OWN, NO_METHOD
    ),
    "api/v1/^notices/(?P<pk>[^/.]+)/read/$": Case(
        lambda w: f"/api/v1/notices/{w.notice.pk}/read/", NO_METHOD, API_HIS_OWN
    ),
    "api/v1/notices/preferences/": Case(
        lambda w: "/api/v1/notices/preferences/", API_SIGNED_IN, NO_METHOD
    ),
    # ---- API tokens: a signed-in user's own
    "account/tokens/": Case(
        lambda w: "/account/tokens/", SIGNED_IN, SIGNED_IN, lambda w: {"name": "club site"}
    ),
    "account/tokens/<int:pk>/revoke/": Case(
        lambda w: f"/account/tokens/{w.token.pk}/revoke/", NO_METHOD, SIGNED_IN
    ),
}
