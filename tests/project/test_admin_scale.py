"""Every admin page renders at federation scale (issue 28 item 2): 100,000 players and
100,000 games, every registered admin's list, change and add page as a superuser, each within
QUERY_BUDGET queries and SECONDS_BUDGET seconds, without a <select> of a large table.

The world is built once for the module, in a transaction rolled back at its end (about 20 s:
tests/project/admin_scale_world.py). `pytest -s` prints each page's figures and the slowest
ones; bench/admin_pages.py prints them over several rounds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.template.response import TemplateResponse
from django.test import Client, RequestFactory

from players.models import Player
from protests.admin import ProtestAdmin
from protests.models import Protest
from tests.project.admin_scale import (
    QUERY_BUDGET,
    SECONDS_BUDGET,
    SELECT_OPTIONS_LIMIT,
    SMALL_TABLES,
    AdminPage,
    QueryBudgetExceeded,
    Rendered,
    admin_pages,
    page_render,
    query_guard,
    relation_problems,
)
from tests.project.admin_scale_world import MIN_ROWS, World, world_build
from tournaments.admin import GameAdmin
from tournaments.models import Game

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def _superuser_request() -> Any:
    request = RequestFactory().get("/admin/")
    request.user = get_user_model()(is_superuser=True, is_staff=True, is_active=True)
    return request


PAGES = admin_pages(_superuser_request())
RENDERED: list[Rendered] = []


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    # No server-side cursors meanwhile: a page that query_guard stops in the middle of one
    # (a <select> iterating its rows) would leave it to be closed later, when the traceback
    # goes, inside another test's transaction, which the CLOSE of a cursor already rolled
    # back would abort.
    settings = connection.settings_dict
    saved = settings.get("DISABLE_SERVER_SIDE_CURSORS", False)
    settings["DISABLE_SERVER_SIDE_CURSORS"] = True
    try:
        with django_db_blocker.unblock(), transaction.atomic():
            built = world_build()
            yield built
            transaction.set_rollback(True)
    finally:
        settings["DISABLE_SERVER_SIDE_CURSORS"] = saved
    if RENDERED:
        print(f"\nslowest admin pages (budgets: {QUERY_BUDGET} queries, {SECONDS_BUDGET} s):")
        for r in sorted(RENDERED, key=lambda r: -r.seconds)[:10]:
            print(f"  {r.page:45} {r.seconds * 1000:7.0f} ms {r.queries:3d} queries")


@pytest.fixture(scope="module")
def superuser_client(world: World, django_db_blocker: Any) -> Client:
    """Signed in once, in the world's transaction."""
    client = Client()
    with django_db_blocker.unblock():
        client.force_login(world.superuser)
        client.get("/admin/")  # templates loaded and compiled once, not inside the first page
    return client


def test_every_registered_model_has_rows(world: World) -> None:
    """A new admin's model needs rows in world_build, or its pages go untested: MIN_ROWS at
    least, so that its list page would break the budget with a query per row."""
    few = {
        model._meta.label: count
        for model in admin.site._registry
        if model not in SMALL_TABLES and (count := model._default_manager.count()) < MIN_ROWS
    }
    assert few == {}
    assert {m._meta.label for m, pk in world.pks.items() if pk is None} == set()


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_admin_page_within_budget(world: World, superuser_client: Client, page: AdminPage) -> None:
    rendered = page_render(superuser_client, page, world.pks.get(page.model))
    RENDERED.append(rendered)
    print(
        f"\n{rendered.page}: {rendered.seconds * 1000:.0f} ms, {rendered.queries} queries, "
        f"largest <select> {rendered.largest_select}"
    )
    assert rendered.status == 200
    assert rendered.queries <= QUERY_BUDGET  # query_guard raises past it already
    assert rendered.seconds <= SECONDS_BUDGET
    assert rendered.largest_select <= SELECT_OPTIONS_LIMIT


