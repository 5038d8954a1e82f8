"""cnxc-2000: team substitutions (7.2) and the winner of a norm competition (7.1), both read
from the competition (``TournamentInput.substitutions``, ``TournamentInput.winner``)."""

from __future__ import annotations

from ...common import _, scores
from ...errors import EngineInputError
from ...rounding import to_milli
from ...tables import expected_milli
from ...types import Decision, PlayerInput, TournamentInput
from .parameters import ParameterChecks
from .state import _Side
from .tables import _TABLE


class Substitutions(ParameterChecks):
    """Who played each side of a substituted game (7.2) and who won a competition (7.1)."""

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _rule(role: str, is_effective: bool) -> str:
        """The letter of 7.2 that decides for an original (d, e) or a substitute (f, g); an
        original who was a substitute replaced in turn is one by c."""
        if role in ("original", "original_c"):
            letter = "d" if is_effective else "e"
            return f"c, {letter}" if role == "original_c" else letter
        return "f" if is_effective else "g"

    def _substituted(
        self, role: str, is_effective: bool, me: PlayerInput, opponent_rating: int, score: float
    ) -> float | None:
        """7.2 d-g: the score charged to an original or a substitute, or None."""
        if role in ("original", "original_c"):
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
        self,
        index: int,
        tournament: TournamentInput,
        known: set[str],
        notes: dict[str, list[Decision]],
    ) -> dict[tuple[int, str], _Side]:
        """7.2 a-c: each substituted side of the competition, ``(game index, side)`` -> its
        players with their roles, after dropping those who made no move (a, b); the players
        dropped are told why in their notes."""
        out: dict[tuple[int, str], _Side] = {}
        art = self.article
        for i, sub in enumerate(tournament.substitutions):
            item = f"tournaments[{index}].substitutions[{i}]"
            if sub.side not in ("white", "black"):
                raise EngineInputError(item, "side", _('must be "white" or "black"'))
            if len(sub.players) < 2:
                raise EngineInputError(item, "players", _("must list at least two players"))
            if sub.players[0].id != (sub.white if sub.side == "white" else sub.black):
                raise EngineInputError(
                    item, "players[0]", _("must be the game's %(side)s player"), {"side": sub.side}
                )
            matches = [
                g
                for g, game in enumerate(tournament.games)
                if game.white == sub.white
                and game.black == sub.black
                and (sub.round is None or game.round == sub.round)
            ]
            if len(matches) != 1:
                raise EngineInputError(
                    item,
                    "white",
                    _('matches %(count)s games (exactly one needed; add "round")'),
                    {"count": len(matches)},
                )
            chain: list[tuple[str, bool]] = []
            for j, link in enumerate(sub.players):
                if link.id not in known:
                    raise EngineInputError(
                        item, f"players[{j}].id", _("unknown player %(id)r"), {"id": link.id}
                    )
                chain.append((link.id, link.moved))
            game = tournament.games[matches[0]]
            where = {"tournament": tournament.id, "round": game.round}
            # a: an original who made no move is replaced by his substitute as original.
            while len(chain) > 1 and not chain[0][1]:
                pid = chain.pop(0)[0]
                notes[pid].append(
                    Decision(
                        "substitution_no_move_original",
                        art("7.2 a"),
                        _(
                            "substitution in %(tournament)s, round %(round)s: no move made "
                            "before being replaced; %(player)s counts as the original"
                        ),
                        {**where, "player": chain[0][0]},
                    )
                )
            # b: a substitute who made no move: as if the substitution had not been made.
            for pid, moved in chain[1:]:
                if not moved:
                    notes[pid].append(
                        Decision(
                            "substitution_no_move_substitute",
                            art("7.2 b"),
                            _(
                                "substitution in %(tournament)s, round %(round)s: no move made "
                                "as substitute, as if the substitution had not been made"
                            ),
                            where,
                        )
                    )
            chain = [chain[0]] + [link for link in chain[1:] if link[1]]
            if len(chain) == 1:
                side = _Side(((chain[0][0], "player"),))
            else:
                # c: a substitute who is substituted in turn counts as an original.
                side = _Side(
                    ((chain[0][0], "original"),)
                    + tuple((pid, "original_c") for pid, _m in chain[1:-1])
                    + ((chain[-1][0], "substitute"),)
                )
            key = (matches[0], sub.side)
            if key in out:
                raise EngineInputError(item, "side", _("this side is already substituted"))
            out[key] = side
        return out

    def _winner(self, index: int, tournament: TournamentInput) -> str | None:
        """7.1: the winner of a norm competition after tie-breaks: the competition's
        ``winner``, else the sole top scorer."""
        points: dict[str, float] = {}
        for game in tournament.games:
            white, black = scores(game.result)
            points[game.white] = points.get(game.white, 0.0) + white
            points[game.black] = points.get(game.black, 0.0) + black
        if tournament.winner is not None:
            if tournament.winner not in points:
                raise EngineInputError(
                    f"tournaments[{index}]",
                    "winner",
                    _("%(player)s plays no game of this competition"),
                    {"player": tournament.winner},
                )
            return tournament.winner
        if not points:
            return None
        top = max(points.values())
        leaders = [pid for pid, pts in points.items() if pts == top]
        if len(leaders) > 1:
            raise EngineInputError(
                f"tournaments[{index}]",
                "winner",
                _(
                    "competition %(tournament)s is valid for norms and %(players)s tie for first: "
                    "name its winner after tie-breaks (7.1)"
                ),
                {"tournament": tournament.id, "players": ", ".join(sorted(leaders))},
            )
        return leaders[0]
