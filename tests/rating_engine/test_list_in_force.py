"""feda-1996 8.11 in the engine: a tournament's ``list_ratings`` (the list in force on its start
date) are the ratings its players' opponents count with; the player's own R stays Ro.

A (2000, 50 games: K 15, 9.53a) beats B in a Swiss started in June, rated with the January
list (B 2000): D 0, PD .50, +15 x .50 = +7.5; and draws with B in July, with the July list (B
2200, B's rating at the period's start): D -200, PD .24, +15 x .26 = +3.9. Rn = 2011.4 -> 2010
(9.55). Without the January list: +15 x .76 = +11.4 in June, Rn 2015.3 -> 2015."""

from __future__ import annotations

from datetime import date

from rating_engine import rate_period
from rating_engine.types import (
    Game,
    ListRating,
    PeriodInput,
    PeriodResult,
    PlayerInput,
    PlayerResult,
    TournamentInput,
)


def _period(june_list: tuple[ListRating, ...] | None) -> PeriodInput:
    return PeriodInput(
        ruleset="feda-1996",
        start=date(1996, 6, 1),
        end=date(1996, 11, 30),
        parameters={},
        players=(
            PlayerInput(id="A", rating=2000, games=50),
            PlayerInput(id="B", rating=2200, games=50),
        ),
        tournaments=(
            TournamentInput(
                id="june",
                system="swiss",
                start_date=date(1996, 6, 20),
                end_date=date(1996, 6, 25),
                games=(Game("A", "B", "1-0"),),
                list_ratings=june_list,
            ),
            TournamentInput(
                id="july",
                system="swiss",
                start_date=date(1996, 7, 10),
                end_date=date(1996, 7, 15),
                games=(Game("A", "B", "1/2-1/2"),),
            ),
        ),
    )


def _a(result: PeriodResult) -> PlayerResult:
    return next(p for p in result.players if p.id == "A")


def test_the_opponents_count_with_the_list_in_force_on_the_start_date() -> None:
    result = rate_period(_period((ListRating("A", 2000), ListRating("B", 2000))))
    assert _a(result).rating_after == 2010
    lines = {(g.tournament, g.player): g for g in result.games}
    assert lines[("june", "A")].opponent_rating == 2000
    assert lines[("july", "A")].opponent_rating == 2200
    assert round(lines[("june", "A")].change, 2) == 7.5


def test_without_list_ratings_the_period_start_ratings_count() -> None:
    assert _a(rate_period(_period(None))).rating_after == 2015


def test_a_player_missing_from_that_list_is_unrated_for_his_opponents() -> None:
    # B absent from the June list: A's June game is against an unrated player (9.41: only
    # games against rated opponents count in a Swiss); only July's +3.9 -> 2003.9 -> 2005.
    result = rate_period(_period((ListRating("A", 2000),)))
    assert _a(result).rating_after == 2005
