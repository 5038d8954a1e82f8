"""The site's own work, run as the site's database role (core/pg/roles.py): the privileges it is
granted suffice for a calculation, a publication with its ranks and filter rows, and a list
import that rebuilds the registry's indexes (through the SECURITY DEFINER functions of
ratings/migrations/0023); `manage.py migrate` with DATABASE_OWNER_URL creates and grants the
role; the index functions cannot be misused by the role."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from psycopg import errors

from core.pg.roles import DatabaseRoleError, app_role_apply
from lists.imports.jobs import list_import_request
from lists.models import ListImportJob
from periods import services as period_services
from players.models import Player
from ratings.calculation import runs
from ratings.lists import ranks
from ratings.models import ListFilterRow, ListRank, PlayerRating
from ratings.publication import services as publication
from tests import factories
from tests.core.db_roles import PASSWORD, SiteRole, site_role

pytestmark = pytest.mark.django_db(transaction=True)

INDEXES = (
    "SELECT tablename, indexname, indexdef FROM pg_indexes "
    "WHERE tablename IN ('players_player', 'ratings_playerrating') ORDER BY 1, 2"
)


@pytest.fixture
def role() -> Iterator[SiteRole]:
    with site_role() as role:
        yield role


def _indexes(cursor: Any) -> list[tuple[str, ...]]:
    return list(cursor.execute(INDEXES).fetchall())


def test_calculation_publication_and_ranks_run_as_the_role(role: SiteRole) -> None:
    system, period, players, _ = factories.build()
    with role.django():
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone() == (role.name,)
        period_services.period_close(period=period)
        runs.calculation_request(period=period)  # the task runs at commit (eager)
        # The entries with their ranks and filter columns, by one statement (issue 27).
        published = publication.list_publish(period=period)
        ranked = published.entries.filter(rank_national__isnull=False).count()
        rows = published.entries.filter(name_key__isnull=False, active__isnull=False).count()
        # Nothing left for the task of the lists before.
        assert ranks.list_ranks_fill(list_id=published.pk) == 0
        assert ranks.list_rows_fill(list_id=published.pk) == 0
        assert not ListRank.objects.filter(published_list=published).exists()
        assert not ListFilterRow.objects.filter(published_list=published).exists()
    assert published.entries.count() == 4
    assert (ranked, rows) == (3, 4)  # the unrated player has filter columns and no rank


def _csv(n: int) -> bytes:
    lines = ["fide_id;name;fed;sex;title;rating;games;birth_year;flag"]
    lines += [
        f"{900000 + i};Player{i:05d}, Given;ESP;M;;{1500 + i % 900};5;1990;" for i in range(n)
    ]
    return ("\n".join(lines) + "\n").encode()


def test_a_list_import_rebuilds_the_indexes_as_the_role(role: SiteRole) -> None:
    system = factories.make_system()
    with role.connect() as site:
        before = _indexes(site)
    # 10,000 new players into an empty registry: worth deferring (core.pg.indexes).
    with role.django(), CaptureQueriesContext(connection) as queries:
        job = list_import_request(system=system, data=_csv(10_000), format="csv")
    job = ListImportJob.objects.get(pk=job.pk)
    assert job.status == "succeeded", job.problems
    sent = " ".join(q["sql"] for q in queries.captured_queries)
    assert "core_indexes_drop" in sent and "core_indexes_restore" in sent
    assert Player.objects.count() == 10_000 and PlayerRating.objects.count() == 10_000
    with role.connect() as site:
        assert _indexes(site) == before


def test_dropped_indexes_must_be_rebuilt_before_the_commit(role: SiteRole) -> None:
    with role.connect() as site:
        before = _indexes(site)
        with pytest.raises(errors.ObjectNotInPrerequisiteState, match="not rebuilt"):
            with site.transaction():
                dropped = site.execute(
                    "SELECT core_indexes_drop(ARRAY['players_player']::regclass[])"
                ).fetchall()
                assert len(dropped) >= 3
                assert len(_indexes(site)) < len(before)
        assert _indexes(site) == before


def test_the_index_functions_refuse_what_the_role_may_not_load(role: SiteRole) -> None:
    with role.connect() as site:
        site.execute("CREATE TEMP TABLE players_player (id int PRIMARY KEY, n int UNIQUE)")
        for table in ("pg_temp.players_player", "core_deferred_index", "django_migrations"):
            with pytest.raises(errors.InsufficientPrivilege, match="not a table"):
                site.execute("SELECT core_indexes_drop(ARRAY[%s]::regclass[])", [table])
        with pytest.raises(errors.InsufficientPrivilege):
            site.execute("INSERT INTO core_deferred_index VALUES ('players_player', 'x', 'y')")


def test_migrate_as_the_owner_creates_and_grants_the_site_role() -> None:
    owner = dict(connection.settings_dict)  # the test database's: a superuser
    name = f"{owner['NAME']}_migrated"[:63]
    created = SiteRole(name, PASSWORD)
    try:
        with override_settings(DATABASE_OWNER=owner), created.django():
            call_command("migrate", verbosity=0)
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_user")  # back as the site's role afterwards
                assert cursor.fetchone() == (name,)
        with created.connect() as site:
            privileges = site.execute(
                "SELECT has_table_privilege('ratings_listentry', 'UPDATE'), "
                "has_table_privilege('ratings_listentry', 'TRUNCATE'), "
                "has_table_privilege('players_playerevent', 'INSERT'), "
                "has_table_privilege('players_playerevent', 'DELETE'), "
                "has_function_privilege('core_indexes_drop(regclass[])', 'EXECUTE')"
            ).fetchone()
            assert privileges == (True, False, True, False, True)
    finally:
        connection.close()
        with connection.cursor() as cursor:
            cursor.execute(f'DROP OWNED BY "{name}"')
            cursor.execute(f'DROP ROLE "{name}"')


def test_a_superuser_or_the_owner_is_refused_as_the_site_role() -> None:
    owner = connection.settings_dict["USER"]
    with pytest.raises(DatabaseRoleError, match="is the owner"):
        app_role_apply(role=owner, password=None)
    name = f"{connection.settings_dict['NAME']}_super"[:63]
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{name}" SUPERUSER')
    try:
        with pytest.raises(DatabaseRoleError, match="is a superuser"):
            app_role_apply(role=name, password=None)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP ROLE "{name}"')
