"""Every stored calculation and list entry names the regulation and its version
(docs/engine.md "Versions: when to bump"), on both calculation paths and through the
publication; pages show it; adding the column fired no immutability trigger."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from periods import services as period_services
from rating_engine import ENGINE_VERSION
from rating_engine.registry import get_regulation
from ratings.calculation import runs
from ratings.models import (
    CalculationRun,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    ListEntry,
    PlayerRating,
    PublishedList,
)
from ratings.publication import services as publication
from ratings.templatetags.regulation_versions import regulation_label
from tests.factories import build, make_player, make_published_list

pytestmark = pytest.mark.django_db

FIDE_2024 = get_regulation("fide-2024").version


def _versions(model: type, **filters: object) -> set[tuple[str, str, str]]:
    return set(
        model.objects.filter(**filters).values_list(  # type: ignore[attr-defined]
            "ruleset", "engine_version", "regulation_version"
        )
    )


@pytest.mark.parametrize("bulk", [False, True], ids=["engine path", "bulk path"])
def test_run_draft_list_entries_and_states_name_the_regulation_version(
    bulk: bool, django_capture_on_commit_callbacks
) -> None:
    system, period, players, tournament = build()
    # A rated player without a game this period: his entry is carried over unchanged.
    idle = make_player(birth_year=1990)
    PlayerRating.objects.create(player=idle, system=system, rating=1900, games=80, kind="effective")
    with (
        override_settings(RATINGS_BULK_MIN_GAMES=0 if bulk else 10**9),
        django_capture_on_commit_callbacks(execute=True),
    ):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.method == ("bulk" if bulk else "engine")
    named = {("fide-2024", ENGINE_VERSION, FIDE_2024)}
    assert FIDE_2024 == "fide-2024/2"
    assert _versions(CalculationRun, pk=run.pk) == named
    for model in (DraftResult, DraftTournament, DraftExcluded):
        assert _versions(model, run=run) == named, model.__name__
    published = publication.list_publish(period=period)
    assert _versions(PublishedList, pk=published.pk) == named
    entries = ListEntry.objects.filter(published_list=published)
    assert entries.get(player=idle).change == 0
    assert _versions(ListEntry, published_list=published) == named
    assert entries.count() == 5  # the four of the period and the idle one
    assert _versions(PlayerRating, player__in=players[:2]) == named
    # The bulk path writes draft rows for touched players only: the idle one's entry is carried
    # (naming the list's version) and his state is not rewritten; the engine path rates him.
    carried = not DraftResult.objects.filter(run=run, player=idle).exists()
    assert carried == bulk
    assert _versions(PlayerRating, player=idle) == ({("", "", "")} if carried else named)


def test_the_calculation_page_says_which_version_made_it(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, tournament = build()
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    published = publication.list_publish(period=period)
    url = reverse("players:calculation", args=[players[0].fed_id, published.pk])
    html = Client().get(url).content.decode()
    assert "Calculated under fide-2024 version 2." in html
    html = Client().get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Cálculo según fide-2024 versión 2." in html
    translation.activate("en")


def test_a_row_made_before_versions_names_its_engine() -> None:
    system, period, players, _ = build()
    old = make_published_list(period, players)  # as rows before migration 0020: no version
    entry = ListEntry.objects.filter(published_list=old).first()
    assert entry is not None and entry.regulation_version == ""
    assert regulation_label(entry) == "fide-2024, before regulation versions (engine test)"
    entry.regulation_version = "fide-2024/3"
    assert regulation_label(entry) == "fide-2024 version 3"


def test_adding_the_column_with_a_constant_default_fires_no_trigger_on_published_rows() -> None:
    """Migration 0020 is ALTER TABLE … ADD COLUMN … DEFAULT '' NOT NULL on published (immutable)
    tables: PostgreSQL fills the old rows from the catalogue without an UPDATE, so the triggers
    that refuse any UPDATE of a published list or entry never run. Replayed here on rows that
    exist (in the test's transaction, rolled back)."""
    system, period, players, _ = build()
    published = make_published_list(period, players)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in ("ratings_publishedlist", "ratings_listentry"):
            cursor.execute(f"ALTER TABLE {table} DROP COLUMN regulation_version")
            cursor.execute(
                f"ALTER TABLE {table} ADD COLUMN regulation_version varchar(30) DEFAULT '' NOT NULL"
            )
        cursor.execute(
            "SELECT count(*) FROM ratings_listentry WHERE published_list_id = %s "
            "AND regulation_version = ''",
            [published.pk],
        )
        assert cursor.fetchone() == (len(players),)
        # The triggers are there and refuse an UPDATE: the ADD COLUMN above did not run them.
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ratings_listentry SET regulation_version = 'x' WHERE published_list_id = %s",
            [published.pk],
        )
