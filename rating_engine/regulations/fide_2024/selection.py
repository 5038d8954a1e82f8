"""fide-2024: which games count for whom (5.1, 8.2.4, 8.3.1) and each player's side of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ... import types
from ...common import decided_match_games, excluded, scores, unplayed_decision
from ...types import Decision, PlayerInput, TournamentInput
from .maths import _

# --------------------------------------------------------------------------- game selection


@dataclass(frozen=True, slots=True)
class _Counted:
    tournament: TournamentInput
    game: types.Game
    white_counts: bool  # rated for white (black is a rated opponent for him)
    black_counts: bool
    white_hidden: bool  # 8.2.4: white counts as unrated for his opponents here
    black_hidden: bool


@dataclass(frozen=True, slots=True)
class _Selection:
    counted: tuple[_Counted, ...]
    excluded: tuple[types.Excluded, ...]


def match_with_unrated(art: str) -> Decision:
    """6.1: individual matches with an unrated player are not rated."""
    return Decision(
        "match_with_unrated", f"{art} 6.1", _("individual match with an unrated player")
    )


def no_rated_player(art: str) -> Decision:
    """8.3.1 / 8.2.2: games count only against rated opponents."""
    return Decision("no_rated_player", f"{art} 8.3.1", _("neither player is rated (for the other)"))


def _hidden(player: PlayerInput, tournament: TournamentInput) -> bool:
    """8.2.4: a player whose first rating was published after this tournament ended is rated
    in it as a rated player but counts as unrated for his opponents.
    DECISION: "before the tournament is rated" = the tournament ended before the first list
    carrying his rating (``rated_since``)."""
    return (
        player.rating is not None
        and player.rated_since is not None
        and tournament.end_date is not None
        and tournament.end_date < player.rated_since
    )


def _select(period: types.PeriodInput, players: Mapping[str, PlayerInput], art: str) -> _Selection:
    counted: list[_Counted] = []
    out: list[types.Excluded] = []
    for tournament in period.tournaments:
        late = decided_match_games(tournament) if tournament.system == "match" else set()
        for index, game in enumerate(tournament.games):
            w, b = players[game.white], players[game.black]
            reason = unplayed_decision(game, f"{art} 5.1")  # 5.1: unplayed games not rated
            if (
                reason is None
                and tournament.system == "match"
                and (w.rating is None or b.rating is None)
            ):
                # 6.1: individual matches with an unrated player are not rated.
                reason = match_with_unrated(art)
            if reason is None and index in late:
                # 6.2: games after a fixed-length match is decided are not rated.
                reason = Decision(
                    "match_decided",
                    f"{art} 6.2",
                    _("played after the match of %(length)s games was decided"),
                    {"length": tournament.match_length},
                )
            w_hidden, b_hidden = _hidden(w, tournament), _hidden(b, tournament)
            w_visible = w.rating is not None and not w_hidden
            b_visible = b.rating is not None and not b_hidden
            if reason is None and not (w_visible or b_visible):
                # 8.3.1 / 8.2.2: games count only against rated opponents.
                reason = no_rated_player(art)
            if reason is not None:
                out.append(excluded(tournament, game, reason))
                continue
            counted.append(_Counted(tournament, game, b_visible, w_visible, w_hidden, b_hidden))
    return _Selection(tuple(counted), tuple(out))


@dataclass(frozen=True, slots=True)
class _Side:
    """One counted game from one player's side."""

    tournament: TournamentInput
    opponent: PlayerInput
    score: float
    counts: bool  # against a rated opponent (counts for his rating)
    hidden: bool  # he counted as unrated for this opponent (8.2.4)


def _sides(
    selection: _Selection, players: Mapping[str, PlayerInput], *, unrated_only: bool = False
) -> dict[str, list[_Side]]:
    """Each player's counted games from his side (``unrated_only``: only players without a
    rating get an entry, for a first-ratings-only pass)."""
    out: dict[str, list[_Side]] = {}
    for c in selection.counted:
        ws, bs = scores(c.game.result)
        w, b = players[c.game.white], players[c.game.black]
        if not unrated_only or w.rating is None:
            out.setdefault(w.id, []).append(
                _Side(c.tournament, b, ws, c.white_counts, c.white_hidden)
            )
        if not unrated_only or b.rating is None:
            out.setdefault(b.id, []).append(
                _Side(c.tournament, w, bs, c.black_counts, c.black_hidden)
            )
    return out
