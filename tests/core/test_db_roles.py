"""Connected as the site's database role (core/pg/roles.py), a published list cannot be changed:
the triggers refuse UPDATE and DELETE of lists, entries, ranks and filter rows, and the role can
neither truncate them, disable the triggers, set session_replication_role, step around the
triggers with pgtrigger.ignore, nor change the history; its ordinary work goes through.

The role is made in the test database by the service `manage.py migrate` calls
(tests/core/db_roles.py); the statements go over a psycopg connection as that role. The flows
that run Django's own code as the role (publication, ranks, list import) are in
test_db_roles_flows.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from psycopg import errors

from ratings.lists import ranks
from ratings.models import ListEntry, ListFilterRow, ListRank, PublishedList
from tests import factories
from tests.core.db_roles import SiteRole, site_role

pytestmark = pytest.mark.django_db(transaction=True)

PUBLISHED = (
    "ratings_publishedlist",
    "ratings_listentry",
    "ratings_listrank",
    "ratings_listfilterrow",
)


@pytest.fixture
def published() -> PublishedList:
    """A published list of three players with its ranks and filter rows, committed."""
    period = factories.make_period(factories.make_system())
    players = [factories.make_player(region="Catalunya", club="CE") for _ in range(3)]
    published = factories.make_published_list(period, players)
    assert ranks.list_ranks_fill(list_id=published.pk) == 3
    assert ranks.list_rows_fill(list_id=published.pk) == 3
    return published


@pytest.fixture
def role() -> Iterator[SiteRole]:
    with site_role() as role:
        yield role


@pytest.fixture
def site(role: SiteRole) -> Iterator[psycopg.Connection[Any]]:
    with role.connect() as conn:
        yield conn


def _counts(list_id: int) -> tuple[int, ...]:
    return (
        PublishedList.objects.filter(pk=list_id).count(),
        ListEntry.objects.filter(published_list_id=list_id).count(),
        ListRank.objects.filter(published_list_id=list_id).count(),
        ListFilterRow.objects.filter(published_list_id=list_id).count(),
    )


def _one(conn: psycopg.Connection[Any], sql: str, params: Any = None) -> tuple[Any, ...]:
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return tuple(row)


def _refused(conn: psycopg.Connection[Any], sql: str, error: type[Exception]) -> str:
    with pytest.raises(error) as caught:
        conn.execute(sql)
    return str(caught.value)


def test_the_connection_is_the_site_role_and_no_superuser(
    site: psycopg.Connection[Any], role: SiteRole
) -> None:
    user, superuser = _one(
        site, "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
    )
    assert (user, superuser) == (role.name, False)
    owned = site.execute(
        "SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles "
        "WHERE rolname = current_user)"
    ).fetchone()
    assert owned == (0,)


def test_update_and_delete_of_every_published_table_are_refused_by_its_triggers(
    published: PublishedList, site: psycopg.Connection[Any]
) -> None:
    before = _counts(published.pk)
    assert before == (1, 3, 3, 3)
    pk = published.pk
    statements = [
        f"UPDATE ratings_publishedlist SET note = 'edited' WHERE id = {pk}",
        f"DELETE FROM ratings_publishedlist WHERE id = {pk}",
        *(
            sql
            for table, column in (
                ("ratings_listentry", "rating"),
                ("ratings_listrank", "national"),
                ("ratings_listfilterrow", "rating"),
            )
            for sql in (
                f"UPDATE {table} SET {column} = 1 WHERE published_list_id = {pk}",
                f"DELETE FROM {table} WHERE published_list_id = {pk}",
            )
        ),
    ]
    for sql in statements:
        message = _refused(site, sql, errors.RestrictViolation)
        assert "published lists are immutable" in message, sql
        assert ("UPDATE" if sql.startswith("UPDATE") else "DELETE") in message
    assert _counts(pk) == before
    assert PublishedList.objects.get(pk=pk).note == ""
    assert sorted(
        ListRank.objects.filter(published_list=published).values_list("national", flat=True)
    ) == [1, 2, 3]


def test_pgtrigger_ignore_does_not_switch_the_refusals_off(
    published: PublishedList, site: psycopg.Connection[Any]
) -> None:
    # Any role may SET a custom setting; pgtrigger's own triggers skip themselves when their
    # name is in pgtrigger.ignore. The office's refusals do not read it (core/pg/triggers.py).
    names = [
        row[0]
        for row in site.execute(
            "SELECT tgname FROM pg_trigger "
            "WHERE NOT tgisinternal AND tgrelid = ANY(%s::regclass[])",
            [list(PUBLISHED)],
        )
    ]
    # UPDATE/DELETE and TRUNCATE on each of the four tables, among others (history, references)
    assert sum(name.startswith("pgtrigger_immutable") for name in names) == 8
    with site.transaction():
        site.execute(
            "SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + ",".join(names) + "}"]
        )
        for table in PUBLISHED[1:]:
            sql = f"DELETE FROM {table} WHERE published_list_id = {published.pk}"
            with pytest.raises(errors.RestrictViolation), site.transaction():
                site.execute(sql)
    assert _counts(published.pk) == (1, 3, 3, 3)


def test_truncate_is_refused_to_the_role_and_by_the_triggers_to_the_owner(
    published: PublishedList, site: psycopg.Connection[Any]
) -> None:
    for table in PUBLISHED:
        # The site's role has no TRUNCATE privilege at all.
        _refused(site, f"TRUNCATE {table} CASCADE", errors.InsufficientPrivilege)
    # The owner (the test database's, a superuser) has it; the triggers refuse. Deferred
    # checks of the fixture's inserts must run first: PostgreSQL truncates no table with
    # pending trigger events.
    for table in PUBLISHED:
        with pytest.raises(IntegrityError, match=f"immutable: TRUNCATE on {table}"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"TRUNCATE {table} CASCADE")
    assert _counts(published.pk) == (1, 3, 3, 3)


def test_the_role_can_neither_disable_the_triggers_nor_replicate(
    published: PublishedList, site: psycopg.Connection[Any]
) -> None:
    (trigger,) = _one(
        site,
        "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'pgtrigger_immutable%' "
        "AND tgrelid = 'ratings_listentry'::regclass ORDER BY tgname LIMIT 1",
    )
    for sql, needs in (
        ("ALTER TABLE ratings_listentry DISABLE TRIGGER ALL", "must be owner"),
        ("ALTER TABLE ratings_listrank DISABLE TRIGGER USER", "must be owner"),
        (f"ALTER TABLE ratings_listentry DISABLE TRIGGER {trigger}", "must be owner"),
        (f"DROP TRIGGER {trigger} ON ratings_listentry", "must be owner"),
        ("ALTER TABLE ratings_listfilterrow OWNER TO CURRENT_USER", "must be owner"),
        ("SET session_replication_role = replica", "permission denied"),
        ("SET LOCAL session_replication_role = replica", "permission denied"),
        ("CREATE TABLE public.intruder (id int)", "permission denied"),
        (
            f"CREATE OR REPLACE FUNCTION {trigger}() RETURNS trigger LANGUAGE plpgsql "
            "AS $$ BEGIN RETURN NULL; END $$",
            "permission denied for schema public",
        ),
    ):
        assert needs in _refused(site, sql, errors.InsufficientPrivilege), sql
    assert site.execute("SHOW session_replication_role").fetchone() == ("origin",)
    enabled = site.execute(
        "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'pgtrigger_immutable%%' "
        "AND tgenabled = 'O' AND tgrelid = ANY(%s::regclass[])",
        [list(PUBLISHED)],
    ).fetchone()
    assert enabled == (8,)
    _refused(
        site,
        f"UPDATE ratings_listentry SET rating = 1 WHERE published_list_id = {published.pk}",
        errors.RestrictViolation,
    )


def test_history_is_append_only_for_the_role(site: psycopg.Connection[Any]) -> None:
    factories.make_player(surname="Before")  # an insert event
    (player,) = _one(site, "SELECT id FROM players_player")
    site.execute("UPDATE players_player SET surname = 'After' WHERE id = %s", [player])
    events = site.execute(
        "SELECT pgh_label FROM players_playerevent WHERE pgh_obj_id = %s ORDER BY pgh_id",
        [player],
    ).fetchall()
    assert events == [("insert",), ("update",)]  # the role's update was recorded, by trigger
    for sql in (
        "UPDATE players_playerevent SET surname = 'Forged'",
        "DELETE FROM players_playerevent",
        "TRUNCATE players_playerevent",
    ):
        _refused(site, sql, errors.InsufficientPrivilege)
    _refused(site, "SELECT * FROM core_deferred_index", errors.InsufficientPrivilege)
    _refused(site, "DELETE FROM django_migrations", errors.InsufficientPrivilege)


def test_ordinary_work_goes_through(site: psycopg.Connection[Any]) -> None:
    with site.transaction():
        (player,) = _one(
            site,
            "INSERT INTO players_player (fed_id, surname, given_name, sex, club, region, "
            "federation, title, affiliated, name_key, created_at, updated_at) VALUES "
            "('SITE-1', 'Role', 'Site', 'F', '', '', 'ESP', '', true, 'role site', now(), now()) "
            "RETURNING id",
        )
        site.execute("UPDATE players_player SET club = 'CE' WHERE id = %s", [player])
        site.execute("CREATE TEMP TABLE stage ON COMMIT DROP AS SELECT 1 AS one")
        site.execute(
            "SELECT setval(pg_get_serial_sequence('players_player', 'id'), %s)", [player + 5]
        )
        site.execute("SELECT pg_advisory_xact_lock(7303, 1)")
    assert site.execute("SELECT club FROM players_player WHERE fed_id = 'SITE-1'").fetchone() == (
        "CE",
    )
    site.execute("DELETE FROM players_player WHERE id = %s", [player])
    assert site.execute("SELECT count(*) FROM players_player").fetchone() == (0,)
