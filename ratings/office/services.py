"""Writes of the rating officer's own pages: a game's result corrected, recorded in the audit
trail (pghistory, with who and why) and the period marked for recalculation."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Refused
from core.history import history_context
from core.tasks import task_enqueue_or_leave_on_commit
from periods.models import PeriodStatus, RatingPeriod
from periods.services import period_mark_for_recalculation
from tournaments.models import Game, GameKind, GameResult

_ONE, _HALF, _ZERO = Decimal("1"), Decimal("0.5"), Decimal("0")

#: The results an officer may set on a game between two players: kind and points.
CORRECTABLE: dict[str, tuple[str, Decimal, Decimal]] = {
    GameResult.WHITE_WINS: (GameKind.PLAYED, _ONE, _ZERO),
    GameResult.BLACK_WINS: (GameKind.PLAYED, _ZERO, _ONE),
    GameResult.DRAW: (GameKind.PLAYED, _HALF, _HALF),
    GameResult.WHITE_FORFEIT_WIN: (GameKind.FORFEIT, _ONE, _ZERO),
    GameResult.BLACK_FORFEIT_WIN: (GameKind.FORFEIT, _ZERO, _ONE),
    GameResult.DOUBLE_FORFEIT: (GameKind.FORFEIT, _ZERO, _ZERO),
}


def game_correct(*, game: Game, result: str, reason: str, user: Any) -> Game:
    """Set a game's result (and its kind and points). The update is recorded by the game's
    history tracker with the officer and the reason; a period already calculated or published
    is marked for recalculation (and every later rated one: `period_mark_for_recalculation`),
    so the next calculation takes the corrected game."""
    tournament = game.tournament
    period = tournament.period
    if not user.has_perm("periods.manage_period", period):
        raise PermissionDenied(_("Only a rating officer can correct a game."))
    if game.black_id is None:
        raise Refused(_("A bye has no result to correct."))
    if result not in CORRECTABLE:
        raise Refused(_("Choose one of the results offered."))
    if not reason.strip():
        raise Refused(_("Say why the result is corrected: it is kept in the history."))
    if result == game.result:
        raise Refused(_("The game already has this result."))
    kind, white, black = CORRECTABLE[result]
    with transaction.atomic(), history_context(user=user.pk, reason=reason.strip()):
        Game.objects.filter(pk=game.pk).update(
            result=result, kind=kind, white_score=white, black_score=black
        )
        if period is not None:
            period_recalculation_mark(period=period)
            task_enqueue_or_leave_on_commit(
                "ratings.update_live_ratings", tournament.pk, watchdog="ratings.watch_live_ratings"
            )
    game.refresh_from_db()
    return game


def period_recalculation_mark(*, period: RatingPeriod) -> None:
    """A game of the period changed: a period with a draft or a list needs a new calculation
    (and the later rated ones, which start from its list); an open or closed one is calculated
    from the games as they are anyway."""
    if period.status in (PeriodStatus.CALCULATED, PeriodStatus.PUBLISHED):
        period_mark_for_recalculation(period=period)
    elif period.runs.exists():
        RatingPeriod.objects.filter(pk=period.pk).update(needs_recalculation=True)
