"""Helpers several regulations share. Keep them general: no article of one regulation is
hard-wired here; callers pass the article they apply."""

from __future__ import annotations

import calendar
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from .errors import EngineInputError
from .types import (
    RESULTS,
    Decision,
    Excluded,
    Game,
    PeriodInput,
    PlayerInput,
    PriorResult,
    TournamentInput,
)

__all__ = [
    "PooledResults",
    "_",
    "add_months",
    "cap_difference",
    "capped_average",
    "decided_match_games",
    "excluded",
    "normalise_result",
    "one_year_before",
    "player_index",
    "pool_prior_results",
    "scores",
    "sorted_tournaments",
    "unplayed_decision",
    "until_end_of_year_of_age",
    "validate_period",
    "window_start",
]


def _(s: str) -> str:
    """No-op translation marker (CONTRIBUTING.md): the Django layer translates templates."""
    return s


_RESULT_ALIASES: Mapping[str, str] = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    ".5-.5": "1/2-1/2",
}


#: Every spelling of a result the reader takes (inner spaces and surrounding whitespace aside).
RESULT_SPELLINGS: tuple[str, ...] = tuple(_RESULT_ALIASES)


def normalise_result(code: str) -> str | None:
    """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"`` (``"½-½"``, ``"0.5-0.5"`` accepted); None if bad."""
    return _RESULT_ALIASES.get(code.strip().replace(" ", ""))


def scores(result: str) -> tuple[float, float]:
    """(white score, black score) of a result code."""
    code = normalise_result(result)
    if code is None:
        raise ValueError(f"bad result code {result!r}")
    return RESULTS[code]


def player_index(period: PeriodInput) -> dict[str, PlayerInput]:
    """Players by id; a duplicate id raises EngineInputError."""
    out: dict[str, PlayerInput] = {}
    for i, player in enumerate(period.players):
        if player.id in out:
            raise EngineInputError(
                f"players[{i}]", "id", _("duplicate player id %(id)r"), {"id": player.id}
            )
        out[player.id] = player
    return out


def check_game_players(item: str, game: Game, players: Container[str]) -> None:
    """Both players of ``game`` are in ``players`` and they are not the same one; else an
    :class:`EngineInputError` about ``item``."""
    for side in ("white", "black"):
        pid = getattr(game, side)
        if pid not in players:
            raise EngineInputError(item, side, _("unknown player %(id)s"), {"id": f'"{pid}"'})
    if game.white == game.black:
        raise EngineInputError(
            item, "black", _("player %(id)s paired with himself"), {"id": f'"{game.white}"'}
        )


def validate_period(period: PeriodInput) -> dict[str, PlayerInput]:
    """Checks every regulation needs (for callers that build PeriodInput without the JSON
    reader): unique ids, non-negative ratings and counts, games naming known players, valid
    result codes, no player paired with himself. Returns the player index."""
    players = player_index(period)
    if period.end < period.start:
        raise EngineInputError("period", "end", _("ends before it starts"))
    for i, player in enumerate(period.players):
        for name in ("rating", "games", "games_last_12_months", "fide_rating"):
            value = getattr(player, name)
            if isinstance(value, int) and value < 0:
                raise EngineInputError(
                    f"players[{i}]",
                    name,
                    _("must not be negative (got %(value)s)"),
                    {"value": value},
                )
    for t, tournament in enumerate(period.tournaments):
        for g, game in enumerate(tournament.games):
            item = f"tournaments[{t}].games[{g}]"
            check_game_players(item, game, players)
            if normalise_result(game.result) is None:
                raise EngineInputError(
                    item,
                    "result",
                    _("bad result code %(result)r (use 1-0, 0-1 or 1/2-1/2)"),
                    {"result": game.result},
                )
    return players


def excluded(tournament: TournamentInput, game: Game, decision: Decision) -> Excluded:
    return Excluded(
        tournament=tournament.id,
        white=game.white,
        black=game.black,
        round=game.round,
        code=decision.code,
        reason=decision.message,
        article=decision.article,
    )


