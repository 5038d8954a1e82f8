"""Database constraints for what must never happen."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from periods.models import RULESET_CHOICES
from players.names import fold
from rating_engine.registry import available_rulesets
from ratings.models import ImmutableRowError, ListEntry, PublishedList
from tests import factories
from tournaments.models import TournamentPlayer

pytestmark = pytest.mark.django_db


@pytest.fixture
def published() -> PublishedList:
    system = factories.make_system()
    period = factories.make_period(system)
    return factories.make_published_list(period, [factories.make_player(), factories.make_player()])


def test_orm_refuses_to_update_a_published_entry(published: PublishedList) -> None:
    entry = published.entries.first()
    entry.rating = 2999
    with pytest.raises(ImmutableRowError):
        entry.save()
    with pytest.raises(ImmutableRowError):
        ListEntry.objects.filter(published_list=published).update(rating=1)
    assert sorted(published.entries.values_list("rating", flat=True)) == [2000, 2001]  # type: ignore[type-var]  # no NULL here


def test_orm_refuses_to_delete_a_published_entry_or_list(published: PublishedList) -> None:
    with pytest.raises(ImmutableRowError):
        published.entries.first().delete()
    with pytest.raises(ImmutableRowError):
        ListEntry.objects.all().delete()
    with pytest.raises(ImmutableRowError):
        published.delete()
    assert ListEntry.objects.count() == 2


def test_postgresql_refuses_raw_sql_update_of_an_entry(published: PublishedList) -> None:
    with pytest.raises(IntegrityError, match="immutable"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE ratings_listentry SET rating = 1 WHERE published_list_id = %s",
                [published.pk],
            )
    assert sorted(published.entries.values_list("rating", flat=True)) == [2000, 2001]  # type: ignore[type-var]  # no NULL here


def test_postgresql_refuses_raw_sql_delete_of_entries_and_lists(published: PublishedList) -> None:
    for sql in (
        "DELETE FROM ratings_listentry",
        "DELETE FROM ratings_publishedlist",
        "UPDATE ratings_publishedlist SET note = 'edited'",
    ):
        with pytest.raises(IntegrityError, match="immutable"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert ListEntry.objects.count() == 2
    assert PublishedList.objects.get().note == ""


def test_postgresql_refuses_truncate_of_entries_and_lists(published: PublishedList) -> None:
    # The test's own inserts leave deferred foreign-key checks pending, and PostgreSQL truncates
    # no table with pending trigger events: run them first. CASCADE: the list's protests and
    # calculation runs refer to it with constraints.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for sql in (
        "TRUNCATE ratings_listentry",
        "TRUNCATE ratings_publishedlist CASCADE",
        "TRUNCATE ratings_listentry, ratings_publishedlist CASCADE",
    ):
        with (
            pytest.raises(IntegrityError, match="immutable: TRUNCATE on ratings_"),
            transaction.atomic(),
        ):
            with connection.cursor() as cursor:
                cursor.execute(sql)
    assert ListEntry.objects.count() == 2 and PublishedList.objects.count() == 1


def test_flush_still_empties_the_database(published: PublishedList) -> None:
    # manage.py flush (and so the test runner) truncates every table, published lists included.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # see above
    call_command("flush", interactive=False, verbosity=0)
    assert not ListEntry.objects.exists() and not PublishedList.objects.exists()


def test_a_correction_is_a_new_version(published: PublishedList) -> None:
    players = [e.player for e in published.entries.all()]
    corrected = factories.make_published_list(published.period, players, version=2)
    assert corrected.version == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.make_published_list(published.period, players, version=2)


def test_two_entries_for_one_player_in_one_list_version_are_refused(
    published: PublishedList,
) -> None:
    player = published.entries.first().player
    with pytest.raises(IntegrityError), transaction.atomic():
        ListEntry.objects.create(
            published_list=published,
            player=player,
            rating=1500,
            status="rated",
            ruleset="fide-2024",
            engine_version="test",
        )


def test_a_game_against_oneself_is_refused() -> None:
    system = factories.make_system()
    tournament = factories.make_tournament(system, factories.make_user())
    tp = TournamentPlayer.objects.create(tournament=tournament, start_rank=1, name="Solo, Han")
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.make_game(tournament, tp, tp)


def test_a_period_must_not_end_before_it_starts() -> None:
    system = factories.make_system()
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.make_period(system, start=dt.date(2026, 11, 1), end=dt.date(2026, 10, 1))


def test_player_name_key_is_accent_and_case_insensitive() -> None:
    player = factories.make_player(surname="Núñez-García", given_name="José Mª")
    assert player.name_key == "nunez garcia jose ma"
    assert fold("MUÑOZ, ÀNGEL") == fold("munoz angel")
    assert fold("Conceição") == "conceicao"


def test_rating_system_parameters_are_validated_by_the_regulation() -> None:

    system = factories.make_system(ruleset="fide-2024", parameters={"no_such_parameter": 1})
    with pytest.raises(ValidationError) as excinfo:
        system.full_clean()
    assert excinfo.value.message_dict["parameters"] == [
        "no_such_parameter: unknown parameter for fide-2024 (known: floor, inactivity_months, "
        "initial_max, initial_min_games, pool_months)"
    ]


def test_rating_system_parameters_errors_name_the_field() -> None:

    system = factories.make_system(ruleset="fide-2024", parameters={"floor": "x"})
    with pytest.raises(ValidationError) as excinfo:
        system.full_clean()
    assert excinfo.value.message_dict["parameters"] == ["floor: must be of type int (got 'x')"]
    system = factories.make_system(
        code="fide-2000", ruleset="fide-2000", parameters={"lists_per_year": 6}
    )
    with pytest.raises(ValidationError) as excinfo:
        system.full_clean()
    assert excinfo.value.message_dict["parameters"] == [
        "lists_per_year: must be 4 (quarterly, 9.1) or 12 (monthly, 9.4) (got 6)"
    ]


def test_rating_system_stored_parameters_get_the_defaults() -> None:

    system = factories.make_system(ruleset="fide-2024", parameters={"floor": 1000})
    system.full_clean()
    assert system.parameters == {
        "floor": 1000,
        "initial_max": 2200,
        "initial_min_games": 5,
        "pool_months": 26,
        "inactivity_months": 12,
    }


def test_model_ruleset_choices_match_the_engine_registry() -> None:

    ids = [value for value, _label in RULESET_CHOICES]
    assert ids == sorted(available_rulesets(), reverse=True)
