"""The officers' daily digest (notices/digest.py): the desk's counts, to each officer who gets
it, in his language, once a day, nothing on a day when nothing waits."""

from __future__ import annotations

import datetime as dt

import pytest
from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail

from core.roles import ARBITER, PLAYER, RATING_OFFICER
from core.rules import is_officer, officer_users
from notices.digest import digest_send
from notices.models import Notice, NoticePreference
from tests.factories import (
    make_protest,
    make_published,
    make_role_users,
    make_tournament,
    make_user,
)

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 1)


@pytest.fixture
def office(django_capture_on_commit_callbacks):
    system, _period, players, _validated, published = make_published(
        django_capture_on_commit_callbacks
    )
    users = make_role_users(players)
    for user in users.values():
        user.email = f"{user.username}@example.org"
        user.save()
    NoticePreference.objects.create(user=users["officer"], language="pt")
    make_protest(published, players[0], users["player"])
    make_protest(published, players[1], users["other player"])
    make_tournament(system, users["arbiter"], late_registration=True)
    return users


def test_the_officers_get_the_counts_in_their_language(
    office, django_capture_on_commit_callbacks
) -> None:
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert digest_send(today=DAY) == 2  # the officer and the superuser
    told = dict(Notice.objects.filter(kind="officer_digest").values_list("user__username", "text"))
    assert set(told) == {"officer", "admin"}
    assert told["officer"].splitlines() == [
        "Trabalho pendente na secretária do responsável em 1 de dezembro de 2026:",
        "- 2 reclamações abertas",
        "- 1 registo tardio por aprovar",
    ]
    assert told["admin"].splitlines()[1:] == [
        "- 2 protests open",
        "- 1 late registration to approve",
    ]
    sent = {m.to[0]: m for m in mail.outbox}
    assert sent["officer@example.org"].subject == "O trabalho do gabinete de 1 de dezembro de 2026"
    assert "/ratings/desk/" in sent["officer@example.org"].body
    # Once a day, whatever the beat does.
    assert digest_send(today=DAY) == 0
    assert digest_send(today=DAY + dt.timedelta(days=1)) == 2


def test_the_beat_task_and_a_digest_turned_off(office) -> None:
    NoticePreference.objects.filter(user=office["officer"]).update(officer_digest=False)
    assert current_app.tasks["notices.officer_digest"].apply().get() == 1
    assert list(Notice.objects.values_list("user__username", flat=True)) == ["admin"]
    assert "notices.officer_digest" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }


def test_nothing_waits_nothing_sent(db) -> None:
    make_user("officer", role=RATING_OFFICER, email="o@example.org")
    assert digest_send(today=DAY) == 0
    assert not Notice.objects.exists()


def test_officer_users_is_is_officer(db) -> None:
    users = [
        make_user(role=RATING_OFFICER),
        make_user(role=ARBITER),
        make_user(role=PLAYER),
        make_user(),
        get_user_model().objects.create_superuser("root", "r@example.org", "pw-12345678"),
        make_user(role=RATING_OFFICER, is_active=False),
    ]
    expected = {u.pk for u in users if is_officer(u) and u.is_active}
    assert set(officer_users().values_list("pk", flat=True)) == expected
    assert len(expected) == 2
