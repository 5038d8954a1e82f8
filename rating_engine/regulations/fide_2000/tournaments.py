"""One tournament: which games count (5.1, 6.5) and who plays (6.1, 6.3x, 6.4x), then the
rated change (``rated_change``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...common import _, decided_match_games, excluded, scores, unplayed_decision
from ...types import Decision, Game, PlayerInput, TournamentInput
from ..base import ParamsT
from .rated_change import RatedChange
from .state import _ROUND_ROBINS, _Event, _State


class TournamentRules(RatedChange[ParamsT]):
    """A tournament's games and composition checked before they are rated (5.x, 6.x)."""

    # ------------------------------------------------------------------ one tournament

    def _tournament(self, t: TournamentInput, order: int, state: _State) -> None:
        players, rated, unrated = state.players, state.rated, state.unrated
        notes, out = state.notes, state.out
        # feda-1996 8.11: from the list in force on the start date when the input carries it.
        opp_value = self.opponent_values(t, players)

        def drop(game: Game, code: str, key: str, template: str, **params: object) -> None:
            out.append(excluded(t, game, Decision(code, self.art(key), template, params)))

        # 5.1: unplayed games (forfeits or any other reason) are not rated.
        played: list[Game] = []
        unplayed_any = False
        late = decided_match_games(t) if t.system == "match" and self.MATCH_RULE else set()
        for i, game in enumerate(t.games):
            decision = unplayed_decision(game, self.art("forfeit"))
            if decision is not None:
                unplayed_any = True
                out.append(excluded(t, game, decision))
            elif i in late:
                # 6.5: games of a fixed-length match played after it was decided.
                drop(game, "match_decided", "match", _("played after the match was decided"))
            else:
                played.append(game)
        event = _Event(t, order, opp_value, tuple(played), unplayed_any)

        # 6.1: an unrated player scoring 0 (or 1/2) - his games are discarded for both sides.
        totals: dict[str, float] = {}
        for game in played:
            ws, bs = scores(game.result)
            totals[game.white] = totals.get(game.white, 0.0) + ws
            totals[game.black] = totals.get(game.black, 0.0) + bs
        discarded = {
            pid
            for pid, total in totals.items()
            if opp_value[pid] is None
            and self.own_rating(players[pid]) is None
            and total <= self.DISCARD_MAX
        }
        for pid in sorted(discarded):
            notes[pid].append(
                Decision(
                    "unrated_low_score",
                    self.art("discard"),
                    _("unrated with %(score)s points in %(tournament)s: results discarded"),
                    {"score": totals[pid], "tournament": t.id},
                )
            )
        kept: list[Game] = []
        for game in played:
            gone = game.white if game.white in discarded else game.black
            if gone in discarded:
                drop(
                    game,
                    "unrated_low_score",
                    "discard",
                    _("%(player)s is unrated and scored %(score)s: discarded"),
                    player=gone,
                    score=totals[gone],
                )
            else:
                kept.append(game)

        round_robin = t.system in _ROUND_ROBINS
        cycles = 0
        entrants = sorted({pid for g in kept for pid in (g.white, g.black)})
        if round_robin and kept:
            # 6.43: a round robin with unplayed games is rated as a Swiss.
            pairs: dict[frozenset[str], int] = {}
            for game in kept:
                key = frozenset((game.white, game.black))
                pairs[key] = pairs.get(key, 0) + 1
            counts = set(pairs.values())
            n = len(entrants)
            complete = len(pairs) == n * (n - 1) // 2 and len(counts) == 1
            if unplayed_any or not complete:
                round_robin = False
                for pid in entrants:
                    if pid in rated or pid in unrated:
                        notes[pid].append(
                            Decision(
                                "round_robin_as_swiss",
                                self.art("rr_as_swiss"),
                                _(
                                    "%(tournament)s: round robin with unplayed games, "
                                    "rated as a Swiss"
                                ),
                                {"tournament": t.id},
                            )
                        )
            else:
                cycles = counts.pop()

        if round_robin and kept:
            failure = self._composition(t, entrants, opp_value, players, cycles)
            if failure is not None:
                for game in kept:
                    out.append(excluded(t, game, failure))
                return
            self._round_robin(event, kept, entrants, cycles, state)
        else:
            self._swiss(event, kept, state)
        self._championship_floor(event, state)

    def _composition(
        self,
        t: TournamentInput,
        entrants: Sequence[str],
        opp_value: Mapping[str, int | None],
        players: Mapping[str, PlayerInput],
        cycles: int,
    ) -> Decision | None:
        """The reason a round robin is not rated (6.3-6.33), or None if it is."""
        n = len(entrants)
        n_rated = sum(1 for pid in entrants if opp_value[pid] is not None)
        params: dict[str, object] = {"tournament": t.id, "players": n, "rated": n_rated}
        women = all(players[pid].sex.strip().upper() in ("F", "W") for pid in entrants)
        need = self.championship_need(t, women)
        if need is not None:
            # 6.33: a national round robin championship is rated with 3 men (2 women) rated.
            if n_rated >= need:
                return None
            params["need"] = need
            return Decision(
                "composition_championship",
                self.art("championship"),
                _(
                    "%(tournament)s: championship with %(rated)s rated players "
                    "(%(need)s needed): not rated"
                ),
                params,
            )
        if 3 * n_rated < n:
            # 6.3: at least a third of the players rated.
            return Decision(
                "composition_third",
                self.art("rr_third"),
                _(
                    "%(tournament)s: %(rated)s of %(players)s players rated, under a third: "
                    "not rated"
                ),
                params,
            )
        if n < 10 and n_rated < 4:
            # 6.31: under 10 players, at least 4 rated.
            return Decision(
                "composition_small",
                self.art("rr_small"),
                _(
                    "%(tournament)s: %(players)s players with %(rated)s rated (4 needed under "
                    "10 players): not rated"
                ),
                params,
            )
        double = cycles >= 2 or t.system == "double_round_robin"
        if double and n_rated < n and (n < 6 or n_rated < 4):
            # 6.32: a double round robin with unrated players: 6 players, 4 of them rated.
            return Decision(
                "composition_double",
                self.art("rr_double"),
                _(
                    "%(tournament)s: double round robin with unrated players needs 6 players, "
                    "4 rated (%(players)s, %(rated)s): not rated"
                ),
                params,
            )
        return None
