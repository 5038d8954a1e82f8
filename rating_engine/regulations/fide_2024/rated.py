"""fide-2024: a rated player's result and its notes (8.3, 7.2.1, 7.2.2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, Unpack

from ...bulk import K_RULE_UNDER_30_GAMES
from ...types import Decision, PlayerInput, PlayerResult
from .. import base
from .maths import _K_ARTICLE, _K_WHY, _
from .parameters import Fide2024Parameters


class _RatedFacts(TypedDict):
    """What a rated player's period decided, as :meth:`Fide2024.rated_notes` words it."""

    k: int
    rule: int
    reduced: bool
    n: int
    out_of_list: bool
    inactive: bool
    reactivated: bool
    hidden_in: Sequence[str]
    floor: int


class RatedResults(base.Regulation[Fide2024Parameters]):
    """A rated player's period result and the notes that explain it."""

    def rated_notes(
        self,
        player: PlayerInput,
        *,
        k: int,
        rule: int,
        reduced: bool,
        n: int,
        rating_after: int,
        out_of_list: bool,
        inactive: bool,
        reactivated: bool,
        hidden_in: Sequence[str],
        floor: int,
    ) -> tuple[Decision, ...]:
        """The notes that explain a rated player's result (K lowered by the 700 rule, a game
        not counted for his opponents under 8.2.4, below the floor, inactive, active again),
        in this order; the database's bulk path words its rows with them too."""
        art = self.id
        notes: list[Decision] = []
        if reduced:
            notes.append(
                Decision(
                    "k_700",
                    f"{art} 8.3.3",
                    _("K lowered to %(k)s: %(games)s games x K may not exceed 700"),
                    {"k": k, "games": n},
                )
            )
        for tournament in hidden_in:
            notes.append(
                Decision(
                    "rated_after_first_list",
                    f"{art} 8.2.4",
                    _("%(tournament)s: rated with his rating, unrated for his opponents"),
                    {"tournament": tournament},
                )
            )
        if out_of_list:
            notes.append(
                Decision(
                    "below_floor",
                    f"{art} 7.2.1",
                    _("rating %(rating)s below %(floor)s: listed as unrated from now on"),
                    {"rating": rating_after, "floor": floor},
                )
            )
        if inactive:
            last = player.last_game_date.isoformat() if player.last_game_date else "-"
            notes.append(
                # An inactive player without a game in the period stays inactive whenever his
                # last game was; a rated one becomes inactive a year after his last game.
                Decision(
                    "inactive",
                    f"{art} 7.2.2",
                    _("still inactive: no rated game in this period (last: %(last)s)"),
                    {"last": last},
                )
                if player.status == "inactive"
                else Decision(
                    "inactive",
                    f"{art} 7.2.2",
                    _("no rated game in one year (last: %(last)s): inactive"),
                    {"last": last},
                )
            )
        if reactivated:
            notes.append(
                Decision("reactivated", f"{art} 7.2.2", _("rated game played: active again"))
            )
        return tuple(notes)

    def _rated_result(
        self,
        player: PlayerInput,
        *,
        score2: int,
        expected_milli_sum: int,
        change: int,
        **facts: Unpack[_RatedFacts],
    ) -> PlayerResult:
        assert player.rating is not None
        rating_after = player.rating + change
        k, rule, n = facts["k"], facts["rule"], facts["n"]
        out_of_list = facts["out_of_list"]
        status = "out_of_list" if out_of_list else "inactive" if facts["inactive"] else "rated"
        return PlayerResult(
            id=player.id,
            rating_before=player.rating,
            rating_after=None if out_of_list else rating_after,
            change=change,
            k=k,
            k_article=f"{self.id} {_K_ARTICLE[rule]}",
            games=n,
            score=score2 / 2,
            expected=expected_milli_sum / 1000,
            status=status,
            notes=(
                Decision(
                    "k",
                    f"{self.id} {_K_ARTICLE[rule]}",
                    _K_WHY[rule],
                    {"games": player.games} if rule == K_RULE_UNDER_30_GAMES else {},
                ),
                *self.rated_notes(player, rating_after=rating_after, **facts),
            ),
        )
