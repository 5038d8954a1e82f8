"""What a regulation reads from each competition beyond its games (rating_engine's
``InputFacts``): the team substitutions (``TournamentInput.substitutions``, cnxc-2000 7.2)
and the winner after tie-breaks of a competition valid for norms (``TournamentInput.winner``,
cnxc-2000 7.1), from the tournaments' records (tournaments.models.Substitution,
``Tournament.norm_winner_rank``). Two queries for the whole period."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from rating_engine import types as et
from rating_engine.registry import get_regulation
from ratings.calculation.states import player_key
from tournaments.models import Substitution, TournamentPlayer


def _chains(rows: list[Substitution]) -> list[list[tuple[int, bool]]]:
    """The substitutions of one side of one round as chains of (start rank, moved), each
    starting with the player who held the game in the report (7.2 c: a substitute replaced in
    turn is the replaced player of the next link; he made a move if either record says so)."""
    by_replaced = {r.replaced_rank: r for r in rows}
    substitutes = {r.substitute_rank for r in rows}
    chains: list[list[tuple[int, bool]]] = []
    for root in rows:
        if root.replaced_rank in substitutes:
            continue
        chain = [(root.replaced_rank, root.replaced_moved)]
        link: Substitution | None = root
        seen = {root.replaced_rank}
        while link is not None and link.substitute_rank not in seen:
            seen.add(link.substitute_rank)
            after = by_replaced.get(link.substitute_rank)
            moved = link.substitute_moved or (after is not None and after.replaced_moved)
            chain.append((link.substitute_rank, moved))
            link = after
        chains.append(chain)
    return chains


def competition_inputs_add(
    *,
    ruleset: str,
    tournaments: dict[int, Any],
    period_tournaments: tuple[et.TournamentInput, ...],
    players: list[et.PlayerInput],
) -> tuple[tuple[et.TournamentInput, ...], list[et.PlayerInput]]:
    """The competitions with their substitutions and winners when the regulation reads them,
    and the players (a substitute outside the registry and without games of his own is added
    unrated)."""
    facts = get_regulation(ruleset).inputs
    if not (facts.substitutions or facts.norm_winner):
        return period_tournaments, players
    rows: dict[int, dict[tuple[int, str], list[Substitution]]] = defaultdict(
        lambda: defaultdict(list)
    )
    if facts.substitutions:
        for s in Substitution.objects.filter(tournament_id__in=list(tournaments)).order_by(
            "date", "id"
        ):
            rows[s.tournament_id][s.round, s.side].append(s)
    winners = (
        {pk: t.norm_winner_rank for pk, t in tournaments.items() if t.norm_winner_rank}
        if facts.norm_winner
        else {}
    )
    needed = set(rows) | set(winners)
    if not needed:
        return period_tournaments, players
    keys = {
        (t_id, rank): player_key(tp_id=tp_id, player_id=pid)
        for t_id, rank, tp_id, pid in TournamentPlayer.objects.filter(
            tournament_id__in=needed
        ).values_list("tournament_id", "start_rank", "id", "player_id")
    }
    known = {p.id for p in players}
    extra: list[et.PlayerInput] = []
    out: list[et.TournamentInput] = []
    for t in period_tournaments:
        t_id = int(t.id)
        subs: list[et.Substitution] = []
        for (rnd, side), group in sorted(rows.get(t_id, {}).items()):
            for chain in _chains(group):
                ids = [keys.get((t_id, rank), f"rank{rank}") for rank, _moved in chain]
                game = next(
                    (
                        g
                        for g in t.games
                        if g.round == rnd and (g.white if side == "white" else g.black) == ids[0]
                    ),
                    None,
                )
                # No such game in the current report: the engine names the substitution.
                white, black = (
                    (game.white, game.black)
                    if game is not None
                    else ((ids[0], "") if side == "white" else ("", ids[0]))
                )
                for pid in ids:
                    if pid not in known and pid in keys.values():
                        known.add(pid)
                        extra.append(et.PlayerInput(id=pid, rating=None))
                subs.append(
                    et.Substitution(
                        white=white,
                        black=black,
                        side=side,
                        round=rnd,
                        players=tuple(
                            et.SubstitutionLink(id=pid, moved=moved)
                            for pid, (_rank, moved) in zip(ids, chain, strict=True)
                        ),
                    )
                )
        winner_rank = winners.get(t_id)
        winner = keys.get((t_id, winner_rank)) if winner_rank else None
        out.append(replace(t, substitutions=tuple(subs), winner=winner))
    return tuple(out), players + extra