def excluded_all(tournament: TournamentInput, decision: Decision) -> list[Excluded]:
    """Every game of ``tournament`` left out for ``decision`` (the whole event is not rated)."""
    return [excluded(tournament, g, decision) for g in tournament.games]


def unplayed_decision(game: Game, article: str) -> Decision | None:
    """A Decision if the game was not played over the board (forfeit or unplayed)."""
    if game.forfeit:
        return Decision("forfeit", article, _("not played (forfeit)"))
    if not game.played:
        return Decision("not_played", article, _("not played"))
    return None


def decided_match_games(tournament: TournamentInput) -> set[int]:
    """Indices (in ``tournament.games``) of the games of a fixed-length match played after one
    player had already won it (more than half of ``match_length`` points). Games are taken in
    round order (input order within a round); every result, forfeits included, counts toward
    deciding the match. Empty if the match has no fixed length."""
    length = tournament.match_length
    if not length:
        return set()
    order = sorted(range(len(tournament.games)), key=lambda i: (tournament.games[i].round, i))
    points: dict[str, float] = {}
    decided = False
    late: set[int] = set()
    for i in order:
        game = tournament.games[i]
        if decided:
            late.add(i)
            continue
        white, black = scores(game.result)
        points[game.white] = points.get(game.white, 0.0) + white
        points[game.black] = points.get(game.black, 0.0) + black
        if max(points.values()) > length / 2:
            decided = True
    return late


def cap_difference(diff: float, cap: float) -> float:
    """A difference over ``cap`` counts as ``cap`` (either sign)."""
    return max(-cap, min(cap, diff))


def capped_average(own: float, opponents: Sequence[float], cap: float | None) -> float:
    """Average opponent rating with each opponent first brought within ``cap`` of ``own``."""
    if not opponents:
        raise ValueError("no opponents to average")
    if cap is None:
        return sum(opponents) / len(opponents)
    return sum(own + cap_difference(r - own, cap) for r in opponents) / len(opponents)


def add_months(d: date, months: int) -> date:
    """Calendar month arithmetic, clamping the day (31 Mar - 1 month = 28/29 Feb)."""
    index = d.year * 12 + (d.month - 1) + months
    year, month = divmod(index, 12)
    day = min(d.day, calendar.monthrange(year, month + 1)[1])
    return date(year, month + 1, day)


def window_start(end: date, months: int) -> date:
    """First day of a window of ``months`` months ending on ``end`` (inclusive)."""
    return date.fromordinal(add_months(end, -months).toordinal() + 1)


def one_year_before(d: date) -> date:
    """The same date a year earlier (29 Feb -> 28 Feb)."""
    return add_months(d, -12)


@dataclass(frozen=True, slots=True)
class PooledResults:
    kept: tuple[PriorResult, ...]
    too_old: tuple[PriorResult, ...]
    forfeits: tuple[PriorResult, ...]


def pool_prior_results(results: Iterable[PriorResult], since: date | None) -> PooledResults:
    """Split pooled results of an unrated player: forfeits never count, results of
    tournaments ending before ``since`` are too old; results without a date are kept."""
    kept: list[PriorResult] = []
    old: list[PriorResult] = []
    forfeits: list[PriorResult] = []
    for result in results:
        if result.forfeit:
            forfeits.append(result)
        elif since is not None and result.end_date is not None and result.end_date < since:
            old.append(result)
        else:
            kept.append(result)
    return PooledResults(tuple(kept), tuple(old), tuple(forfeits))


def until_end_of_year_of_age(birth_date: date | None, age: int, on: date) -> bool:
    """True if ``on`` is not later than the end of the year in which the player turns ``age``."""
    return birth_date is not None and on.year <= birth_date.year + age


def sorted_tournaments(period: PeriodInput) -> list[tuple[int, TournamentInput]]:
    """(input index, tournament) by end date (undated last), then input order."""
    return sorted(
        enumerate(period.tournaments),
        key=lambda it: (it[1].end_date is None, it[1].end_date or date.max, it[0]),
    )
