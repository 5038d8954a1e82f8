"""The bulk tables' foreign keys, checked per statement by triggers (ratings migration 0005).

Each test makes PostgreSQL refuse what a REFERENCES constraint would refuse, through raw SQL
(the ORM has its own on_delete rules, tested at the end).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.test import Client

from players.models import Player
from ratings.lists.selectors import player_list_history
from ratings.models import ListEntry, PlayerRating, PublishedList
from tests.factories import make_period, make_player, make_published_list, make_system

pytestmark = [
    pytest.mark.django_db,
]

MISSING = 987_654_321


def _sql(sql: str, params: list[Any] | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


@pytest.fixture
def published() -> PublishedList:
    return make_published_list(make_period(make_system()), [make_player(), make_player()])


def _entry_insert(list_id: int, player_id: int) -> tuple[str, list[object]]:
    return (
        "INSERT INTO ratings_listentry (published_list_id, player_id, rating, change, games, "
        "total_games, "
        "status, inactive, provisional, ruleset, engine_version) "
        "VALUES (%s, %s, 2000, 0, 0, 0, 'rated', false, false, 'fide-2024', 'x')",
        [list_id, player_id],
    )


def test_an_entry_for_a_missing_player_is_refused(published: PublishedList) -> None:
    with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
        _sql(*_entry_insert(published.pk, MISSING))
    assert ListEntry.objects.count() == 2


def test_an_entry_for_a_missing_list_is_refused(published: PublishedList) -> None:
    with pytest.raises(IntegrityError, match=f"published list {MISSING} does not exist"):
        _sql(*_entry_insert(MISSING, make_player().pk))
    assert ListEntry.objects.count() == 2


def test_one_bad_row_among_many_refuses_the_whole_statement(published: PublishedList) -> None:
    good = [make_player().pk for _ in range(50)]
    with pytest.raises(IntegrityError, match="does not exist"):
        _sql(
            "INSERT INTO ratings_listentry (published_list_id, player_id, rating, change, games, "
            "total_games, "
            "status, inactive, provisional, ruleset, engine_version) "
            "SELECT %s, p, 2000, 0, 0, 0, 'rated', false, false, 'fide-2024', 'x' FROM "
            "unnest(%s::bigint[]) p",
            [published.pk, [*good, MISSING]],
        )
    assert ListEntry.objects.count() == 2


def test_a_list_and_its_entries_written_in_one_statement_are_accepted() -> None:
    """The publication writes the entries and the list row in one statement (a data-modifying
    WITH); the statement's check must see the list row."""
    system = make_system()
    period = make_period(system)
    players = [make_player().pk for _ in range(3)]
    _sql(
        "WITH e AS (INSERT INTO ratings_listentry (published_list_id, player_id, rating, change, "
        "games, "
        "total_games, status, inactive, provisional, ruleset, engine_version) "
        "SELECT 424242, p, 2000, 0, 0, 0, 'rated', false, false, 'fide-2024', 'x' FROM "
        "unnest(%s::bigint[]) p "
        "RETURNING 1) "
        "INSERT INTO ratings_publishedlist (id, system_id, period_id, version, list_date, "
        "published_at, ruleset, "
        "engine_version, note, entry_count) SELECT 424242, %s, %s, 1, '2026-01-01', now(), "
        "'fide-2024', 'x', '', "
        "count(*) FROM e",
        [players, system.pk, period.pk],
    )
    assert PublishedList.objects.get(pk=424242).entry_count == 3
    assert ListEntry.objects.filter(published_list_id=424242).count() == 3


def test_a_player_state_for_a_missing_player_or_system_is_refused() -> None:
    system = make_system()
    insert = (
        "INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind, activity, "
        "out_of_list, "
        "reached_2400, reached_2200, flagged_lists, prior_results, ruleset, engine_version, "
        "updated_at) "
        "VALUES (%s, %s, 2000, 0, 'effective', 'active', false, false, false, 0, '[]', '', '', "
        "now())"
    )
    with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
        _sql(insert, [MISSING, system.pk])
    with pytest.raises(IntegrityError, match=f"rating system {MISSING} does not exist"):
        _sql(insert, [make_player().pk, MISSING])
    _sql(insert, [make_player().pk, system.pk])
    assert PlayerRating.objects.count() == 1


def test_moving_a_player_state_to_a_missing_player_is_refused() -> None:
    state = PlayerRating.objects.create(player=make_player(), system=make_system(), rating=2000)
    with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
        _sql("UPDATE ratings_playerrating SET player_id = %s WHERE id = %s", [MISSING, state.pk])
    _sql(
        "UPDATE ratings_playerrating SET rating = 2100 WHERE id = %s", [state.pk]
    )  # keys unchanged: no check
    state.refresh_from_db()
    assert (state.player_id, state.rating) != (MISSING, 2000)


