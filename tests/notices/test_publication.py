"""A published list's notices (notices/publication.py): the players on it with an account and
the followers of its system, each in his language, with the one-click unsubscribe headers
(RFC 8058) and a plain-text part; written by a worker after the publication commits; a kind
turned off is respected; "your tournament is rated" to its players and its arbiter."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from core.outbox import OutboxMail, OutboxStatus
from notices.models import ListNotices, Notice, NoticePreference
from notices.publication import list_notices_send, list_notices_watch
from notices.tokens import unsubscribe_read
from periods import services as period_services
from ratings.calculation import runs
from ratings.publication import services as publication
from tests.factories import build, make_user

pytestmark = pytest.mark.django_db

SITE = "https://office.example"


def player_user(player, username: str | None = None, **fields):
    """A user linked to `player` (make_player_user, with an address and such)."""
    user = make_user(username, **fields)
    player.user = user
    player.save(update_fields=["user"])
    return user


def _prefs(user, **fields) -> NoticePreference:
    systems = fields.pop("systems", [])
    preference = NoticePreference.objects.create(user=user, **fields)
    preference.systems.set(systems)
    return preference


@pytest.fixture
def published(django_capture_on_commit_callbacks):
    """build()'s period published, with: a Spanish player, an English one (no preferences),
    a Catalan follower of the system who is not on the list, a player who turned the kind off,
    and the tournament's arbiter (with an address)."""
    system, period, players, tournament = build()
    users = {
        "es": player_user(players[0], "jugador", email="jugador@example.org"),
        "en": player_user(players[1], "player", email="player@example.org"),
        "off": player_user(players[2], "quiet", email="quiet@example.org"),
        "ca": make_user("seguidor", email="seguidor@example.org"),
    }
    _prefs(users["es"], language="es")
    _prefs(users["off"], language="pt", list_published=False)
    _prefs(users["ca"], language="ca", systems=[system])
    tournament.arbiter.email = "arbiter@example.org"
    tournament.arbiter.save()
    users["arbiter"] = tournament.arbiter
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    mail.outbox.clear()
    with (
        override_settings(SITE_URL=SITE),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        published = publication.list_publish(period=period)
    return published, users, tournament, callbacks


def _sent(kind: str) -> dict[str, mail.EmailMultiAlternatives]:
    """The e-mails sent (locmem) for `kind`, by recipient."""
    subjects = set(
        OutboxMail.objects.filter(kind=f"notice.{kind}").values_list("subject", flat=True)
    )
    sent = [m for m in mail.outbox if m.subject in subjects]
    assert all(isinstance(m, mail.EmailMultiAlternatives) for m in sent)
    return {m.to[0]: m for m in sent if isinstance(m, mail.EmailMultiAlternatives)}


def test_players_on_the_list_and_followers_get_it_in_their_language(published) -> None:
    pl, users, _tournament, _callbacks = published
    notices = Notice.objects.filter(kind="list_published")
    assert set(notices.values_list("user__username", flat=True)) == {
        "jugador",
        "player",
        "seguidor",
    }
    sent = _sent("list_published")
    assert set(sent) == {"jugador@example.org", "player@example.org", "seguidor@example.org"}
    assert sent["jugador@example.org"].subject.startswith("Nueva lista de rating: ")
    assert sent["player@example.org"].subject.startswith("New rating list: ")
    assert sent["seguidor@example.org"].subject.startswith("Nova llista de rating: ")
    # The player on the list reads his rating; the follower, who is not on it, does not.
    entry = pl.entries.get(player=users["es"].player)
    assert (
        f"Su rating en ella: {entry.rating} ({entry.change:+d})."
        in sent["jugador@example.org"].body
    )
    assert "El vostre rating" not in sent["seguidor@example.org"].body
    assert f"{SITE}/ratings/lists/{pl.pk}/" in sent["player@example.org"].body
    # Every row was sent by a worker, none is left pending.
    rows = OutboxMail.objects.filter(kind="notice.list_published")
    assert rows.count() == 3 and set(rows.values_list("status", flat=True)) == {OutboxStatus.SENT}
    assert ListNotices.objects.get(published_list=pl).done_at is not None


def test_each_mail_has_rfc_8058_headers_and_a_plain_text_part(published) -> None:
    _pl, users, _t, _c = published
    message = _sent("list_published")["jugador@example.org"]
    headers = message.message()
    link = headers["List-Unsubscribe"]
    assert link.startswith(f"<{SITE}/notices/unsubscribe/") and link.endswith("/>")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = link[len(f"<{SITE}/notices/unsubscribe/") : -2]
    asked = unsubscribe_read(token=token)
    assert asked is not None
    assert (asked.user_id, asked.kind) == (users["es"].pk, "list_published")
    # multipart/alternative: the plain text first, then the HTML.
    assert headers.get_content_type() == "multipart/alternative"
    parts = [p.get_content_type() for p in headers.get_payload()]
    assert parts == ["text/plain", "text/html"]
    assert link[1:-1] in message.body  # the text says how to stop them too
    assert str(message.alternatives[0][0]).startswith("<!doctype html>")


def test_a_kind_turned_off_is_respected(published) -> None:
    _pl, users, _t, _c = published
    assert not Notice.objects.filter(user=users["off"], kind="list_published").exists()
    assert "quiet@example.org" not in _sent("list_published")
    # Other kinds still come: his tournament is rated.
    assert Notice.objects.filter(user=users["off"], kind="event_rated").exists()


def test_event_rated_to_its_players_and_its_arbiter(published) -> None:
    _pl, users, tournament, _c = published
    told = set(Notice.objects.filter(kind="event_rated").values_list("user__username", "key"))
    key = f"event:{tournament.pk}"
    assert told == {
        ("jugador", key),
        ("player", key),
        ("quiet", key),
        (users["arbiter"].username, key),
    }
    sent = _sent("event_rated")
    assert sent["jugador@example.org"].subject == f"Evaluado: {tournament}"
    assert sent["arbiter@example.org"].subject == f"Rated: {tournament}"


def test_the_publication_only_asks_the_worker(django_capture_on_commit_callbacks) -> None:
    """In the officer's request: a ListNotices row and a task sent at commit, no notice."""
    system, period, players, _t = build()
    player_user(players[0], email="p@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pl = publication.list_publish(period=period)
    assert ListNotices.objects.filter(published_list=pl, done_at__isnull=True).exists()
    assert not Notice.objects.exists()
    assert callbacks  # the task, sent once the publication commits


def test_running_twice_tells_nobody_twice_and_the_watchdog_resends(published) -> None:
    pl, _users, _t, _c = published
    before = Notice.objects.count(), OutboxMail.objects.count()
    assert list_notices_send(list_id=pl.pk) == 0
    assert (Notice.objects.count(), OutboxMail.objects.count()) == before
    # A request never done (the broker was away): the watchdog finds it once it is stale.
    ListNotices.objects.filter(published_list=pl).update(done_at=None)
    assert list_notices_watch() == []
    assert list_notices_watch(now=timezone.now() + dt.timedelta(minutes=11)) == [pl.pk]
