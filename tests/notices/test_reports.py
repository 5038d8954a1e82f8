"""The arbiter is told when his report needs him (tournaments.signals.report_needs_arbiter,
heard by notices/receivers.py): a rejected upload, a report with errors, unmatched players, a
validated tournament that goes back to "report received"; once per report and reason."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from core.outbox import OutboxMail
from notices.models import Notice, NoticePreference
from tests.factories import make_system, make_tournament, make_user
from tournaments.models import TournamentStatus
from tournaments.services import report_upload, tournament_revalidate

pytestmark = pytest.mark.django_db

#: Two players of the registry (by federation ID they are not: unmatched) and a third
#: without any ID.
CROSSTABLE = (
    b'No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,"Roca, Pau",,24001,2000,x,1,1\n'
    b'2,"Sala, Eva",,24002,1900,0,x,=\n3,"Puig, Joan",,,,0,=,x\n'
)


@pytest.fixture
def tournament():
    arbiter = make_user("arbitro", email="arbitro@example.org")
    NoticePreference.objects.create(user=arbiter, language="es")
    tournament = make_tournament(make_system(), arbiter)
    # Registered in time (the checks find no error but the unmatched lines).
    registered = dt.datetime(2026, 10, 1, tzinfo=dt.UTC)
    type(tournament).objects.filter(pk=tournament.pk).update(registered_at=registered)
    tournament.refresh_from_db()
    return tournament


def test_a_rejected_upload(tournament, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        report = report_upload(
            tournament=tournament, user=tournament.arbiter, data=b"\x00\x01", filename="x.trf"
        )
    assert report.status == "rejected"
    notice = Notice.objects.get(user=tournament.arbiter, kind="report")
    assert notice.key == f"report:{report.pk}:rejected"
    assert notice.subject == f"Informe rechazado: {tournament}"
    assert notice.link == f"/tournaments/{tournament.pk}/manage/"
    [message] = mail.outbox
    assert message.to == ["arbitro@example.org"] and message.subject == notice.subject
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_unmatched_players_once_per_report(tournament) -> None:
    report = report_upload(
        tournament=tournament, user=tournament.arbiter, data=CROSSTABLE, filename="rr.csv"
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REPORT_RECEIVED
    notice = Notice.objects.get(user=tournament.arbiter, kind="report")
    assert notice.key == f"report:{report.pk}:unmatched"
    assert notice.subject == f"Jugadores por identificar: {tournament}"
    assert "(3 jugadores sin identificar)" in notice.text
    # Every revalidation signals again; he is told once.
    tournament_revalidate(tournament=tournament)
    assert Notice.objects.filter(user=tournament.arbiter).count() == 1
    assert OutboxMail.objects.filter(kind="notice.report").count() == 1


def test_a_validated_tournament_returned(tournament) -> None:
    report = report_upload(
        tournament=tournament, user=tournament.arbiter, data=CROSSTABLE, filename="rr.csv"
    )
    # As if it had been validated, then revalidated by someone else (an officer's approval):
    # its lines are still unmatched, so it goes back.
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.VALIDATED)
    tournament.refresh_from_db()
    tournament_revalidate(tournament=tournament)
    notice = Notice.objects.get(key=f"report:{report.pk}:returned")
    assert notice.subject == f"Informe por corregir: {tournament}"
    assert "«informe recibido»" in notice.text


def test_turned_off(tournament) -> None:
    NoticePreference.objects.filter(user=tournament.arbiter).update(report=False)
    report_upload(tournament=tournament, user=tournament.arbiter, data=b"\x00", filename="x.trf")
    assert not Notice.objects.exists() and not OutboxMail.objects.exists()


def test_a_report_with_errors(tournament) -> None:
    # Registered after the tournament started: the checks' error (and the lines unmatched).
    type(tournament).objects.filter(pk=tournament.pk).update(
        registered_at=dt.datetime(2026, 11, 20, tzinfo=dt.UTC)
    )
    tournament.refresh_from_db()
    report = report_upload(
        tournament=tournament, user=tournament.arbiter, data=CROSSTABLE, filename="rr.csv"
    )
    notice = Notice.objects.get(user=tournament.arbiter)
    assert notice.key == f"report:{report.pk}:problems"
    assert notice.subject == f"Informe con errores: {tournament}"
    assert "(1 error, 3 jugadores sin identificar)" in notice.text
