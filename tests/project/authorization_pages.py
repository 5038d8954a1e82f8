"""The authorization matrix's cases for the pages (tests/project/test_authorization_matrix.py):
the site, players, tournaments, rating systems and lists, list imports, rating periods, the
officer's desk and game corrections, protests."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import CROSSTABLE_FORM
from tests.project.authorization_cases import (
    ARBITERS,
    EVERYONE,
    FOLLOWS,
    HIS_OWN,
    LOGIN,
    MY_DATA,
    NO_METHOD,
    NO_RECORD,
    NOT_FOUND,
    NOT_SIGNED_IN,
    OFFICERS,
    OWNS_IT,
    PLAYERS,
    RUNS_IT,
    SIGNED_IN,
    Case,
    csv_crosstable,
    registration_payload,
    rerate_chain_of,
)

PAGES: dict[str, Case] = {
    # ---- notices (notices/views.py): each signed-in user his own; the one-click unsubscribe
    # for whoever holds the signed link (POST {}: the page of a mail program's click)
    "notices/": Case(lambda w: "/notices/", SIGNED_IN, SIGNED_IN),
    "notices/preferences/": Case(lambda w: "/notices/preferences/", SIGNED_IN, SIGNED_IN),
    "notices/unsubscribe/<str:token>/": Case(
        lambda w: f"/notices/unsubscribe/{w.unsubscribe}/", EVERYONE, EVERYONE
    ),
    # ---- site
    "": Case(lambda w: "/", EVERYONE, EVERYONE),  # home: the view does not restrict methods
    # The language links: a redirect back with the cookie set, for everyone; GET only.
    "language/<str:code>/": Case(lambda w: "/language/es/?next=/", EVERYONE, NO_METHOD),
    "healthz": Case(lambda w: "/healthz", EVERYONE, NO_METHOD),
    "healthz/web": Case(lambda w: "/healthz/web", EVERYONE, NO_METHOD),
    "accounts/login/": Case(
        lambda w: "/accounts/login/", EVERYONE, EVERYONE
    ),  # POST {}: the form again
    "accounts/logout/": Case(lambda w: "/accounts/logout/", NO_METHOD, EVERYONE),
    # Where a user lands after logging in: a redirect to his role's page.
    "accounts/landing/": Case(lambda w: "/accounts/landing/", SIGNED_IN, NO_METHOD),
    # Passwords: every signed-in user changes his; anyone may ask for a reset link (POST {}:
    # the form again); a wrong link is a page saying so.
    "accounts/password/change/": Case(lambda w: "/accounts/password/change/", SIGNED_IN, SIGNED_IN),
    "accounts/password/change/done/": Case(
        lambda w: "/accounts/password/change/done/",
        SIGNED_IN,
        (LOGIN, 405, 405, 405, 405, 405, 405),
    ),
    "accounts/password/reset/": Case(lambda w: "/accounts/password/reset/", EVERYONE, EVERYONE),
    "accounts/password/reset/sent/": Case(
        lambda w: "/accounts/password/reset/sent/", EVERYONE, NO_METHOD
    ),
    "accounts/password/reset/<uidb64>/<token>/": Case(
        lambda w: "/accounts/password/reset/MQ/bad-token/", EVERYONE, EVERYONE
    ),
    "accounts/password/reset/done/": Case(
        lambda w: "/accounts/password/reset/done/", EVERYONE, NO_METHOD
    ),
    # ---- accounts (docs/accounts.md): sign-up for visitors; a bad confirmation link is a page
    # saying so; claims for accounts without a record; corrections for players; decisions for
    # officers (a refusal without a reason is refused with a message).
    "accounts/signup/": Case(
        lambda w: "/accounts/signup/",
        NOT_SIGNED_IN,
        NOT_SIGNED_IN,
        lambda w: {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "Quiet-Knight-4812",
            "password2": "Quiet-Knight-4812",
        },
    ),
    "accounts/signup/sent/": Case(
        lambda w: "/accounts/signup/sent/", NOT_SIGNED_IN, (405, 405, 405, 405, 405, 405, 405)
    ),
    "accounts/signup/confirm/<str:token>/": Case(
        lambda w: "/accounts/signup/confirm/bad-token/", EVERYONE, EVERYONE
    ),
    "accounts/claim/": Case(
        lambda w: "/accounts/claim/",
        NO_RECORD,
        NO_RECORD,
        lambda w: {"method": "fed_id", "fed_id": "CLAIM-1", "birth_date": "1990-01-01"},
    ),
    "accounts/corrections/": Case(
        lambda w: "/accounts/corrections/",
        PLAYERS,
        PLAYERS,
        lambda w: {"surname": "Nou", "given_name": "Nom", "note": "Typo."},
    ),
    "accounts/claims/<int:pk>/decide/": Case(
        lambda w: f"/accounts/claims/{w.claim.pk}/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"approve": "0", "reason": "Not him."},
    ),
    "accounts/corrections/<int:pk>/decide/": Case(
        lambda w: f"/accounts/corrections/{w.correction.pk}/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"approve": "1"},
    ),
    # ---- players (public; the views do not restrict methods)
    "players/": Case(lambda w: "/players/", EVERYONE, EVERYONE),
    "players/<str:fed_id>/": Case(lambda w: f"/players/{w.players[0].fed_id}/", EVERYONE, EVERYONE),
    # The licence roll and the deceased flag (players.licences, docs/lists.md): officers. POST
    # with nothing: the form's errors (400).
    "players/licences/": Case(
        lambda w: "/players/licences/", OFFICERS, (LOGIN, 403, 403, 403, 403, 400, 400)
    ),
    "players/<str:fed_id>/licence/": Case(
        lambda w: f"/players/{w.players[0].fed_id}/licence/",
        OFFICERS,
        (LOGIN, 403, 403, 403, 403, 400, 400),
    ),
    # Withdrawing a licence (players.withdraw_licence): GET confirms, POST withdraws (302).
    "players/<str:fed_id>/licence/<int:pk>/delete/": Case(
        lambda w: f"/players/{w.licence.player.fed_id}/licence/{w.licence.pk}/delete/",
        OFFICERS,
        OFFICERS,
    ),
    # POST with no date: a death recorded by mistake is cleared (302 to the card).
    "players/<str:fed_id>/deceased/": Case(
        lambda w: f"/players/{w.players[0].fed_id}/deceased/", OFFICERS, OFFICERS
    ),
    # A live rating (ratings.live): public, of a period not yet published.
    "players/<str:fed_id>/live/<int:period_id>/": Case(
        lambda w: f"/players/{w.players[0].fed_id}/live/{w.system.periods.get(status='open').pk}/",
        EVERYONE,
        EVERYONE,
    ),
    "players/<str:fed_id>/lists/<int:list_id>/": Case(
        lambda w: f"/players/{w.players[0].fed_id}/lists/{w.published.pk}/", EVERYONE, EVERYONE
    ),
    # ---- privacy (docs/privacy.md): the page everyone reads; a player's own data, his only
    # (the superuser passes every rule but has no record: 404).
    "privacy/": Case(lambda w: "/privacy/", EVERYONE, NO_METHOD),
    "account/data/": Case(lambda w: "/account/data/", MY_DATA, MY_DATA),
    "account/data/birth-year/": Case(
        lambda w: "/account/data/birth-year/",
        NO_METHOD,
        MY_DATA,
        lambda w: {"birth_year_public": "on"},
    ),
    "account/data/erasure/": Case(
        lambda w: "/account/data/erasure/", NO_METHOD, MY_DATA, lambda w: {"note": "Please."}
    ),
    "account/data/json/": Case(lambda w: "/account/data/json/", MY_DATA, NO_METHOD),
    "account/data/csv/": Case(lambda w: "/account/data/csv/", MY_DATA, NO_METHOD),
    # ---- tournaments
    "tournaments/": Case(lambda w: "/tournaments/?mine=1", EVERYONE, EVERYONE),
    "tournaments/register/": Case(
        lambda w: "/tournaments/register/", ARBITERS, ARBITERS, registration_payload
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
        lambda w: {"file": csv_crosstable(), "format": "auto"},
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
    # Team substitutions and the norm winner (cnxc-2000 7.2, 7.1): the arbiter until the report
    # is validated, officers; a regulation without them is refused with a message (a redirect).
    "tournaments/<int:pk>/substitutions/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/substitutions/",
        NO_METHOD,
        RUNS_IT,
        lambda w: {
            "round": "1",
            "side": "white",
            "replaced_rank": "1",
            "substitute_rank": "2",
            "date": "2026-01-10",
        },
    ),
    # No such substitution: 404 once the rule lets the user in.
    "tournaments/<int:pk>/substitutions/<int:substitution>/delete/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/substitutions/999999/delete/",
        NO_METHOD,
        (LOGIN, 403, 403, 404, 403, 404, 404),
    ),
    "tournaments/<int:pk>/winner/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/winner/",
        NO_METHOD,
        RUNS_IT,
        lambda w: {"rank": "1"},
    ),
    "tournaments/<int:pk>/approve/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/approve/", NO_METHOD, OFFICERS
    ),
    # The officer's choice for a tournament validated after its period's publication (refused
    # with a message, then a redirect, when the tournament is not waiting for it).
    "tournaments/<int:pk>/rate-as-correction/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/rate-as-correction/", NO_METHOD, OFFICERS
    ),
    # The export to FIDE (fide-2024 9.1): the TRF for officers and the arbiter (the world's
    # tournament is not validated: refused with a message, a redirect); recording it as sent,
    # officers (refused the same way: not rated); a period's batch, officers.
    "tournaments/<int:pk>/fide-export/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/fide-export/?format=trf26", RUNS_IT, NO_METHOD
    ),
    "tournaments/<int:pk>/fide-sent/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/fide-sent/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"sent_on": "2026-01-10"},
    ),
    "tournaments/periods/<int:period>/fide-batch/": Case(
        lambda w: f"/tournaments/periods/{w.period.pk}/fide-batch/", OFFICERS, NO_METHOD
    ),
    # The officer's decisions (tournaments.services.decisions): officers; an empty form is
    # refused with a message (a redirect). The organiser's appeal (fide-2024 0.4): the arbiter
    # who runs it and officers; no such decision: 404 once the rule lets the user in.
    "tournaments/<int:pk>/decisions/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/decisions/", NO_METHOD, OFFICERS
    ),
    "tournaments/<int:pk>/decisions/<int:decision>/appeal/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/decisions/999999/appeal/",
        NO_METHOD,
        (LOGIN, 403, 403, 404, 403, 404, 404),
    ),
    "tournaments/<int:pk>/decisions/<int:decision>/appeal-decision/": Case(
        lambda w: f"/tournaments/{w.tournament.pk}/decisions/999999/appeal-decision/",
        NO_METHOD,
        (LOGIN, 403, 403, 403, 403, 404, 404),
    ),
    # ---- the arbiters' and organisers' registry (tournaments.officials): public lists and
    # pages; arbiters and officers register records (POST {}: the form again); officers
    # decide (POST approve: a redirect to the registry).
    "tournaments/arbiters/": Case(lambda w: "/tournaments/arbiters/", EVERYONE, EVERYONE),
    "tournaments/arbiters/new/": Case(lambda w: "/tournaments/arbiters/new/", ARBITERS, ARBITERS),
    "tournaments/arbiters/<int:pk>/": Case(
        lambda w: f"/tournaments/arbiters/{w.arbiter_record.pk}/", EVERYONE, EVERYONE
    ),
    "tournaments/arbiters/<int:pk>/decide/": Case(
        lambda w: f"/tournaments/arbiters/{w.arbiter_record.pk}/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"approve": "1", "reason": ""},
    ),
    "tournaments/organisers/": Case(lambda w: "/tournaments/organisers/", EVERYONE, EVERYONE),
    "tournaments/organisers/new/": Case(
        lambda w: "/tournaments/organisers/new/", ARBITERS, ARBITERS
    ),
    "tournaments/organisers/<int:pk>/": Case(
        lambda w: f"/tournaments/organisers/{w.organiser_record.pk}/", EVERYONE, EVERYONE
    ),
    "tournaments/organisers/<int:pk>/decide/": Case(
        lambda w: f"/tournaments/organisers/{w.organiser_record.pk}/decide/",
        NO_METHOD,
        OFFICERS,
        lambda w: {"approve": "1", "reason": ""},
    ),
    "tournaments/registry/": Case(lambda w: "/tournaments/registry/", OFFICERS, OFFICERS),
    # ---- rating systems and published lists (public)
    "ratings/": Case(lambda w: "/ratings/", EVERYONE, EVERYONE),
    "ratings/<slug:code>/": Case(lambda w: f"/ratings/{w.system.code}/", EVERYONE, EVERYONE),
    # The FIDE differential (fce 9.5): public history; officers compute, review, publish.
    "ratings/<slug:code>/differential/": Case(
        lambda w: f"/ratings/{w.fce.code}/differential/", EVERYONE, EVERYONE
    ),
    "ratings/<slug:code>/differential/compute/": Case(
        lambda w: f"/ratings/{w.fce.code}/differential/compute/", OFFICERS, OFFICERS
    ),
    "ratings/differentials/<int:pk>/": Case(
        lambda w: f"/ratings/differentials/{w.differential.pk}/", OFFICERS, OFFICERS
    ),
    "ratings/differentials/<int:pk>/publish/": Case(
        lambda w: f"/ratings/differentials/{w.differential.pk}/publish/",
        OFFICERS,
        OFFICERS,
        lambda w: {"effective_date": "2027-01-01"},
    ),
    # The calculator (a GET form: the address is the calculation) and its autocomplete.
    "ratings/calculator/": Case(
        lambda w: f"/ratings/calculator/?system={w.system.code}&opp1=1900&res1=1",
        EVERYONE,
        NO_METHOD,
    ),
    "ratings/calculator/players/": Case(
        lambda w: f"/ratings/calculator/players/?q=surname&system={w.system.code}",
        EVERYONE,
        NO_METHOD,
    ),
    "ratings/lists/<int:pk>/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/", EVERYONE, EVERYONE
    ),
    "ratings/lists/<int:pk>/diff/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/diff/", EVERYONE, EVERYONE
    ),
    "ratings/lists/<int:pk>/downloads/": Case(
        lambda w: f"/ratings/lists/{w.published.pk}/downloads/", EVERYONE, NO_METHOD
    ),
    r"ratings/^lists/(?P<pk>[0-9]+)/download\.(?P<fmt>csv|json|txt|xml|fide\.txt|fide\.xml)$": Case(
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
    # The ICCF / FPX imports (lists/imports/external.py): officers; POST: a preview.
    "ratings/lists/import/external/": Case(
        lambda w: "/ratings/lists/import/external/",
        OFFICERS,
        OFFICERS,
        lambda w: {
            "source": "iccf",
            "list_date": "2026-07-01",
            "format": "txt",
            "preview": "1",
            "file": SimpleUploadedFile("iccf.txt", b"ICCF-id\tName\tRating\n910001\tA, B\t2100\n"),
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
    # ---- the scale's health (feda-1996 11.1, fide-2000 12.3): public statistics, CSV and
    # yearly report (HTML, PDF); the drift check's settings for officers (POST {}: the form again)
    "ratings/<slug:code>/statistics/": Case(
        lambda w: f"/ratings/{w.system.code}/statistics/", EVERYONE, NO_METHOD
    ),
    "ratings/<slug:code>/statistics.csv": Case(
        lambda w: f"/ratings/{w.system.code}/statistics.csv", EVERYONE, NO_METHOD
    ),
    "ratings/<slug:code>/statistics/<int:year>/": Case(
        lambda w: f"/ratings/{w.system.code}/statistics/{w.published.list_date.year}/",
        EVERYONE,
        NO_METHOD,
    ),
    "ratings/<slug:code>/statistics/<int:year>.pdf": Case(
        lambda w: f"/ratings/{w.system.code}/statistics/{w.published.list_date.year}.pdf",
        EVERYONE,
        NO_METHOD,
    ),
    "ratings/<slug:code>/statistics/monitoring/": Case(
        lambda w: f"/ratings/{w.system.code}/statistics/monitoring/", OFFICERS, OFFICERS
    ),
    # ---- rating periods (officers)
    # GET: the confirmation; POST without confirm=1: the same page, nothing opened.
    "ratings/<slug:code>/open-next/": Case(
        lambda w: f"/ratings/{w.system.code}/open-next/", OFFICERS, OFFICERS
    ),
    # GET: the form and the timeline; POST (empty here): the form again, nothing added.
    "ratings/<slug:code>/rulesets/new/": Case(
        lambda w: f"/ratings/{w.system.code}/rulesets/new/", OFFICERS, OFFICERS
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
    # The registry's likely duplicates and the merge of two records (docs/registry.md): the
    # page takes GET only; the merge's POST {} lacks its reason (400 for officers).
    "ratings/desk/duplicates/": Case(lambda w: "/ratings/desk/duplicates/", OFFICERS, NO_METHOD),
    "ratings/desk/duplicates/merge/<int:kept>/<int:merged>/": Case(
        lambda w: f"/ratings/desk/duplicates/merge/{w.players[0].pk}/{w.players[1].pk}/",
        OFFICERS,
        (LOGIN, 403, 403, 403, 403, 400, 400),
    ),
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
    "ratings/rerating/<int:pk>/": Case(
        lambda w: f"/ratings/rerating/{rerate_chain_of(w).pk}/", OFFICERS, NO_METHOD
    ),
    "ratings/rerating/<int:pk>/progress/": Case(
        lambda w: f"/ratings/rerating/{rerate_chain_of(w).pk}/progress/", OFFICERS, NO_METHOD
    ),
    "ratings/periods/<int:pk>/review/tournaments/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/tournaments/", OFFICERS, OFFICERS
    ),
    "ratings/periods/<int:pk>/review/statuses/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/statuses/", OFFICERS, OFFICERS
    ),
    # The world's period is fide-2024, whose calculation has no calibration (cnxc-2000 7.3):
    # officers pass the rule and get 404; tests/ratings/test_calibration_pages.py shows one.
    "ratings/periods/<int:pk>/review/calibration/": Case(
        lambda w: f"/ratings/periods/{w.period.pk}/review/calibration/",
        (LOGIN, 403, 403, 403, 403, 404, 404),
        (LOGIN, 403, 403, 403, 403, 404, 404),
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
}
