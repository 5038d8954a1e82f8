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


def rr10_issue25() -> list[Game]:
    """The round robin of RULESETS.md "Decided readings" (fide-2000 10.1 / feda-1996 9.1,
    amended after issue 25): 10 players, r0-r3 rated, X and U1-U5 unrated; each meets each once.

    - r0-r3 draw each other (1 1/2), beat X (1), draw U1-U4 (2) and lose to U5: 4 1/2 of 9 each.
    - X loses to r0-r3 (0 of 4) and, against the unrated: draws U1-U3, loses to U4 and U5
      (1 1/2 of 5): 1 1/2 of 9.
    - U1-U5 draw each other.
    """
    rated = [f"r{i}" for i in range(4)]
    others = [f"u{i}" for i in range(1, 6)]
    games = [game(a, b, "1/2-1/2") for i, a in enumerate(rated) for b in rated[i + 1 :]]
    games += [game(r, "x", "1-0") for r in rated]
    games += [game(r, u, "0-1" if u == "u5" else "1/2-1/2") for r in rated for u in others]
    games += [game("x", u, "1/2-1/2" if u in ("u1", "u2", "u3") else "0-1") for u in others]
    games += [game(a, b, "1/2-1/2") for i, a in enumerate(others) for b in others[i + 1 :]]
    return games
