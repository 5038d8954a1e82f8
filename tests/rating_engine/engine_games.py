"""Games and players several regulations' tests share (plain Python, no Django)."""

from __future__ import annotations

from datetime import date

from engine_helpers import active, game, player, prior

from rating_engine.types import Game, PlayerInput, PriorResult


def x_meets(n: int, rating: int, result: str) -> tuple[list[PlayerInput], list[Game]]:
    """Opponents o0…o<n-1>, active and rated ``rating``, and X's game against each (``result``
    from X's side as white), round i+1 against o<i>."""
    opponents = [active(f"o{i}", rating) for i in range(n)]
    return opponents, [game("x", f"o{i}", result, round=i + 1) for i in range(n)]


def newcomer(priors: tuple[PriorResult, ...] = ()) -> PlayerInput:
    """X: unrated, no rated game yet, with the pooled results ``priors``."""
    return player("x", None, games=0, prior_results=priors)


# A, B, C, D: a round robin of 4 (A 2.5, B 1.5, C 1.5, D 0.5).
RR4 = [
    game("a", "b", "1-0", round=1),
    game("c", "a", "1/2-1/2", round=2),
    game("a", "d", "1-0", round=3),
    game("b", "c", "1-0", round=3),
    game("d", "b", "1/2-1/2", round=1),
    game("c", "d", "1-0", round=2),
]

# A, B, C, D rated and U, V unrated: a round robin of 6.
# Scores: A 4, B 3.5, C 2.5, D 2, U 2, V 1.
RR6 = [
    game("a", "b", "1/2-1/2", round=1),
    game("a", "c", "1/2-1/2", round=2),
    game("a", "d", "1-0", round=3),
    game("a", "u", "1-0", round=4),
    game("a", "v", "1-0", round=5),
    game("b", "c", "1-0", round=4),
    game("b", "d", "1-0", round=5),
    game("u", "b", "1-0", round=2),
    game("b", "v", "1-0", round=3),
    game("c", "d", "1/2-1/2", round=1),
    game("c", "u", "1/2-1/2", round=5),
    game("c", "v", "1-0", round=3),
    game("d", "u", "1/2-1/2", round=2),
    game("d", "v", "1-0", round=4),
    game("v", "u", "1-0", round=1),
]


def rr6_unrated(**u_kw: object) -> list[PlayerInput]:
    """RR6's U (with ``u_kw``) and V, both unrated."""
    return [player("u", None, games=0, **u_kw), player("v", None, games=0)]


# A 4-game match: A wins games 1-3 (decided after game 3), B wins game 4.
MATCH4 = [
    game("a", "b", "1-0", round=1),
    game("b", "a", "0-1", round=2),
    game("a", "b", "1-0", round=3),
    game("b", "a", "1-0", round=4),
]


def first_performance_pool(*, with_old: bool) -> tuple[PriorResult, ...]:
    """X's pool: P1 (5 draws against 1800s, March 2000) and, ``with_old``, OLD before it (5 draws
    against 2000s, ended 1 December 1998)."""
    old = [prior(2000, 0.5, date(1998, 12, 1), tournament="OLD")] * 5 if with_old else []
    return tuple(old + [prior(1800, 0.5, date(2000, 3, 1), tournament="P1")] * 5)
