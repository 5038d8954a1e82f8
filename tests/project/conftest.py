"""The objects of the authorization matrix (tests/project/test_authorization_matrix.py), also
fetched by tests/project/test_csp.py."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from accounts.services.claims import claim_submit
from accounts.services.corrections import correction_submit
from core.api.tokens import token_create
from notices import texts as notice_texts
from notices.services import notice_create
from notices.tokens import unsubscribe_token
from players.models import Licence, Season
from protests.models import ProtestAttachment
from ratings.differentials.services import differential_compute
from ratings.models import PlayerRating
from tests.factories import (
    make_import_job,
    make_player,
    make_protest,
    make_published,
    make_role_users,
    make_system,
    make_tournament,
)
from tests.project.authorization_cases import csv_crosstable
from tournaments.models import ReportUploadJob, Tournament
from tournaments.officials.models import Arbiter, Organiser
from tournaments.services import report_upload


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
        tournament=tournament, user=arbiter, data=csv_crosstable().read(), filename="rr.csv"
    )
    # Accounts: the arbiter (no record of his own) claims one; the player asks a correction.
    claimed = make_player(fed_id="CLAIM-1", fide_id=9_900_001)
    claim = claim_submit(user=arbiter, method="fide_id", fide_id=claimed.fide_id)
    correction = correction_submit(user=player, changes={"club": "Club Escacs Sants"})
    # An fce system (its regulation reads a published differential, 9.5) with one player in
    # its list and the FIDE list, and a draft differential computed from them.
    fce = make_system(code="fce-matrix", ruleset="fce")
    PlayerRating.objects.create(
        player=make_player(fide_standard=1900), system=fce, rating=1950, kind="effective"
    )
    differential = differential_compute(system=fce)
    arbiter_record = Arbiter.objects.create(name="Pau Roca", fide_id=22_400_001, title="FA")
    organiser_record = Organiser.objects.create(
        name="Club Escacs Sants", contact="club@example.org"
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        chief_arbiter_record=arbiter_record, organiser=organiser_record
    )
    return SimpleNamespace(
        fce=fce,
        differential=differential,
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
        # The player's notice (notices/), and his one-click unsubscribe link's token.
        notice=notice_create(
            user=player,
            kind="event_rated",
            compose=lambda: notice_texts.Message(subject="Rated", text="Rated.", link="/"),
        ),
        unsubscribe=unsubscribe_token(user_id=player.pk, kind="list_published"),
        job=make_import_job(system, officer),
        upload_job=ReportUploadJob.objects.create(tournament=tournament, requested_by=arbiter),
        users=(None, *users.values()),
        claim=claim,
        correction=correction,
        # The arbiters' and organisers' registry (tournaments.officials): one pending record
        # of each, which the tournament names.
        arbiter_record=arbiter_record,
        organiser_record=organiser_record,
        # A licence of the first player (players.licences), which an officer may withdraw.
        licence=Licence.objects.create(
            player=players[0],
            season=Season.objects.create(
                name="2026-2027", start=dt.date(2026, 9, 1), end=dt.date(2027, 8, 31)
            ),
            category="Senior",
            licensed_on=dt.date(2026, 9, 5),
        ),
    )