def test_no_admin_lists_a_large_table() -> None:
    request = _superuser_request()
    problems = [p for ma in admin.site._registry.values() for p in relation_problems(ma, request)]
    assert problems == []


# ------------------------------------------------------------------- the budgets can fail


class ProtestAdminAsBefore(admin.ModelAdmin):
    """The protest admin of issue 28: the game, the tournament and the submitter in <select>s."""

    raw_id_fields = ("player", "published_list")
    readonly_fields = ProtestAdmin.readonly_fields


class GameAdminWithoutJoins(admin.ModelAdmin):
    """The game admin as it was: its list follows the tournament and both players row by row."""

    list_display = GameAdmin.list_display


class PlayerAdminAsBefore(admin.ModelAdmin):
    """The player admin as it was: its region and federation filters listed every value."""

    list_filter = ("sex", "title", "region", "federation", "affiliated")
    raw_id_fields = ("user", "merged_into")


class ProtestAdminFilteredByGame(admin.ModelAdmin):
    list_filter = ("status", "published_list__system", "game")


def test_the_check_finds_the_game_select_of_issue_28() -> None:
    problems = relation_problems(ProtestAdminAsBefore(Protest, admin.site), _superuser_request())
    assert problems == [
        "protests.Protest.submitted_by: a <select> of every row",
        "protests.Protest.tournament: a <select> of every row",
        "protests.Protest.game: a <select> of every row",
    ]


def test_the_check_finds_filters_that_list_a_large_table() -> None:
    request = _superuser_request()
    assert relation_problems(PlayerAdminAsBefore(Player, admin.site), request) == [
        "players.Player list_filter region: a SELECT DISTINCT over players.Player",
        "players.Player list_filter federation: a SELECT DISTINCT over players.Player",
    ]
    problems = relation_problems(ProtestAdminFilteredByGame(Protest, admin.site), request)
    assert [p for p in problems if "list_filter" in p] == [
        "protests.Protest list_filter game: a link per row of tournaments.Game",
    ]


def test_the_region_filter_is_typed_in(world: World, superuser_client: Client) -> None:
    region = Player.objects.exclude(region="").values_list("region", flat=True)[0]
    page = superuser_client.get("/admin/players/player/", {"region": region.upper(), "o": "2"})
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<input type="search" name="region" value="{region.upper()}"' in html
    assert '<input type="hidden" name="o" value="2">' in html  # the order kept with it
    assert page.context["cl"].result_count == Player.objects.filter(region=region).count() > 0


def _as_superuser(world: World, path: str) -> Any:
    request = RequestFactory().get(path)
    request.user = world.superuser
    return request


def _render(response: Any) -> None:
    assert isinstance(response, TemplateResponse)
    response.render()


def test_the_protest_form_of_issue_28_breaks_the_query_budget(world: World) -> None:
    """Rendered as it was, the protest's change form runs a query per game of the federation
    (Game.__str__ reads both players): stopped at query QUERY_BUDGET + 1."""
    pk = world.pks[Protest]
    model_admin = ProtestAdminAsBefore(Protest, admin.site)
    request = _as_superuser(world, f"/admin/protests/protest/{pk}/change/")
    with pytest.raises(QueryBudgetExceeded, match="tournaments_tournamentplayer"):
        with query_guard():
            _render(model_admin.change_view(request, str(pk)))


def test_a_list_following_foreign_keys_row_by_row_breaks_the_query_budget(world: World) -> None:
    model_admin = GameAdminWithoutJoins(Game, admin.site)
    with pytest.raises(QueryBudgetExceeded):
        with query_guard():
            _render(model_admin.changelist_view(_as_superuser(world, "/admin/tournaments/game/")))
    # …and the registered one, with its joins, stays within it.
    with query_guard() as executed:
        _render(
            admin.site._registry[Game].changelist_view(
                _as_superuser(world, "/admin/tournaments/game/")
            )
        )
    assert len(executed) <= QUERY_BUDGET
