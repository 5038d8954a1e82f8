"""Protest services: every transition and its refusals (wrong state, wrong user, late), one
open protest per entry, the attachment checked by content, an e-mail per change in the
player's language, the history kept, the corrected list linked (docs/protests.md)."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from core import history
from core.errors import Refused
from core.roles import PLAYER, RATING_OFFICER
from periods.models import PeriodStatus, RatingPeriod
from protests import selectors
from protests import services as protests
from protests.models import Protest, ProtestAttachment
from ratings.calculation import runs
from ratings.models import ListEntry, PublishedList
from ratings.publication import services as publication
from tests.factories import build, make_player_user, make_published, make_user
from tournaments.models import Game

pytestmark = pytest.mark.django_db

UTC = dt.UTC
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"


def _office(ruleset: str = "fide-2024", published_at: dt.datetime | None = None) -> SimpleNamespace:
    system, period, players, tournament = build(ruleset=ruleset)
    RatingPeriod.objects.filter(pk=period.pk).update(status=PeriodStatus.PUBLISHED)
    published = PublishedList.objects.create(
        system=system,
        period=period,
        version=1,
        list_date=period.list_date,
        published_at=published_at or timezone.now(),
        ruleset=ruleset,
        engine_version="test",
    )
    ListEntry.objects.bulk_create(
        ListEntry(
            published_list=published,
            player=p,
            rating=2000,
            status="rated",
            ruleset=ruleset,
            engine_version="test",
        )
        for p in players
    )
    user = make_player_user(players[0], "ana", role=PLAYER)
    user.email = "ana@example.org"
    user.save(update_fields=["email"])
    return SimpleNamespace(
        system=system,
        period=period,
        players=players,
        tournament=tournament,
        published=published,
        user=user,
        other=make_player_user(players[1], "bea", role=PLAYER),
        officer=make_user("olga", role=RATING_OFFICER),
    )


def _submit(o: SimpleNamespace, **extra) -> Protest:
    fields = {"text": "Round 1 was a draw.", "tournament": o.tournament}
    fields.update(extra)
    return protests.protest_submit(
        published=o.published, player=o.players[0], user=o.user, **fields
    )


def _at(monkeypatch, moment: dt.datetime) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


# ------------------------------------------------------------------ submit and its deadline


def test_a_protest_on_the_last_second_is_accepted_and_at_midnight_refused(monkeypatch) -> None:
    # fce 9.3: published 5 March 2026 (Madrid); day 25 is 29 March, when summer time starts.
    o = _office("fce", published_at=dt.datetime(2026, 3, 5, 9, 0, tzinfo=UTC))
    _at(monkeypatch, dt.datetime(2026, 3, 29, 21, 59, 59, tzinfo=UTC))  # 23:59:59 CEST
    assert _submit(o).status == "submitted"
    Protest.objects.update(status="rejected")  # decided: he may protest again…
    _at(monkeypatch, dt.datetime(2026, 3, 29, 22, 0, 0, tzinfo=UTC))  # 00:00:00 on 30 March
    with pytest.raises(Refused, match="ended on"):  # …but not after the deadline
        _submit(o)
    assert Protest.objects.count() == 1


def test_a_second_open_protest_on_the_same_entry_is_refused_with_a_clear_message() -> None:
    o = _office()
    _submit(o)
    with pytest.raises(Refused) as refused:
        _submit(o, text="Again")
    assert "already have an open protest against this entry" in str(refused.value)
    assert Protest.objects.count() == 1
    # The other player's protest on his own entry is not a duplicate.
    protests.protest_submit(
        published=o.published,
        player=o.players[1],
        user=o.other,
        text="Mine",
        tournament=o.tournament,
    )


def test_the_database_refuses_a_second_open_protest_too() -> None:
    o = _office()
    _submit(o)
    with pytest.raises(IntegrityError, match="protest_one_open_per_entry"), transaction.atomic():
        Protest.objects.create(
            published_list=o.published, player=o.players[0], submitted_by=o.user, text="race"
        )


def test_the_player_names_a_tournament_or_one_of_his_games() -> None:
    o = _office()
    with pytest.raises(Refused, match="Name the tournament or the game"):
        _submit(o, tournament=None)
    others = Game.objects.exclude(white__player=o.players[0]).exclude(black__player=o.players[0])
    with pytest.raises(Refused, match="not one of yours"):
        _submit(o, tournament=None, game=others.first())
    # A tournament left out of the period: named in his words.
    assert _submit(o, tournament=None, subject="Open de Sants, July").tournament is None
    Protest.objects.update(status="withdrawn")
    mine = Game.objects.filter(white__player=o.players[0]).first()
    protest = _submit(o, tournament=None, game=mine)
    assert (protest.game, protest.tournament) == (mine, o.tournament)


def test_only_the_linked_player_with_an_entry_may_protest() -> None:
    o = _office()
    with pytest.raises(Refused, match="not linked"):
        protests.protest_submit(
            published=o.published,
            player=o.players[1],
            user=o.user,
            text="x",
            tournament=o.tournament,
        )
    with pytest.raises(PermissionDenied):
        protests.protest_submit(
            published=o.published, player=None, user=o.officer, text="x", tournament=o.tournament
        )
    # Entries are immutable: a version of the list without him instead.
    empty = PublishedList.objects.create(
        system=o.system,
        period=o.period,
        version=2,
        list_date=o.period.list_date,
        published_at=timezone.now(),
        ruleset="fide-2024",
        engine_version="test",
    )
    with pytest.raises(Refused, match="no entry in this list"):
        protests.protest_submit(
            published=empty, player=o.players[0], user=o.user, text="x", tournament=o.tournament
        )


# ------------------------------------------------------------------ the attachment


@pytest.mark.parametrize(
    ("name", "data", "content_type"),
    [("scan.png", PNG, "image/png"), ("act.pdf", PDF, "application/pdf")],
)
def test_an_attachment_is_recognised_by_its_content(client, name, data, content_type) -> None:
    o = _office()
    protest = _submit(o, attachment=io.BytesIO(data), attachment_name=f"C:\\docs\\{name}")
    stored = ProtestAttachment.objects.get(protest=protest)
    assert (stored.name, stored.content_type, bytes(stored.data)) == (name, content_type, data)
    client.force_login(o.user)
    download = client.get(reverse("ratings:protest_attachment", args=[protest.pk]))
    assert (download["Content-Type"], download.content) == (content_type, data)
    assert download["Content-Disposition"].startswith("attachment;")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("scoresheet.pdf", b"<script>alert(1)</script>"),  # a PDF by name only
        ("photo.png", b"MZ\x90\x00\x03"),  # an executable
        ("page.html", b"<!doctype html><html>"),
    ],
)
def test_an_attachment_that_is_not_a_pdf_or_an_image_is_refused(name, data) -> None:
    o = _office()
    with pytest.raises(Refused, match="PDF document or an image"):
        _submit(o, attachment=io.BytesIO(data), attachment_name=name)
    assert not Protest.objects.exists()


def test_an_attachment_over_the_size_limit_is_refused(settings) -> None:
    settings.PROTEST_ATTACHMENT_MAX_BYTES = 1024
    o = _office()
    with pytest.raises(Refused, match="larger than"):
        _submit(o, attachment=io.BytesIO(PDF + b"x" * 1024), attachment_name="big.pdf")
    assert _submit(o, attachment=io.BytesIO(PDF), attachment_name="small.pdf").attachment.size


# ------------------------------------------------------------------ transitions


def test_request_information_answer_uphold_with_emails_and_history(
    django_capture_on_commit_callbacks,
) -> None:
    o = _office()
    with django_capture_on_commit_callbacks(execute=True):
        protest = _submit(o, language="es")
    with django_capture_on_commit_callbacks(execute=True):
        protests.protest_request_information(
            protest=protest, user=o.officer, request="Send the scoresheet."
        )
    assert protest.status == "waiting"
    with pytest.raises(Refused, match="waiting for the player"):
        protests.protest_decide(protest=protest, user=o.officer, upheld=True, decision="x")
    with django_capture_on_commit_callbacks(execute=True):
        protests.protest_answer(protest=protest, user=o.user, answer="Attached, round 1.")
    assert protest.status == "submitted"
    with django_capture_on_commit_callbacks(execute=True):
        protests.protest_decide(
            protest=protest, user=o.officer, upheld=True, decision="The game was a draw."
        )
    protest.refresh_from_db()
    o.period.refresh_from_db()
    assert (protest.status, protest.decided_by, protest.decision) == (
        "upheld",
        o.officer,
        "The game was a draw.",
    )
    assert o.period.needs_recalculation
    # One e-mail per change, to the player, in Spanish (the language he wrote in).
    assert [m.to for m in mail.outbox] == [["ana@example.org"]] * 4
    assert mail.outbox[0].subject == "Tu reclamación ha sido recibida"
    assert "Send the scoresheet." in mail.outbox[1].body
    assert "estimada" in mail.outbox[3].body and "The game was a draw." in mail.outbox[3].body
    assert reverse("ratings:protest", args=[protest.pk]) in mail.outbox[3].body
    # Every step is in the protest's history, oldest last.
    events = history.object_history(obj=protest)
    statuses = [c.new for e in events for c in e.changes if c.field == "status"]
    assert statuses == ["Upheld", "Submitted", "Waiting for your information"]
    assert events[-1].action == "created"


def test_transitions_refused_in_the_wrong_state_or_for_the_wrong_user() -> None:
    o = _office()
    protest = _submit(o)
    with pytest.raises(Refused, match="No information has been requested"):
        protests.protest_answer(protest=protest, user=o.user, answer="x")
    with pytest.raises(PermissionDenied):  # a player may not ask, decide or decide an appeal
        protests.protest_request_information(protest=protest, user=o.user, request="x")
    with pytest.raises(PermissionDenied):
        protests.protest_decide(protest=protest, user=o.user, upheld=True, decision="x")
    with pytest.raises(PermissionDenied):
        protests.protest_decide_appeal(protest=protest, user=o.user, upheld=True, decision="x")
    protests.protest_request_information(protest=protest, user=o.officer, request="Which game?")
    with pytest.raises(Refused, match="only be requested on an open protest"):
        protests.protest_request_information(protest=protest, user=o.officer, request="again")
    with pytest.raises(PermissionDenied):  # another player, or the officer, may not answer
        protests.protest_answer(protest=protest, user=o.other, answer="x")
    with pytest.raises(PermissionDenied):
        protests.protest_answer(protest=protest, user=o.officer, answer="x")
    protests.protest_answer(protest=protest, user=o.user, answer="Round 1.")
    with pytest.raises(Refused, match="reasons"):
        protests.protest_decide(protest=protest, user=o.officer, upheld=False, decision=" ")
    protests.protest_decide(protest=protest, user=o.officer, upheld=False, decision="No.")
    with pytest.raises(Refused, match="already been decided"):
        protests.protest_decide(protest=protest, user=o.officer, upheld=True, decision="Yes.")
    with pytest.raises(Refused, match="allows no appeal"):  # fide-2024: no appeal
        protests.protest_appeal(protest=protest, user=o.user, text="x")
    with pytest.raises(Refused, match="no appeal waiting"):
        protests.protest_decide_appeal(protest=protest, user=o.officer, upheld=True, decision="x")
    protest.refresh_from_db()
    assert protest.status == "rejected"


# ------------------------------------------------------------------ cnxc-2000 4.3: the appeal


def _rejected_cnxc(monkeypatch, settings) -> tuple[SimpleNamespace, Protest]:
    settings.PROTEST_APPEAL_DEPOSIT = Decimal("25.00")
    o = _office("cnxc-2000", published_at=dt.datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    _at(monkeypatch, dt.datetime(2026, 3, 10, 10, 0, tzinfo=UTC))
    protest = _submit(o)
    _at(monkeypatch, dt.datetime(2026, 3, 22, 19, 0, tzinfo=UTC))  # 20:00 in Madrid
    protests.protest_decide(protest=protest, user=o.officer, upheld=False, decision="No.")
    return o, protest


def test_an_appeal_on_the_seventh_day_records_the_deposit_and_an_upheld_one_returns_it(
    monkeypatch, settings
) -> None:
    o, protest = _rejected_cnxc(monkeypatch, settings)
    _at(monkeypatch, dt.datetime(2026, 3, 29, 21, 59, 59, tzinfo=UTC))  # 29 March 23:59:59
    with pytest.raises(PermissionDenied):
        protests.protest_appeal(protest=protest, user=o.other, text="x")
    protests.protest_appeal(protest=protest, user=o.user, text="The board should look again.")
    assert (protest.status, protest.appeal_deposit) == ("appealed", Decimal("25.00"))
    with pytest.raises(Refused, match="already been appealed"):
        protests.protest_appeal(protest=protest, user=o.user, text="again")
    protests.protest_decide_appeal(protest=protest, user=o.officer, upheld=True, decision="Yes.")
    protest.refresh_from_db()
    o.period.refresh_from_db()
    assert protest.status == "upheld" and protest.appeal_decision == "Yes."
    assert protest.deposit_returned_at is not None
    assert o.period.needs_recalculation


def test_a_rejected_appeal_keeps_the_deposit(monkeypatch, settings) -> None:
    o, protest = _rejected_cnxc(monkeypatch, settings)
    protests.protest_appeal(protest=protest, user=o.user, text="Again.")
    protests.protest_decide_appeal(protest=protest, user=o.officer, upheld=False, decision="No.")
    protest.refresh_from_db()
    assert (protest.status, protest.appeal_deposit, protest.deposit_returned_at) == (
        "rejected",
        Decimal("25.00"),
        None,
    )


def test_a_late_appeal_is_refused(monkeypatch, settings) -> None:
    o, protest = _rejected_cnxc(monkeypatch, settings)
    _at(monkeypatch, dt.datetime(2026, 3, 29, 22, 0, 0, tzinfo=UTC))  # 30 March 00:00:00
    with pytest.raises(Refused, match=r"7 days, cnxc-2000 4\.3"):
        protests.protest_appeal(protest=protest, user=o.user, text="late")
    protest.refresh_from_db()
    assert (protest.status, protest.appealed_at) == ("rejected", None)


def test_an_upheld_protest_cannot_be_appealed(monkeypatch, settings) -> None:
    o = _office("cnxc-2000")
    protest = _submit(o)
    protests.protest_decide(protest=protest, user=o.officer, upheld=True, decision="Yes.")
    with pytest.raises(Refused, match="Only a rejected protest"):
        protests.protest_appeal(protest=protest, user=o.user, text="x")


# ------------------------------------------------------------------ the pages' reads


def test_my_protests_keep_decided_ones_and_the_office_filters() -> None:
    o = _office()
    decided = _submit(o)
    protests.protest_decide(protest=decided, user=o.officer, upheld=False, decision="No.")
    open_one = _submit(o, text="Another point")
    waiting = protests.protest_submit(
        published=o.published, player=o.players[1], user=o.other, text="x", tournament=o.tournament
    )
    protests.protest_request_information(protest=waiting, user=o.officer, request="?")
    assert list(selectors.protest_list_for_player(user=o.user)) == [open_one, decided]
    assert list(selectors.protest_list_for_player(user=o.other)) == [waiting]
    office = selectors.protest_list_for_office
    assert list(office(status_group="open")) == [open_one]
    assert list(office(status_group="waiting")) == [waiting]
    assert list(office(status_group="decided")) == [decided]
    assert set(office(search=o.players[1].surname)) == {waiting}
    assert selectors.protest_counts() == {"open": 1, "waiting": 1, "decided": 1}


def test_the_corrected_version_links_back_to_the_upheld_protests_only(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, tournament, v1 = make_published(django_capture_on_commit_callbacks)
    officer = make_user(role=RATING_OFFICER)
    upheld, rejected = (
        protests.protest_submit(
            published=v1,
            player=p,
            user=make_player_user(p, role=PLAYER),
            text="Round 1",
            tournament=tournament,
        )
        for p in players[:2]
    )
    protests.protest_decide(protest=upheld, user=officer, upheld=True, decision="Yes.")
    protests.protest_decide(protest=rejected, user=officer, upheld=False, decision="No.")
    with django_capture_on_commit_callbacks(execute=True):
        runs.calculation_request(period=period)
    v2 = publication.list_publish(period=period, note="correction")
    upheld.refresh_from_db()
    rejected.refresh_from_db()
    assert (upheld.corrected_list, rejected.corrected_list) == (v2, None)


def test_the_protest_pages_for_the_player(client) -> None:
    o = _office()
    client.force_login(o.user)
    url = reverse("ratings:protest_create", args=[o.published.pk])
    data = {"text": "Round 1 was a draw.", "tournament": o.tournament.pk}
    assert client.post(url, data).status_code == 302
    again = client.post(url, data, follow=True).content.decode()
    assert "You already have an open protest against this entry of the list." in again
    protest = Protest.objects.get()
    protests.protest_decide(protest=protest, user=o.officer, upheld=False, decision="Not so.")
    mine = client.get(reverse("ratings:protests_mine"))  # was a bare 403 for a player
    assert mine.status_code == 200
    assert "Rejected" in mine.content.decode() and "Not so." in mine.content.decode()
    page = client.get(reverse("ratings:protest", args=[protest.pk])).content.decode()
    assert 'id="change-history"' in page and 'id="appeal-form"' not in page  # fide: no appeal
    assert client.get(reverse("ratings:protests")).status_code == 403  # the officers' list
