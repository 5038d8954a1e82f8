"""Issue 28, item 1: side effects never fail a request. Every e-mail is an outbox row written in
the transaction of the change that causes it (core/outbox.py, core/mail.py), sent by a worker
after commit, retried with backoff by the periodic task, sent once, and shown to officers when
it keeps failing."""

from __future__ import annotations

import datetime as dt
import logging
from contextlib import contextmanager
from unittest import mock

import psycopg
import pytest
from celery import current_app
from django.conf import settings as django_settings
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.db import OperationalError, connection, transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core.mail import mail_enqueue, outbox_send_again
from core.outbox import OutboxMail, outbox_claim_due, outbox_send
from core.roles import ARBITER, RATING_OFFICER
from protests import services as protests
from protests.models import Protest
from tests.factories import make_user
from tests.protests.test_protests import _office
from tests.tournaments.test_upload_broker_down import broker_away  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

#: Nothing listens on loopback's discard port: the SMTP backend's connection is refused at once.
REFUSING = {
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "EMAIL_HOST": "127.0.0.1",
    "EMAIL_PORT": 9,
    "EMAIL_TIMEOUT": 2,
}
ANSWERING = {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}


def _flush() -> int:
    """The periodic task, as beat sends it (eager here: its sends run in-process)."""
    return int(current_app.tasks["core.flush_outbox"].apply().get())


@contextmanager
def _later(seconds: float):
    """The clock `seconds` ahead, for the outbox's due dates."""
    moved = timezone.now() + dt.timedelta(seconds=seconds)
    with mock.patch("django.utils.timezone.now", return_value=moved):
        yield


def _submit_page(client, o) -> int:
    client.force_login(o.user)
    url = reverse("ratings:protest_create", args=[o.published.pk])
    response = client.post(url, {"text": "Round 1 was a draw.", "tournament": o.tournament.pk})
    return response.status_code


def test_a_protest_submitted_while_the_mail_server_refuses_is_sent_once_when_it_returns(
    client, django_capture_on_commit_callbacks
) -> None:
    o = _office()
    with override_settings(**REFUSING), django_capture_on_commit_callbacks(execute=True):
        status = _submit_page(client, o)
    assert status == 302  # the protest's page, as usual (was a 500, and the e-mail lost)
    protest = Protest.objects.get()
    (row,) = OutboxMail.objects.all()
    assert (row.kind, row.status, row.attempts, row.recipients) == (
        "protest.submitted",
        "pending",
        1,
        ["ana@example.org"],
    )
    assert "ConnectionRefusedError" in row.last_error
    assert row.last_attempt_at is not None
    assert row.next_attempt_at - row.last_attempt_at == dt.timedelta(seconds=60)
    assert mail.outbox == []
    # Not due yet: the periodic task leaves it.
    with override_settings(**ANSWERING):
        assert _flush() == 0
    # Still refusing a minute later: a second attempt, the delay doubled.
    with override_settings(**REFUSING), _later(61):
        assert _flush() == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 2)
    assert row.next_attempt_at - row.last_attempt_at == dt.timedelta(seconds=120)
    # The server answers again: the next run sends it, once.
    with override_settings(**ANSWERING):
        with _later(200):
            assert _flush() == 1
        with _later(10_000):
            assert _flush() == 0
        assert current_app.tasks["core.send_outbox_mail"].apply(args=(row.pk,)).get() == "sent"
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == ("sent", 3, "")
    (message,) = mail.outbox
    assert message.to == ["ana@example.org"] and message.subject == "Your protest has been received"
    # Its own Message-ID, the same on every attempt.
    assert message.message()["Message-ID"] == (
        f"<outbox.{row.pk}.{int(row.created_at.timestamp())}@localhost>"
    )
    assert reverse("ratings:protest", args=[protest.pk]) in message.body


