"""cnxc-2000: team substitutions (7.2) and tournament winners (7.1)."""

from __future__ import annotations

from collections.abc import Mapping

from ... import types
from ...common import _, scores
from ...errors import EngineInputError
from ...rounding import to_milli
from ...tables import expected_milli
from ...types import PlayerInput, TournamentInput
from .parameters import ParameterChecks
from .state import _Side
from .tables import _TABLE


class Substitutions(ParameterChecks):
    """Who played each side of a substituted game (7.2) and who won a tournament (7.1)."""

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _rule(role: str, is_effective: bool) -> str:
        if role == "original":
            return "d" if is_effective else "e"
        return "f" if is_effective else "g"

    def _substituted(
        self, role: str, is_effective: bool, me: PlayerInput, opponent_rating: int, score: float
    ) -> float | None:
        """7.2 d-g: the score charged to an original or a substitute, or None."""
        if role == "original":
            if not is_effective:
                return 0.0  # e: a non-effective original is charged a loss
            assert me.rating is not None
            pd = expected_milli(me.rating - opponent_rating, _TABLE)
            return score if to_milli(score) < pd else None  # d: only if W - We < 0
        if not is_effective:
            return None  # g
        assert me.rating is not None
        pd = expected_milli(me.rating - opponent_rating, _TABLE)
        return score if to_milli(score) > pd else None  # f: only if W - We > 0

    def _substitutions(
        self, period: types.PeriodInput, raw: object
    ) -> dict[tuple[str, int, str], _Side]:
        """7.2 a-c: each substituted side as (player, role) after dropping non-movers."""
        out: dict[tuple[str, int, str], _Side] = {}
        if not isinstance(raw, list):
            return out
        known = {p.id for p in period.players}
        for i, sub in enumerate(raw):
            self._check_substitution(i, sub)
            assert isinstance(sub, Mapping)
            item = f"parameters.substitutions[{i}]"
            matches = [
                (t.id, g)
                for t in period.tournaments
                if t.id == sub["tournament"]
                for g, game in enumerate(t.games)
                if game.white == sub["white"]
                and game.black == sub["black"]
                and ("round" not in sub or game.round == sub["round"])
            ]
            if len(matches) != 1:
                raise EngineInputError(
                    item,
                    "tournament",
                    _('matches %(count)s games (exactly one needed; add "round")'),
                    {"count": len(matches)},
                )
            chain: list[tuple[str, bool]] = []
            for j, link in enumerate(sub["players"]):
                if link["id"] not in known:
                    raise EngineInputError(
                        item, f"players[{j}].id", _("unknown player %(id)r"), {"id": link["id"]}
                    )
                chain.append((str(link["id"]), bool(link["moved"])))
            # a: an original who made no move is replaced by his substitute as original.
            while len(chain) > 1 and not chain[0][1]:
                chain.pop(0)
            # b: a substitute who made no move: as if the substitution had not been made.
            chain = [chain[0]] + [link for link in chain[1:] if link[1]]
            if len(chain) == 1:
                side = _Side(((chain[0][0], "player"),))
            else:
                # c: a substitute who is substituted in turn counts as an original.
                side = _Side(
                    tuple((pid, "original") for pid, _m in chain[:-1])
                    + ((chain[-1][0], "substitute"),)
                )
            key = (matches[0][0], matches[0][1], str(sub["side"]))
            if key in out:
                raise EngineInputError(item, "side", _("this side is already substituted"))
            out[key] = side
        return out

    def _winner(self, tournament: TournamentInput, winners: Mapping[str, object]) -> str | None:
        """7.1: the winner of a norm competition (after tie-breaks)."""
        given = winners.get(tournament.id)
        if isinstance(given, str):
            return given
        points: dict[str, float] = {}
        for game in tournament.games:
            white, black = scores(game.result)
            points[game.white] = points.get(game.white, 0.0) + white
            points[game.black] = points.get(game.black, 0.0) + black
        if not points:
            return None
        top = max(points.values())
        leaders = [pid for pid, pts in points.items() if pts == top]
        if len(leaders) > 1:
            raise EngineInputError(
                "parameters",
                "winners",
                _(
                    "competition %(tournament)s is valid for norms and %(players)s tie for first: "
                    "name its winner after tie-breaks (7.1)"
                ),
                {"tournament": tournament.id, "players": ", ".join(sorted(leaders))},
            )
        return leaders[0]
