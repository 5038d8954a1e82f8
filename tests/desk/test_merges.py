"""Likely duplicates and the merge of two records of one player (issue 24 item 7;
docs/registry.md): what the duplicates query finds, what a merge moves (games, entries,
protests, claims, corrections, accounts, rating states), what stays (published lists), the
redirect, the history, and the refusals (two records in one tournament)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.test import override_settings
from django.urls import reverse

from accounts.models import ClaimRequest, CorrectionRequest
from core.errors import Refused
from core.roles import PLAYER, RATING_OFFICER
from desk.duplicates import CACHE_KEY, player_duplicates, player_duplicates_forget
from desk.merges import player_merge
from players.models import Licence, Player, Season
from protests.models import Protest
from ratings.models import ListEntry, PlayerRating
from tests.factories import (
    make_game,
    make_period,
    make_player,
    make_player_user,
    make_protest,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import Game, TournamentPlayer
from tournaments.selectors import player_candidates

pytestmark = pytest.mark.django_db

#: Nothing listens on the discard port of loopback: a connection there is refused at once.
CACHE_AWAY = "redis://127.0.0.1:9/0"


def _line(tournament, player, rank: int) -> TournamentPlayer:
    return TournamentPlayer.objects.create(
        tournament=tournament, player=player, start_rank=rank, name=str(player)
    )


@pytest.fixture
def officer():
    return make_user("officer-merge", role=RATING_OFFICER)


# ------------------------------------------------------------------------------ duplicates


def test_the_duplicates_are_found_by_name_and_year_fide_id_and_federation_id() -> None:
    a = make_player(fed_id="E1", surname="García", given_name="José", birth_year=1980)
    b = make_player(fed_id="E2", surname="GARCIA", given_name="Jose", birth_year=1980)
    make_player(fed_id="E3", surname="Garcia", given_name="Jose", birth_year=1981)  # not
    c = make_player(fed_id="E4", fide_id=2200123)
    d = make_player(fed_id="FIDE-2200123", fide_id=None)
    e = make_player(fed_id="c-77")
    f = make_player(fed_id="C77")
    g = make_player(fed_id="0088")
    h = make_player(fed_id="88")
    merged = make_player(fed_id="E9", surname="Garcia", given_name="Jose", birth_year=1980)
    Player.objects.filter(pk=merged.pk).update(merged_into=a)
    player_duplicates_forget()
    groups, total = player_duplicates()
    found = sorted((g.reason, [p.pk for p in g.players]) for g in groups)
    assert total == 4
    assert found == [
        ("fed_id", [e.pk, f.pk]),
        ("fed_id", [g.pk, h.pk]),
        ("fide_id", [c.pk, d.pk]),
        ("name_birth", [a.pk, b.pk]),
    ]
    page_two, total_two = player_duplicates(offset=2, limit=3)
    assert total_two == 4 and len(page_two) == 2


def test_a_merge_while_the_cache_is_away_shows_no_merged_record_once_it_is_back(
    officer,
) -> None:
    """The merge's delete is dropped while Redis cannot be reached (the cache fails open), so
    the groups kept before come back with Redis; the merged record is not offered again."""
    a = make_player(fed_id="E1", surname="Garcia", given_name="Jose", birth_year=1980)
    b = make_player(fed_id="E2", surname="Garcia", given_name="Jose", birth_year=1980)
    c = make_player(fed_id="E3", surname="Pons", given_name="Rosa", birth_year=1990)
    d = make_player(fed_id="E4", surname="Pons", given_name="Rosa", birth_year=1990)
    player_duplicates_forget()
    assert player_duplicates()[1] == 2  # both groups found and kept in the cache
    away = {
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": CACHE_AWAY},
        "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    with override_settings(CACHES=away):
        player_merge(kept=a, merged=b, by=officer, reason="Same person")
    assert cache.get(CACHE_KEY) is not None  # the kept groups survived the merge
    groups, _total = player_duplicates()
    assert [[p.pk for p in g.players] for g in groups] == [[c.pk, d.pk]]


def test_the_duplicates_page_links_to_the_merge(client, officer) -> None:
    a = make_player(fed_id="E1", surname="Pons", given_name="Ana", birth_year=1990)
    b = make_player(fed_id="E2", surname="Pons", given_name="Ana", birth_year=1990)
    client.force_login(officer)
    html = client.get(reverse("ratings:player_duplicates")).content.decode()
    assert "Same name and birth year" in html
    assert reverse("ratings:player_merge", args=[a.pk, b.pk]) in html


# ------------------------------------------------------------------------------ merge


@pytest.fixture
def world(officer):
    """Two records of one person: `kept` plays one tournament, `dup` another (with games),
    has a protest, a claim, a correction request, an account and rating states."""
    system, other_system = make_system(), make_system()
    period = make_period(system)
    kept = make_player(fed_id="K1", surname="Vidal", given_name="Rosa", birth_year=None)
    dup = make_player(
        fed_id="D1", surname="Vidal", given_name="Rosa", birth_year=1975, fide_id=2212345
    )
    opponent = make_player(fed_id="O1")
    published = make_published_list(period, [kept, dup, opponent])
    arbiter = make_user("arbiter-merge")
    t1, t2 = make_tournament(system, arbiter), make_tournament(system, arbiter, name="Open Dup")
    _line(t1, kept, 1), _line(t1, opponent, 2)
    dup_line, opp_line = _line(t2, dup, 1), _line(t2, opponent, 2)
    make_game(t2, dup_line, opp_line, "1-0", round=1)
    make_game(t2, opp_line, dup_line, "1/2-1/2", round=2)
    user = make_player_user(dup, "rosa", role=PLAYER)
    protest = make_protest(published, dup, user)
    claim = ClaimRequest.objects.create(user=make_user("claimer"), player=dup, method="fide_id")
    correction = CorrectionRequest.objects.create(
        player=dup, requested_by=user, changes={"club": "Sants"}
    )
    PlayerRating.objects.create(player=kept, system=system, rating=1800, games=40, kind="effective")
    PlayerRating.objects.create(player=dup, system=system, rating=1750, games=10, kind="effective")
    PlayerRating.objects.create(
        player=dup, system=other_system, rating=1600, games=12, kind="effective"
    )
    return {
        "kept": kept,
        "dup": dup,
        "t1": t1,
        "t2": t2,
        "user": user,
        "protest": protest,
        "claim": claim,
        "correction": correction,
        "published": published,
        "system": system,
        "other_system": other_system,
        "opponent": opponent,
    }


def test_a_merge_moves_everything_to_the_kept_record(world, officer, client) -> None:
    kept, dup = world["kept"], world["dup"]
    counts = player_merge(kept=kept, merged=dup, by=officer, reason="Same person, typed twice.")
    assert (counts.tournaments, counts.games, counts.protests, counts.claims) == (1, 2, 1, 1)
    assert (counts.corrections, counts.ratings_moved, counts.ratings_dropped) == (1, 1, 1)
    assert counts.account
    # Games: both of the duplicate's games now name a line of the kept record.
    games = Game.objects.filter(tournament=world["t2"])
    assert {g.white.player_id for g in games} | {g.black.player_id for g in games} == {
        kept.pk,
        world["opponent"].pk,
    }
    assert not TournamentPlayer.objects.filter(player=dup).exists()
    assert Protest.objects.get(pk=world["protest"].pk).player_id == kept.pk
    assert ClaimRequest.objects.get(pk=world["claim"].pk).player_id == kept.pk
    assert CorrectionRequest.objects.get(pk=world["correction"].pk).player_id == kept.pk
    # The rating states: the kept one stays where both had one; the other system's moves.
    states = dict(PlayerRating.objects.filter(player=kept).values_list("system_id", "rating"))
    assert states == {world["system"].pk: 1800, world["other_system"].pk: 1600}
    assert not PlayerRating.objects.filter(player=dup).exists()
    kept.refresh_from_db()
    dup.refresh_from_db()
    # The account, and the blanks filled in (birth year, FIDE ID: the duplicate gives it up).
    assert kept.user_id == world["user"].pk and dup.user_id is None
    assert (kept.birth_year, kept.fide_id, dup.fide_id) == (1975, 2212345, None)
    assert dup.merged_into_id == kept.pk
    # Published lists are immutable: their entries keep the duplicate's id.
    assert ListEntry.objects.filter(published_list=world["published"], player=dup).exists()
    # The duplicate's card leads to the kept one.
    response = client.get(reverse("players:detail", args=[dup.fed_id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("players:detail", args=[kept.fed_id])
    # The history: the duplicate's update event carries the merge's context.
    event = Player.pgh_event_model.objects.filter(  # type: ignore[attr-defined]
        pgh_obj_id=dup.pk, pgh_label="update", merged_into=kept.pk
    ).get()
    assert event.pgh_context.metadata["reason"] == "Same person, typed twice."
    assert event.pgh_context.metadata["merge"] == "D1 → K1"
    # No longer a likely duplicate.
    assert player_duplicates()[1] == 0
    # A later report naming the old federation ID (or the name) is matched to the kept record.
    line = SimpleNamespace(
        start_rank=1, fed_id="D1", fide_id="", name="Vidal, Rosa", birth_year=None
    )
    by_name = SimpleNamespace(
        start_rank=2, fed_id="", fide_id="", name="Vidal, Rosa", birth_year=None
    )
    assert player_candidates(lines=[line, by_name]) == {
        1: ("fed_id", [kept.pk]),
        2: ("name", [kept.pk]),
    }


def test_a_merge_is_refused_when_both_played_one_tournament(world, officer) -> None:
    kept, dup = world["kept"], world["dup"]
    _line(world["t1"], dup, 3)
    with pytest.raises(Refused) as refused:
        player_merge(kept=kept, merged=dup, by=officer, reason="Same person")
    name = world["t1"].name
    assert f"Both records played “{name}” (10 Nov 2026)" in str(refused.value)
    assert TournamentPlayer.objects.filter(player=dup).count() == 2  # nothing moved
    dup.refresh_from_db()
    assert dup.merged_into_id is None


def test_other_refusals(world, officer) -> None:
    kept, dup = world["kept"], world["dup"]
    with pytest.raises(Refused):
        player_merge(kept=kept, merged=kept, by=officer, reason="x")
    with pytest.raises(Refused):
        player_merge(kept=kept, merged=dup, by=officer, reason="  ")
    make_player_user(kept, "other-account", role=PLAYER)
    with pytest.raises(Refused) as refused:
        player_merge(kept=kept, merged=dup, by=officer, reason="Same")
    assert "Both records are linked to a user account" in str(refused.value)
    with pytest.raises(PermissionDenied):
        player_merge(kept=kept, merged=dup, by=world["user"], reason="Same")


def test_the_merge_page_confirms_then_merges(client, world, officer) -> None:
    kept, dup = world["kept"], world["dup"]
    url = reverse("ratings:player_merge", args=[kept.pk, dup.pk])
    client.force_login(officer)
    html = client.get(url).content.decode()
    assert "Tournaments: 1" in html and "Games: 2" in html
    assert client.post(url, {"reason": ""}).status_code == 400
    response = client.post(url, {"reason": "Same person"})
    assert response.status_code == 302
    assert response["Location"] == reverse("players:detail", args=[kept.fed_id])
    assert Player.objects.get(pk=dup.pk).merged_into_id == kept.pk


def test_the_api_lists_duplicates_and_merges(client, world, officer) -> None:
    kept, dup = world["kept"], world["dup"]
    Player.objects.filter(pk=kept.pk).update(birth_year=1975)  # now a likely duplicate
    player_duplicates_forget()
    client.force_login(officer)
    listed = client.get("/api/v1/registry/duplicates/").json()
    assert listed["count"] == 1
    group = listed["results"][0]
    assert group["reason"] == "name_birth"
    assert [p["fed_id"] for p in group["players"]] == ["K1", "D1"]
    _line(world["t1"], dup, 3)
    refused = client.post(
        "/api/v1/registry/merges/",
        {"kept": "K1", "merged": "D1", "reason": "Same"},
        content_type="application/json",
    )
    assert refused.status_code == 409
    assert "Both records played" in refused.content.decode()
    TournamentPlayer.objects.filter(tournament=world["t1"], player=dup).delete()
    merged = client.post(
        "/api/v1/registry/merges/",
        {"kept": "K1", "merged": "D1", "reason": "Same"},
        content_type="application/json",
    )
    assert merged.status_code == 200
    assert (merged.json()["games"], merged.json()["account"]) == (2, True)
    assert Player.objects.get(pk=dup.pk).merged_into_id == kept.pk


# ------------------------------------------------------------------------------ licences


def _licences(kept, dup) -> dict[str, Season]:
    """Three seasons: the duplicate alone licensed in 2024-2025, both in 2025-2026 (under two
    categories), the kept record alone in 2026-2027."""
    seasons = {
        name: Season.objects.create(
            name=name, start=dt.date(year, 9, 1), end=dt.date(year + 1, 8, 31)
        )
        for name, year in (("2024-2025", 2024), ("2025-2026", 2025), ("2026-2027", 2026))
    }
    for player, name, category in (
        (dup, "2024-2025", "Sub-18"),
        (dup, "2025-2026", "Senior B"),
        (kept, "2025-2026", "Senior A"),
        (kept, "2026-2027", "Senior A"),
    ):
        Licence.objects.create(
            player=player,
            season=seasons[name],
            category=category,
            licensed_on=seasons[name].start,
        )
    return seasons


def test_a_merge_moves_the_licences_and_keeps_the_kept_records_on_a_conflict(
    world, officer, client
) -> None:
    kept, dup = world["kept"], world["dup"]
    _licences(kept, dup)
    url = reverse("ratings:player_merge", args=[kept.pk, dup.pk])
    client.force_login(officer)
    summary = client.get(url).content.decode()
    assert "Licences moved: 1" in summary
    assert "the kept record's licence stays" in summary and "2025-2026" in summary
    response = client.post(url, {"reason": "Same person"}, follow=True)
    assert response.status_code == 200
    assert "Both records held a licence for 2025-2026" in response.content.decode()
    held = sorted(Licence.objects.filter(player=kept).values_list("season__name", "category"))
    assert held == [
        ("2024-2025", "Sub-18"),  # moved
        ("2025-2026", "Senior A"),  # both had one: the kept record's
        ("2026-2027", "Senior A"),
    ]
    assert not Licence.objects.filter(player=dup).exists()


def test_the_api_merge_says_which_licences_stayed(client, world, officer) -> None:
    kept, dup = world["kept"], world["dup"]
    _licences(kept, dup)
    client.force_login(officer)
    merged = client.post(
        "/api/v1/registry/merges/",
        {"kept": "K1", "merged": "D1", "reason": "Same"},
        content_type="application/json",
    )
    assert merged.status_code == 200, merged.content
    body = merged.json()
    assert (body["licences_moved"], body["licence_seasons_kept"]) == (1, ["2025-2026"])
    assert Licence.objects.filter(player=kept).count() == 3
