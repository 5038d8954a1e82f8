"""Team substitutions and the norm winner of a tournament (read by the regulations that say
so: ``InputFacts.substitutions`` and ``InputFacts.norm_winner`` of rating_engine.registry;
cnxc-2000 7.2 and 7.1). Recorded by the tournament's arbiter until its report is validated,
by officers always (``tournaments.record_substitutions``); a change to a rated tournament
marks its period for recalculation, as a corrected report does. docs/arbiters.md."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Refused
from periods.services import period_mark_for_recalculation
from rating_engine.registry import get_regulation
from tournaments.kinds import tournament_ruleset_in_force
from tournaments.models import (
    Substitution,
    SubstitutionSide,
    Tournament,
    TournamentPlayer,
    TournamentStatus,
)
from tournaments.substitution_selectors import games_held

RECORD = "tournaments.record_substitutions"
_RATED = (TournamentStatus.RATED, TournamentStatus.PUBLISHED)


def _authorize(*, tournament: Tournament, user: Any) -> None:
    if not user.has_perm(RECORD, tournament):
        raise PermissionDenied(
            _(
                "Only the tournament's arbiter, until its report is validated, or a rating "
                "officer can change its substitutions and winner."
            )
        )


def _changed(*, tournament: Tournament) -> None:
    """A rated tournament changed: its period and the later ones are calculated again."""
    if tournament.status in _RATED and tournament.period is not None:
        period_mark_for_recalculation(period=tournament.period)


@transaction.atomic
def substitution_create(
    *,
    tournament: Tournament,
    user: Any,
    round: int,
    side: str,
    replaced_rank: int,
    substitute_rank: int,
    date: dt.date,
    replaced_moved: bool = True,
    substitute_moved: bool = True,
    board: int | None = None,
) -> Substitution:
    """Record that ``substitute_rank`` took over from ``replaced_rank`` the game the latter
    held with ``side`` in ``round``: a game of the report, or the same game when the player
    replaced was himself a substitute there (cnxc-2000 7.2 c)."""
    _authorize(tournament=tournament, user=user)
    if not get_regulation(tournament_ruleset_in_force(tournament=tournament)).inputs.substitutions:
        raise Refused(_("The regulation of this tournament has no team substitutions."))
    if side not in SubstitutionSide.values:
        raise Refused(_("The side is white or black."))
    if replaced_rank == substitute_rank:
        raise Refused(_("A player cannot replace himself."))
    ranks = set(
        TournamentPlayer.objects.filter(
            tournament=tournament, start_rank__in=[replaced_rank, substitute_rank]
        ).values_list("start_rank", flat=True)
    )
    for rank in (replaced_rank, substitute_rank):
        if rank not in ranks:
            raise Refused(_("No player has start rank %(rank)s in the report.") % {"rank": rank})
    # The tournament's games, or before its report is validated the report's (its arbiter
    # records the substitutions then: the games are written at validation).
    holds_game = (round, side, replaced_rank) in games_held(tournament=tournament)
    took_over = Substitution.objects.filter(
        tournament=tournament, round=round, side=side, substitute_rank=replaced_rank
    ).exists()
    if not (holds_game or took_over):
        raise Refused(
            _(
                "Player %(rank)s holds no game with this colour in round %(round)s, as player "
                "or as a substitute."
            )
            % {"rank": replaced_rank, "round": round}
        )
    if Substitution.objects.filter(
        tournament=tournament, round=round, side=side, replaced_rank=replaced_rank
    ).exists():
        raise Refused(_("This player's game of that round is already handed over."))
    substitution = Substitution.objects.create(
        tournament=tournament,
        round=round,
        board=board,
        side=side,
        replaced_rank=replaced_rank,
        replaced_moved=replaced_moved,
        substitute_rank=substitute_rank,
        substitute_moved=substitute_moved,
        date=date,
        recorded_by=user,
    )
    _changed(tournament=tournament)
    return substitution


@transaction.atomic
def substitution_delete(*, substitution: Substitution, user: Any) -> None:
    tournament = substitution.tournament
    _authorize(tournament=tournament, user=user)
    substitution.delete()
    _changed(tournament=tournament)


@transaction.atomic
def tournament_winner_set(*, tournament: Tournament, user: Any, rank: int | None) -> Tournament:
    """The winner after tie-breaks of a competition valid for norms (cnxc-2000 7.1), by start
    rank; None: the sole top scorer."""
    _authorize(tournament=tournament, user=user)
    if not get_regulation(tournament_ruleset_in_force(tournament=tournament)).inputs.norm_winner:
        raise Refused(_("The regulation of this tournament names no norm winner."))
    if rank is not None:
        if not tournament.norm_event:
            raise Refused(_("Only a competition valid for norms has a winner to name."))
        if not TournamentPlayer.objects.filter(tournament=tournament, start_rank=rank).exists():
            raise Refused(_("No player has start rank %(rank)s in the report.") % {"rank": rank})
    tournament.norm_winner_rank = rank
    tournament.save(update_fields=["norm_winner_rank"])
    _changed(tournament=tournament)
    return tournament
