"""History of the office's records (django-pghistory, core/history.py): who changed what, when.

PostgreSQL only: the events are written by triggers.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pghistory.models import Context

from core import roles
from core.history import history_context, model_history, object_history
from periods.models import PeriodStatus, RatingPeriod
from players.models import Player
from protests.models import Protest
from ratings.models import PublishedList
from tests import factories
from tests.tournaments.test_flow import sample_trf, upload
from tests.tournaments.test_flow import setup as setup
from tournaments import services as tournament_services
from tournaments.models import Game, Tournament

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        "connection.vendor != 'postgresql'", reason="history is written by PostgreSQL triggers"
    ),
]


def events(model, obj):
    return list(model.pgh_event_model.objects.filter(pgh_obj_id=obj.pk).order_by("pgh_id"))


def context_of(event) -> dict:
    return Context.objects.get(pk=event.pgh_context_id).metadata


def test_closing_a_period_through_the_web_records_the_officer(client) -> None:
    officer = factories.make_user(role=roles.RATING_OFFICER)
    period = factories.make_period(factories.make_system())
    client.force_login(officer)
    client.post(reverse("ratings:period_close", args=[period.pk]), {"confirm": "1"})
    period.refresh_from_db()
    assert period.status == PeriodStatus.CLOSED
    insert, update = events(RatingPeriod, period)
    assert (insert.pgh_label, update.pgh_label) == ("insert", "update")
    assert update.status == PeriodStatus.CLOSED
    assert insert.pgh_context_id is None  # created by the test itself, outside any request
    assert context_of(update) == {
        "user": officer.pk,
        "url": reverse("ratings:period_close", args=[period.pk]),
    }
    # The officer's page shows it: when, who, what changed (old → new).
    page = client.get(reverse("ratings:period", args=[period.pk])).content.decode()
    section = page[page.index('id="change-history"') :]
    assert officer.username in section and "Open → Closed" in section


def test_approving_a_late_registration_records_the_officer(client) -> None:
    officer = factories.make_user(role=roles.RATING_OFFICER)
    tournament = factories.make_tournament(
        factories.make_system(), factories.make_user(role=roles.ARBITER), late_registration=True
    )
    client.force_login(officer)
    client.post(reverse("tournaments:approve", args=[tournament.pk]))
    update = events(Tournament, tournament)[-1]
    assert update.pgh_label == "update" and update.approved_by_id == officer.pk
    assert context_of(update)["user"] == officer.pk
    [shown] = [e for e in object_history(obj=tournament) if e.action == "changed"]
    assert shown.user == officer.username
    assert {(c.field, c.old, c.new) for c in shown.changes} >= {
        ("late registration approved by", "—", officer.username)
    }


def test_officers_see_the_history_sections_players_and_the_public_do_not(client) -> None:
    arbiter = factories.make_user(role=roles.ARBITER)
    system = factories.make_system()
    period = factories.make_period(system)
    player = factories.make_player()
    tournament = factories.make_tournament(system, arbiter)
    published = factories.make_published_list(period, [player])
    Protest.objects.create(
        published_list=published, player=player, submitted_by=arbiter, text="Wrong game"
    )
    pages = [
        reverse("tournaments:detail", args=[tournament.pk]),
        reverse("players:detail", args=[player.fed_id]),
        reverse("ratings:list", args=[published.pk]),
    ]
    officer_only = [reverse("ratings:period", args=[period.pk]), reverse("ratings:protests")]
    client.force_login(factories.make_user(role=roles.RATING_OFFICER))
    for url in pages + officer_only:
        page = client.get(url)
        assert page.status_code == 200 and b'id="change-history"' in page.content, url
    on_list = client.get(reverse("ratings:list", args=[published.pk])).content.decode()
    assert "Protest" in on_list[on_list.index('id="change-history"') :]  # the list's protests too
    client.force_login(factories.make_user(role=roles.PLAYER))
    for url in pages:
        page = client.get(url)
        assert page.status_code == 200 and b'id="change-history"' not in page.content, url
    client.logout()
    for url in pages:
        assert b'id="change-history"' not in client.get(url).content, url


def test_bulk_update_is_one_statement_with_one_event_per_row() -> None:
    players = [factories.make_player() for _ in range(5)]
    user = factories.make_user()
    with history_context(user=user.pk, url="/test"):
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE players_player SET club = 'Casino' WHERE id = ANY(%s)",
                [[p.pk for p in players]],
            )
    updates = Player.pgh_event_model.objects.filter(pgh_label="update")  # type: ignore[attr-defined]  # set by @pghistory.track
    assert sorted(updates.values_list("pgh_obj_id", flat=True)) == sorted(p.pk for p in players)
    assert {e.club for e in updates} == {"Casino"}
    assert len({e.pgh_context_id for e in updates}) == 1
    # A save that changes nothing tracked (the timestamps only) records nothing.
    players[0].save()
    assert updates.count() == 5


def test_a_report_rewrite_records_no_game_events_but_a_correction_does(client, setup) -> None:
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    upload(client, t, sample_trf())
    tournament_services.players_confirm(tournament=t, user=setup["arbiter"], picks={3: "new"})
    assert Game.objects.filter(tournament=t).count() == 6
    upload(client, t, sample_trf())  # the same report again: the games are rewritten
    assert Game.objects.filter(tournament=t).count() == 6
    assert not Game.pgh_event_model.objects.exists()  # type: ignore[attr-defined]  # set by @pghistory.track
    game = Game.objects.filter(tournament=t).first()
    officer = setup["officer"]
    with history_context(user=officer.pk):
        Game.objects.filter(pk=game.pk).update(result="0-1", white_score=0, black_score=1)
    [correction] = Game.pgh_event_model.objects.all()  # type: ignore[attr-defined]  # set by @pghistory.track
    assert (correction.pgh_label, correction.pgh_obj_id, correction.result) == (
        "update",
        game.pk,
        "0-1",
    )
    shown = object_history(obj=t, related=True)
    assert [e.user for e in shown if e.what.startswith("Game")] == [officer.username]
    assert {e.what.split()[0] for e in shown} >= {"Tournament", "Report", "Game"}
    # The rows that still exist are named, not numbered: the tournament by its name.
    assert f"Tournament “{t}”" in {e.what for e in shown}
    assert not any(e.what == f"Tournament #{t.pk}" for e in shown)


def test_published_lists_record_their_insert_and_protests_their_decision() -> None:
    # The context set in a transaction lasts until it ends (set_config(..., true)), and a test
    # is one transaction: the writes outside a context come first.
    period = factories.make_period(factories.make_system())
    player = factories.make_player()
    officer = factories.make_user(role=roles.RATING_OFFICER)
    published = factories.make_published_list(period, [player])
    protest = Protest.objects.create(
        published_list=published, player=player, submitted_by=factories.make_user(), text="x"
    )
    with history_context(user=officer.pk):
        Protest.objects.filter(pk=protest.pk).update(status="rejected", decided_by=officer)
        corrected = factories.make_published_list(period, [player], version=2)
    [insert] = events(PublishedList, published)
    assert insert.pgh_label == "insert" and insert.pgh_context_id is None
    [insert] = events(PublishedList, corrected)
    assert insert.version == 2 and context_of(insert)["user"] == officer.pk
    latest = model_history(model=Protest)
    assert [(e.action, e.user) for e in latest] == [("changed", officer.username), ("created", "")]
    assert ("status", "Submitted", "Rejected") in {
        (c.field, c.old, c.new) for c in latest[0].changes
    }


def test_event_tables_are_append_only() -> None:
    factories.make_player()
    for sql in ("UPDATE players_playerevent SET club = 'x'", "DELETE FROM players_playerevent"):
        with pytest.raises(DatabaseError, match="Cannot update or delete"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert Player.pgh_event_model.objects.count() == 1  # type: ignore[attr-defined]  # set by @pghistory.track


def test_a_models_history_names_its_rows_in_a_bounded_number_of_queries() -> None:
    # A protest's name reads its player and list: naming 2 or 8 protests costs the same
    # queries (the officers' protests page showed 160 queries when each was named alone).
    period = factories.make_period(factories.make_system())
    players = [factories.make_player() for _ in range(8)]
    published = factories.make_published_list(period, players)
    submitter = factories.make_user()

    def protests_named(n: int) -> tuple[int, list[str]]:
        for player in players[len(Protest.objects.all()) : n]:
            Protest.objects.create(
                published_list=published, player=player, submitted_by=submitter, text="x"
            )
        with CaptureQueriesContext(connection) as queries:
            shown = model_history(model=Protest)
        return len(queries), [e.what for e in shown]

    few, names = protests_named(2)
    many, names = protests_named(8)
    assert len(names) == 8 and few == many
    assert f"Protest “{players[0]} / {published}”" in names
