"""The demo's tournaments played out: Elo-drawn results, Berger round robins, a simple Swiss
with byes and a couple of forfeits. Pure Python over the registry's players; the games go to
the office as the arbiter's report (demo.reports), never straight into the database."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal

from players.models import Player


@dataclass(frozen=True)
class Played:
    """One pairing as a report writes it: ranks, points, and what kind of game it was
    (``played``, ``forfeit``, ``bye_half`` requested half-point bye, ``bye_pab`` pairing-
    allocated bye)."""

    round: int
    white: int
    black: int | None
    white_score: Decimal
    black_score: Decimal | None
    kind: str = "played"


@dataclass
class Entrant:
    rank: int
    player: Player
    rating: int
    score: Decimal = Decimal(0)
    opponents: set[int] = field(default_factory=set)
    had_bye: bool = False


def game_result(rng: random.Random, white: int, black: int) -> tuple[str, Decimal, Decimal]:
    """A played game's result drawn from the Elo expectation, with draws."""
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.32 * (1 - abs(expected - 0.5) * 1.4)
    roll = rng.random()
    if roll < draw:
        return "1/2-1/2", Decimal("0.5"), Decimal("0.5")
    if roll < draw + (1 - draw) * expected:
        return "1-0", Decimal(1), Decimal(0)
    return "0-1", Decimal(0), Decimal(1)


def round_robin_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Berger tables by the circle method: indexes 0..n-1 (n even), colours alternating."""
    idx = list(range(n))
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = idx[i], idx[n - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        idx = [idx[0], idx[-1], *idx[1:-1]]
    return rounds


def swiss_round(
    rng: random.Random, entrants: list[Entrant]
) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None]:
    """A simple Swiss pairing: by score then rating, greedy, no rematches when avoidable."""
    ordered = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.rank))
    bye = None
    if len(ordered) % 2:
        for candidate in reversed(ordered):
            if not candidate.had_bye:
                bye = candidate
                break
        bye = bye or ordered[-1]
        ordered.remove(bye)
    pairs: list[tuple[Entrant, Entrant]] = []
    free = ordered[:]
    while free:
        top = free.pop(0)
        partner = next((e for e in free if e.rank not in top.opponents), free[0])
        free.remove(partner)
        pairs.append((top, partner) if rng.random() < 0.5 else (partner, top))
    return pairs, bye


def play(rng: random.Random, entrants: list[Entrant], *, pairing: str, rounds: int) -> list[Played]:
    """Every round of a tournament: a round robin by Berger tables (``round_robin``, an even
    field), else a Swiss with a half-point bye in the last round for an odd field and two
    forfeits along the way. Updates the entrants' scores."""
    games: list[Played] = []
    forfeits_left = 0 if pairing == "round_robin" else 2
    for rnd in range(1, rounds + 1):
        bye = None
        if pairing == "round_robin":
            table = round_robin_rounds(len(entrants))
            pairs = [(entrants[a], entrants[b]) for a, b in table[rnd - 1]]
        else:
            playing = entrants
            if rnd == rounds and len(entrants) % 2:
                # A requested half-point bye in the last round evens the numbers.
                resting = entrants[len(entrants) // 2]
                playing = [e for e in entrants if e is not resting]
                games.append(Played(rnd, resting.rank, None, Decimal("0.5"), None, "bye_half"))
                resting.score += Decimal("0.5")
            pairs, bye = swiss_round(rng, playing)
        if bye is not None:
            bye.had_bye = True
            games.append(Played(rnd, bye.rank, None, Decimal(1), None, "bye_pab"))
            bye.score += 1
        for white, black in pairs:
            white.opponents.add(black.rank)
            black.opponents.add(white.rank)
            if forfeits_left and rnd in (2, 5) and (white, black) == pairs[len(pairs) // 2]:
                forfeits_left -= 1
                ws, bs = (
                    (Decimal(1), Decimal(0)) if rng.random() < 0.5 else (Decimal(0), Decimal(1))
                )
                kind = "forfeit"
            else:
                _result, ws, bs = game_result(rng, white.rating, black.rating)
                kind = "played"
            games.append(Played(rnd, white.rank, black.rank, ws, bs, kind))
            white.score += ws
            black.score += bs
    return games
