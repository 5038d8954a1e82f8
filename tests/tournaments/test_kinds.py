"""The kind of competition as a choice of the regulation's kinds: the registration page, the
API, the admin's form, the migration from the free-text category, and what the engine receives
(the championship flag, cnxc-2000 5.3's virtual rating by kind)."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.forms import ChoiceField
from django.urls import reverse
from django.utils import timezone

from core import roles
from tests.factories import (
    calculate,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
    registration_data,
)
from tournaments.admin import TournamentAdminForm
from tournaments.forms import TournamentRegistrationForm
from tournaments.kinds import tournament_is_national_championship
from tournaments.models import Tournament, TournamentPlayer

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "tournaments.migrations.0006_competition_kind_scope_and_games_left_out"
)


@pytest.mark.parametrize(
    ("ruleset", "category", "kind"),
    [
        # The engine's own ids, as the engine read them from `category` before.
        ("feda-1996", "regional_championship", "regional_championship"),
        ("cnxc-2000", "championship_final", "championship_final"),
        # Texts that say championship and one level.
        ("feda-1996", "Campeonato Provincial de Lugo", "provincial_championship"),
        ("feda-1996", "Campionat autonòmic", "regional_championship"),
        ("feda-1996", "Campeonato de España", "national_championship"),
        ("fide-2000", "Campeonato Nacional Femenino", "womens_national_championship"),
        ("fide-2000", "National championship", "national_championship"),
        ("cnxc-2000", "Permanente da Categoria de Honra", "permanent_honour"),
        ("cnxc-2000", "Campeonato de Portugal Absoluto - Fase Final", "championship_final"),
        (
            "cnxc-2000",
            "Campeonato de Portugal de Equipas - Fase Final - 1º tabuleiro",
            ("team_championship_final_board_1"),
        ),
        # FEDA 1.1's categories of any event are not championships; ambiguity maps to none.
        ("feda-1996", "regional open", ""),
        ("feda-1996", "internacional cerrado", ""),
        ("feda-1996", "Campeonato regional y provincial", ""),
        ("fide-2000", "International championship", ""),
        # A regulation without kinds.
        ("fide-2024", "national_championship", ""),
    ],
)
def test_the_migration_maps_a_category_only_when_unambiguous(
    ruleset: str, category: str, kind: str
) -> None:
    assert migration.kind_from_category(ruleset, category) == kind


def test_the_registration_page_offers_the_kinds_and_refuses_another_regulations() -> None:
    feda = make_system(ruleset="feda-1996", cycle="semestral")
    data = registration_data(feda, timezone.localdate() + dt.timedelta(days=30))
    form = TournamentRegistrationForm(data={**data, "kind": "provincial_championship"})
    assert form.is_valid(), form.errors
    html = str(form["kind"])
    assert "Provincial championship" in html and "Women&#x27;s national championship" in html
    # fide-2000's women's championship is not a FEDA kind.
    form = TournamentRegistrationForm(data={**data, "kind": "womens_national_championship"})
    assert not form.is_valid()
    assert "Provincial championship" in form.errors["kind"][0]


def test_the_admin_form_offers_the_kinds() -> None:
    field = TournamentAdminForm().fields["kind"]
    assert isinstance(field, ChoiceField)
    assert ("", "None of these (any other competition)") in list(field.choices)  # type: ignore[arg-type]


def test_register_with_a_kind_through_the_page(client) -> None:
    system = make_system(ruleset="cnxc-2000", cycle="semestral", rate_of_play="correspondence")
    arbiter = make_user("arb-kind", role=roles.ARBITER)
    client.force_login(arbiter)
    data = registration_data(system, timezone.localdate() + dt.timedelta(days=30))
    data.update(kind="championship_final", thematic="on")
    response = client.post(reverse("tournaments:register"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Magistral")
    assert (t.kind, t.thematic, t.virtual_rating) == (
        "championship_final",
        True,
        (2200, "cnxc-2000 5.3"),
    )
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "Portuguese Championship, final" in page and "cnxc-2000 3.1" in page


def test_a_national_kind_is_a_national_championship_for_the_engine() -> None:
    feda = make_system(ruleset="feda-1996", cycle="semestral")
    arbiter = make_user("arb-nat")
    national = make_tournament(feda, arbiter, kind="national_championship")
    regional = make_tournament(feda, arbiter, kind="regional_championship")
    assert tournament_is_national_championship(tournament=national)
    assert not tournament_is_national_championship(tournament=regional)


@pytest.mark.parametrize(("kind", "virtual"), [("championship_final", 2200), ("", 1750)])
def test_the_virtual_rating_comes_from_the_kind_5_3(
    kind: str, virtual: int, django_capture_on_commit_callbacks
) -> None:
    # 5.3: an opponent with no CNXC, ICCF, FPX or FIDE rating counts 2200 in the Championship
    # final, 1750 in any other competition; the note on the rated player's calculation says so.
    system = make_system(ruleset="cnxc-2000", cycle="semestral", rate_of_play="correspondence")
    period = make_period(system, dt.date(2026, 1, 1), end=dt.date(2026, 6, 30))
    arbiter = make_user("arb-virtual")
    t = make_tournament(
        system,
        arbiter,
        status="validated",
        period=period,
        kind=kind,
        category="championship_final" if not kind else "",  # the text is no longer read
        start_date=dt.date(2025, 3, 1),
        end_date=dt.date(2026, 5, 1),
    )
    rated, new = make_player(birth_year=1970), make_player(birth_year=1980)
    from ratings.models import DraftResult, PlayerRating
    from tests.factories import make_game

    PlayerRating.objects.create(
        player=rated, system=system, rating=2000, games=60, kind="effective"
    )
    a = TournamentPlayer.objects.create(tournament=t, player=rated, start_rank=1, name="A")
    b = TournamentPlayer.objects.create(tournament=t, player=new, start_rank=2, name="B")
    make_game(t, a, b, "1/2-1/2")
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    row = DraftResult.objects.get(run=run, player=rated)
    notes = [n for n in row.notes if n["code"] == "virtual_rating"]
    assert [n["params"]["rating"] for n in notes] == [virtual]