def test_deleting_a_referenced_player_or_system_in_sql_is_refused(published: PublishedList) -> None:
    listed = published.entries.first().player_id
    with pytest.raises(IntegrityError, match="still has ratings or list entries"):
        _sql("DELETE FROM players_player WHERE id = %s", [listed])
    rated = make_player()
    system = make_system()
    PlayerRating.objects.create(player=rated, system=system, rating=2000)
    with pytest.raises(IntegrityError, match="still has ratings or list entries"):
        _sql("DELETE FROM players_player WHERE id = %s", [rated.pk])
    with pytest.raises(IntegrityError, match="still has player ratings"):
        _sql("DELETE FROM ratings_ratingsystem WHERE id = %s", [system.pk])
    with pytest.raises(IntegrityError, match="changing the id"):
        _sql("UPDATE players_player SET id = %s WHERE id = %s", [MISSING, rated.pk])
    assert Player.objects.filter(pk__in=[listed, rated.pk]).count() == 2
    unreferenced = make_player()
    _sql("DELETE FROM players_player WHERE id = %s", [unreferenced.pk])
    assert not Player.objects.filter(pk=unreferenced.pk).exists()


def test_the_orm_keeps_its_on_delete_rules(published: PublishedList) -> None:
    rated = make_player()
    PlayerRating.objects.create(player=rated, system=make_system(), rating=2000)
    rated.delete()  # CASCADE: the state goes first, then the player (the trigger sees no reference)
    assert not PlayerRating.objects.filter(player_id=rated.pk).exists()
    with pytest.raises(ProtectedError):
        published.entries.first().player.delete()


def test_a_rating_change_updates_the_state_without_index_writes() -> None:
    """Migration 0006: no index on a column a publication changes, and room on the page, so
    PostgreSQL updates states heap-only (HOT)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'ratings_playerrating'")
        assert "fillfactor=50" in (cursor.fetchone()[0] or [])
    system = make_system()
    states = [
        PlayerRating.objects.create(player=make_player(), system=system, rating=2000 + i)
        for i in range(20)
    ]
    counts = (
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables "
        "WHERE relname = 'ratings_playerrating'"
    )
    with connection.cursor() as cursor:
        cursor.execute(counts)
        updated_before, hot_before = cursor.fetchone()
        cursor.execute(
            "UPDATE ratings_playerrating SET rating = rating + 7, games = games + 9, "
            "activity = 'inactive', last_game_date = now() WHERE id = ANY(%s)",
            [[s.pk for s in states]],
        )
        cursor.execute(counts)
        updated, hot = cursor.fetchone()
    assert updated - updated_before == 20
    assert hot - hot_before == 20


def test_a_players_history_lists_every_version_and_probes_the_list_index() -> None:
    """ListEntry keeps no index on the player alone (migration 0007); the history selector
    goes through the unique (list, player) index."""

    system = make_system()
    me, other = make_player(), make_player()
    first = make_published_list(make_period(system), [me, other])
    second = make_published_list(make_period(system, start=dt.date(2026, 12, 1)), [other, me])
    history = list(player_list_history(player_id=me.pk))
    assert [e.published_list_id for e in history] == [second.pk, first.pk]
    assert {e.player_id for e in history} == {me.pk}
    with connection.cursor() as cursor:
        sql, params = player_list_history(player_id=me.pk).query.sql_with_params()
        # With statistics, as a database that holds lists has them: on a never-analysed table the
        # planner guesses its size from the row width, and a wider entry (its regulation_version)
        # tipped the guess towards the (list, rating, player) index.
        cursor.execute("ANALYZE ratings_listentry")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "entry_unique_player" in plan, plan
    page = Client().get(f"/players/{me.fed_id}/")
    assert page.status_code == 200
    assert page.content.decode().count(str(system.name)) >= 2


def test_a_writer_that_checked_its_rows_skips_the_check_for_its_table_only() -> None:
    """Migration 0032: `ratings.refs_checked` naming the table skips the statement's check
    (the list import checks its rows itself); another table's name, or an empty value, does
    not."""
    system = make_system()
    insert = (
        "INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind, activity, "
        "out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset, "
        "engine_version, updated_at) "
        "VALUES (%s, %s, 2000, 0, 'effective', 'active', false, false, false, 0, '[]', '', '', "
        "now())"
    )
    for value in ("ratings_listentry", ""):
        with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
            _sql(f"SET LOCAL ratings.refs_checked = '{value}'; " + insert, [MISSING, system.pk])
    with transaction.atomic():
        sid = transaction.savepoint()
        _sql(
            "SET LOCAL ratings.refs_checked = 'ratings_playerrating'; " + insert,
            [MISSING, system.pk],
        )
        assert PlayerRating.objects.filter(player_id=MISSING).count() == 1
        transaction.savepoint_rollback(sid)
    assert not PlayerRating.objects.filter(player_id=MISSING).exists()