def test_the_outbox_row_is_written_in_the_changes_transaction(
    django_capture_on_commit_callbacks,
) -> None:
    o = _office()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            mail_enqueue(kind="test", subject="s", body="b", to=["x@example.org"])
            raise RuntimeError  # the change fails: its e-mail goes with it
    assert not OutboxMail.objects.exists() and callbacks == []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        protests.protest_submit(
            published=o.published,
            player=o.players[0],
            user=o.user,
            text="Round 1 was a draw.",
            tournament=o.tournament,
        )
    # Written with the protest, sent only after the commit.
    assert OutboxMail.objects.get().status == "pending" and len(callbacks) == 1
    assert mail.outbox == []
    # One transaction: when the e-mail cannot be written, the decision is not kept either.
    protest = Protest.objects.get()
    with (
        mock.patch("protests.notify.mail_enqueue", side_effect=RuntimeError("outbox")),
        pytest.raises(RuntimeError),
    ):
        protests.protest_decide(protest=protest, user=o.officer, upheld=False, decision="No.")
    protest.refresh_from_db()
    assert protest.status == "submitted" and protest.decision == ""


def test_the_broker_unreachable_at_commit_leaves_the_row_pending_and_the_request_answers(
    client,
    django_capture_on_commit_callbacks,
    broker_away,  # noqa: F811
    caplog,
) -> None:
    o = _office()
    with (
        caplog.at_level(logging.WARNING, logger="core.tasks"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        status = _submit_page(client, o)
    assert status == 302  # no 503: nothing is lost, the row waits
    (row,) = OutboxMail.objects.all()
    assert (row.status, row.attempts) == ("pending", 0)
    assert any("broker unreachable" in r.getMessage() for r in caplog.records)
    assert Protest.objects.count() == 1 and mail.outbox == []
    # The broker back (eager here): the periodic task finds the row once it is due, sends it.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        assert _flush() == 0  # not due: its task might still be on its way
        with _later(61):
            assert _flush() == 1
            assert _flush() == 0  # claimed: not queued twice
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)
    assert len(mail.outbox) == 1


def test_the_same_row_sent_twice_is_sent_once() -> None:
    row = mail_enqueue(kind="test", subject="Hello", body="Once.", to=["x@example.org"])
    # (autocommit: the task ran at once and sent it)
    assert current_app.tasks["core.send_outbox_mail"].apply(args=(row.pk,)).get() == "sent"
    assert outbox_send(mail_id=row.pk) == "sent"
    assert outbox_send(mail_id=row.pk + 1000) == ""  # gone: nothing to do
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.attempts == 1
    # Sent: the text is gone (a reset link must not stay readable), the record stays.
    assert (row.body, row.html, row.subject) == ("", "", "Hello")


def test_old_sent_rows_are_pruned_the_others_stay() -> None:
    old = timezone.now() - dt.timedelta(days=91)
    kept = []
    for status, created_at in [("sent", old), ("sent", timezone.now()), ("failed", old)]:
        kept.append(
            OutboxMail.objects.create(
                kind="test",
                recipients=["x@example.org"],
                subject="s",
                body="b",
                status=status,
                created_at=created_at,
            )
        )
    assert current_app.tasks["core.prune_outbox"].apply(kwargs={"days": 90}).get() == 1
    assert set(OutboxMail.objects.values_list("pk", flat=True)) == {kept[1].pk, kept[2].pk}


@pytest.mark.django_db(transaction=True)
def test_a_row_a_task_is_sending_is_skipped_by_a_second_task() -> None:
    row = OutboxMail.objects.create(
        kind="test", recipients=["x@example.org"], subject="s", body="b"
    )
    db = connection.settings_dict
    with psycopg.connect(  # another worker, in the middle of sending it
        dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or 5432
    ) as other:
        other.execute("SELECT 1 FROM core_outboxmail WHERE id = %s FOR UPDATE", [row.pk])
        with connection.cursor() as cursor:  # a wait would be an error here, not a hang
            cursor.execute("SET lock_timeout = '3s'")
        assert outbox_send(mail_id=row.pk) == ""  # skipped, not waited for, not sent
        assert outbox_claim_due() == []  # the periodic task skips it too
        assert mail.outbox == []
    with connection.cursor() as cursor:
        cursor.execute("RESET lock_timeout")
    assert outbox_send(mail_id=row.pk) == "sent"
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_after_the_server_took_the_message_still_marks_it_sent() -> None:
    row = OutboxMail.objects.create(
        kind="test", recipients=["x@example.org"], subject="s", body="b"
    )
    lost = OperationalError("terminating connection due to administrator command")
    with mock.patch.object(OutboxMail, "save", side_effect=lost):
        assert outbox_send(mail_id=row.pk) == "sent"
    row.refresh_from_db()
    assert (row.status, row.attempts, row.body) == ("sent", 1, "")
    assert outbox_send(mail_id=row.pk) == "sent" and len(mail.outbox) == 1
    # Lost before the server was asked: the error is the task's, the row waits, unchanged.
    other = OutboxMail.objects.create(
        kind="test", recipients=["y@example.org"], subject="s", body="b"
    )
    with (
        mock.patch("core.outbox._attempt", side_effect=lost),
        pytest.raises(OperationalError),
    ):
        outbox_send(mail_id=other.pk)
    other.refresh_from_db()
    assert (other.status, other.attempts) == ("pending", 0) and len(mail.outbox) == 1


def test_a_mail_that_keeps_failing_is_failed_shown_in_the_admin_and_sent_again(
    client, settings, django_capture_on_commit_callbacks
) -> None:
    settings.OUTBOX_MAX_ATTEMPTS = 2
    with override_settings(**REFUSING):
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            row = mail_enqueue(kind="protest.decided", subject="s", body="b", to=["a@example.org"])
        with _later(61):
            assert _flush() == 1
        with _later(100_000):
            assert _flush() == 0  # failed: never sent again by itself
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", 2)

    officer = make_user("olga", role=RATING_OFFICER, is_staff=True)
    client.force_login(officer)
    url = reverse("admin:core_outboxmail_changelist")
    page = client.get(url, {"status__exact": "failed"})
    assert page.status_code == 200
    content = page.content.decode()
    assert "a@example.org" in content and "ConnectionRefusedError" in content
    assert 'value="send_again"' in content
    assert client.get(reverse("admin:core_outboxmail_change", args=[row.pk])).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"action": "send_again", "_selected_action": [row.pk]}, follow=True)
    assert "1 e-mail queued again." in done.content.decode()
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)
    assert len(mail.outbox) == 1
    # Sent: "Send again" leaves it alone.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "send_again", "_selected_action": [row.pk]})
    assert len(mail.outbox) == 1


