"""The list import checks its new ratings' references itself (ratings migration 0032): the
same refusals as the trigger's, the trigger's check left on for everything else."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from formats import lists as lf
from lists.imports import importer
from lists.imports.importer import list_import
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_player, make_system

pytestmark = [pytest.mark.django_db]

MISSING = 987_654_321


def _txt(*ids: int) -> bytes:
    rows = [
        lf.ListRow(fide_id=i, name=f"Surname{i}, Given", fed="ESP", sex="M", rating=2000 + n)
        for n, i in enumerate(ids)
    ]
    return "".join(lf.render_txt(rows, rating_label="NOV26")).encode()


def _setting() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('ratings.refs_checked', true)")
        return cursor.fetchone()[0]


def test_an_import_writes_its_ratings_and_leaves_the_trigger_checking() -> None:
    system = make_system()
    existing = make_player(fide_id=7)
    result = list_import(system=system, data=_txt(5, 6, 7), format="txt", target="system")
    assert (result.players_created, result.ratings_written) == (2, 3)
    ratings = PlayerRating.objects.filter(system=system)
    assert sorted(ratings.values_list("player__fide_id", "rating")) == [
        (5, 2000),
        (6, 2001),
        (7, 2002),
    ]
    assert ratings.get(player=existing).rating == 2002
    assert _setting() in ("", None)
    with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
        with transaction.atomic():
            PlayerRating.objects.create(player_id=MISSING, system=make_system())


def _stage(cursor, *player_ids: int | None) -> None:
    cursor.execute(
        "CREATE TEMP TABLE list_stage (player_id bigint, rating_id bigint) ON COMMIT DROP"
    )
    for player_id in player_ids:
        cursor.execute("INSERT INTO list_stage VALUES (%s, NULL)", [player_id])


def test_the_imports_own_check_refuses_a_missing_player_or_system() -> None:
    system = make_system()
    player = make_player()
    with transaction.atomic(), connection.cursor() as cursor:
        _stage(cursor, player.pk, None)  # an existing player, a new one: nothing to refuse
        importer._ratings_refs_check(cursor, system.pk)
        with pytest.raises(IntegrityError, match=f"rating system {MISSING} does not exist"):
            importer._ratings_refs_check(cursor, MISSING)
        transaction.set_rollback(True)
    with pytest.raises(IntegrityError, match=f"player {MISSING} does not exist"):
        with transaction.atomic(), connection.cursor() as cursor:
            _stage(cursor, player.pk, MISSING, None)
            importer._ratings_refs_check(cursor, system.pk)
    assert Player.objects.count() == 1
