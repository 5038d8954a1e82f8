"""fide-2024 1.1 per game through the site: validation marks the games below the minimum time
for their players' ratings, the rest of the report is rated, and both calculation paths leave
the marked games out with the article, for the player's calculation page (PostgreSQL)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core import roles
from ratings.models import DraftExcluded, DraftResult
from tests.factories import build, calculate, make_system, make_tournament, make_user
from tests.tournaments.test_flow import trf_line, upload
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def _trf() -> bytes:
    """4-player round robin, 3 rounds. Ratings 2250, 1500, 1700, 1650; 1 beats everybody,
    2-3 a draw, 2 beats 4, 3 beats 4."""
    lines = [
        "012 Abierto",
        "022 Sitges",
        "XXR 3",
        trf_line(1, "Uno, Ana", ["   4 w 1", "   2 w 1", "   3 b 1"], rating=2250, points=3.0),
        trf_line(2, "Dos, Bea", ["   3 w =", "   1 b 0", "   4 w 1"], rating=1500, points=1.5),
        trf_line(3, "Tres, Carla", ["   2 b =", "   4 b 1", "   1 w 0"], rating=1700, points=1.5),
        trf_line(4, "Cuatro, Dora", ["   1 b 0", "   3 w 0", "   2 b 0"], rating=1650, points=0),
    ]
    return ("\n".join(lines) + "\n").encode()


def test_validation_marks_the_games_below_their_minimum_and_rates_the_rest(client) -> None:
    # 75 minutes for 60 moves (75 + 0 increment): fide-2024 1.1 asks 90 in a game with a
    # player rated 1800 or more. Only player 1 (2250) is: his 3 games are left out; the 3
    # games among 2, 3 and 4 (all under 1800: 60 minutes) are rated.
    system = make_system(ruleset="fide-2024")
    arbiter = make_user("arb-1-1", role=roles.ARBITER)
    start = timezone.localdate() - dt.timedelta(days=4)
    t = make_tournament(
        system,
        arbiter,
        start_date=start,
        end_date=start + dt.timedelta(days=2),
        base_minutes=75,
        increment_seconds=0,
    )
    Tournament.objects.filter(pk=t.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=24)
    )
    client.force_login(arbiter)
    upload(client, t, _trf())
    # Nobody in the registry yet: the four are created new.
    client.post(
        reverse("tournaments:matching", args=[t.pk]), {f"pick_{i}": "new" for i in range(1, 5)}
    )
    t.refresh_from_db()
    assert t.status == "validated", t.reports.last().problems
    left_out = Game.objects.filter(tournament=t).exclude(left_out_code="")
    assert sorted((g.white.start_rank, g.black.start_rank) for g in left_out) == [
        (1, 2),
        (1, 4),
        (3, 1),
    ]
    assert {(g.left_out_code, g.left_out_article) for g in left_out} == {
        ("rate_of_play", "fide-2024 1.1")
    }
    assert Game.objects.filter(tournament=t, left_out_code="").count() == 3
    page = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert "fide-2024 1.1" in page and "left out of the calculation" in page


@pytest.mark.parametrize("bulk_min_games", [5000, 0])  # the engine path, the bulk path
def test_both_calculation_paths_leave_the_marked_game_out(
    bulk_min_games: int, django_capture_on_commit_callbacks
) -> None:
    # build(): 2000 beats 2100 (a rated game), a draw with the unrated player, a forfeit.
    # Marked left out, the 2000-2100 game is not rated: neither player has a game, and the
    # draft names it with 1.1 beside the forfeit's exclusion.
    system, period, players, tournament = build()
    game = Game.objects.get(tournament=tournament, white__player=players[0])
    Game.objects.filter(pk=game.pk).update(
        left_out_code="rate_of_play", left_out_article="fide-2024 1.1"
    )
    with (
        override_settings(RATINGS_BULK_MIN_GAMES=bulk_min_games),
        django_capture_on_commit_callbacks(execute=True),
    ):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    rows = {r.player_id: r for r in DraftResult.objects.filter(run=run)}
    assert players[0].pk not in rows or rows[players[0].pk].games == 0
    excluded = DraftExcluded.objects.filter(run=run, code="rate_of_play")
    assert [(e.white_key, e.black_key, e.article, e.reason) for e in excluded] == [
        (
            str(players[0].pk),
            str(players[1].pk),
            "fide-2024 1.1",
            "below the minimum time for its players' ratings",
        )
    ]