def test_only_officers_see_the_outbox_and_send_again(client) -> None:
    row = OutboxMail.objects.create(
        kind="test", recipients=["x@example.org"], subject="s", body="b"
    )
    arbiter = make_user("arnau", role=ARBITER, is_staff=True)
    client.force_login(arbiter)
    assert client.get(reverse("admin:core_outboxmail_changelist")).status_code == 403
    with pytest.raises(PermissionDenied):
        outbox_send_again(mails=OutboxMail.objects.all(), user=arbiter)
    assert arbiter.has_perm("core.resend_mail") is False
    officer = make_user("olga", role=RATING_OFFICER)
    assert officer.has_perm("core.resend_mail") and officer.has_perm("core.view_outboxmail")
    assert outbox_send_again(mails=OutboxMail.objects.filter(pk=row.pk), user=officer) == 1


def test_a_claim_pushes_each_row_by_its_own_retry_delay(settings) -> None:
    settings.OUTBOX_RETRY_SECONDS = 60
    settings.OUTBOX_RETRY_MAX_SECONDS = 1800
    past = timezone.now() - dt.timedelta(seconds=5)
    rows = {
        attempts: OutboxMail.objects.create(
            kind="test",
            recipients=["x@example.org"],
            subject="s",
            body="b",
            attempts=attempts,
            next_attempt_at=past,
        )
        for attempts in (0, 1, 3, 20)
    }
    OutboxMail.objects.create(
        kind="test", recipients=["y@example.org"], subject="s", body="b", status="sent"
    )
    now = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=now):
        claimed = outbox_claim_due()
    assert claimed == sorted(r.pk for r in rows.values())
    # 1 minute, doubling with each attempt, at most 30.
    expected = {0: 60, 1: 60, 3: 240, 20: 1800}
    for attempts, row in rows.items():
        row.refresh_from_db()
        assert row.next_attempt_at - now == dt.timedelta(seconds=expected[attempts]), attempts


def test_the_periodic_task_is_scheduled() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["flush-outbox"]
    assert entry["task"] == "core.flush_outbox" and entry["schedule"] == 60.0
    assert "core.flush_outbox" in current_app.tasks
