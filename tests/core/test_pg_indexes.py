"""core.pg.indexes: secondary indexes dropped for a bulk load and rebuilt exactly as they were."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from core.pg.indexes import (
    secondary_indexes_deferred,
    secondary_indexes_rebuild,
    worth_deferring,
)
from players.models import Player
from tests.factories import make_player

pytestmark = [
    pytest.mark.django_db,
]

INDEXES = (
    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'players_player' ORDER BY "
    "indexname"
)
UNIQUES = (
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
    "WHERE conrelid = 'players_player'::regclass AND contype = 'u' ORDER BY conname"
)


def _catalogue() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    with connection.cursor() as cursor:
        cursor.execute(INDEXES)
        indexes = cursor.fetchall()
        cursor.execute(UNIQUES)
        return indexes, cursor.fetchall()


def _insert(cursor, fed_ids: list[str]) -> None:
    cursor.execute(
        "INSERT INTO players_player (fed_id, surname, given_name, sex, club, region, federation, "
        "title, "
        "affiliated, name_key, created_at, updated_at) "
        "SELECT f, 'Bulk', 'Row', 'M', '', '', 'ESP', '', true, 'bulk row', now(), now() FROM "
        "unnest(%s::text[]) f",
        [fed_ids],
    )


def test_the_indexes_come_back_as_the_migrations_made_them() -> None:
    before = _catalogue()
    with transaction.atomic(), connection.cursor() as cursor:
        with secondary_indexes_deferred(cursor, "players_player") as dropped:
            cursor.execute(INDEXES)
            during = [name for name, _ in cursor.fetchall()]
            _insert(cursor, [f"BULK-{i}" for i in range(500)])
    assert "players_player_pkey" in during and len(during) == 1  # only the primary key stays
    assert set(dropped) == {name for name, _ in before[0]} - {"players_player_pkey"}
    assert _catalogue() == before
    assert Player.objects.filter(fed_id__startswith="BULK-").count() == 500


def test_a_duplicate_loaded_without_the_unique_index_fails_the_rebuild_and_rolls_back() -> None:
    make_player(fed_id="TWICE")
    before = _catalogue()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        with secondary_indexes_deferred(cursor, "players_player"):
            _insert(cursor, ["TWICE", "ONCE"])
    assert _catalogue() == before
    assert not Player.objects.filter(fed_id="ONCE").exists()


def test_after_commit_only_the_unique_indexes_come_back_in_the_load() -> None:
    """after_commit: the unique indexes and constraints are rebuilt inside the load's
    transaction; the others (names, search) only by secondary_indexes_rebuild, afterwards,
    exactly as the migrations made them."""
    before = _catalogue()
    with transaction.atomic(), connection.cursor() as cursor:
        with secondary_indexes_deferred(cursor, "players_player", after_commit=True) as dropped:
            _insert(cursor, [f"BULK-{i}" for i in range(500)])
        cursor.execute(INDEXES)
        between = {name for name, _ in cursor.fetchall()}
    uniques = {name for name, definition in before[0] if "UNIQUE" in definition}
    assert between == uniques and "player_name_words" in dropped
    assert _catalogue()[1] == before[1]  # the unique constraints are all there
    secondary_indexes_rebuild("players_player")
    assert _catalogue() == before


def test_after_commit_a_duplicate_still_fails_the_load() -> None:
    make_player(fed_id="TWICE")
    before = _catalogue()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        with secondary_indexes_deferred(cursor, "players_player", after_commit=True):
            _insert(cursor, ["TWICE", "ONCE"])
    assert _catalogue() == before
    assert not Player.objects.filter(fed_id="ONCE").exists()


def test_only_a_load_that_at_least_doubles_a_table_defers() -> None:
    assert worth_deferring(new_rows=500_000, existing_rows=0)
    assert worth_deferring(new_rows=500_000, existing_rows=400_000)
    assert not worth_deferring(new_rows=100_000, existing_rows=500_000)
    assert not worth_deferring(new_rows=5_000, existing_rows=0)  # small loads: not worth the lock
