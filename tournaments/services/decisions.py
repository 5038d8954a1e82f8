"""The rating officer's decisions on a tournament (docs/arbiters.md, "The officer's
decisions"): each with a written reason and the article of the tournament's regulation that
provides for it (facts.decisions; refused where the text does not), kept in the tournament's
history (TournamentDecision, tracked), shown on its page and the officer's desk, and e-mailed to
the tournament's arbiter through the outbox. What each one does to the validation:
tournaments/services/decision_effects.py.

- return a defective report for correction: the corrected report comes back within the
  regulation's days (feda-1996 10.13, fide-2000 11.1 → B.01 7.13: four weeks), or the nightly
  ``corrections_lapse`` counts the event as not reported;
- reject a registration (fide-2024 0.2);
- refuse to rate (fide-2024 0.4), with the organiser's appeal within seven days of the decision
  and the officer's decision on it;
- rate despite a blocking check (fce 2.2);
- authorise a long event (feda-1996 5.11);
- exclude a game under the fair-play rules (fide-2024 5.1);
- exempt a justified withdrawal (cnxc-2000 3.2).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from core.errors import Refused
from core.mail import mail_enqueue
from periods.services import period_mark_for_recalculation
from tournaments import selectors
from tournaments.decision_selectors import (
    DECISION_CODES,
    corrections_lapsing,
    decisions_offered,
)
from tournaments.models import (
    DecisionKind,
    DecisionState,
    Game,
    GameKind,
    Tournament,
    TournamentDecision,
)

from .access import LOCKED
from .validation import tournament_revalidate

#: The outbox's kind of the messages (core.mail).
MAIL_KIND = "tournaments.decision"


def _offered(tournament: Tournament, kind: str) -> tuple[str, int | None]:
    """The article (and days) of ``kind`` in the tournament's regulation; refused elsewhere."""
    offered = decisions_offered(tournament=tournament).get(kind)
    if offered is None:
        raise Refused(
            _("The regulation of this tournament's rating system does not provide for this.")
        )
    return offered.article, offered.days


def _officer(user: Any, tournament: Tournament) -> None:
    if not user.has_perm("tournaments.decide_tournament", tournament):
        raise PermissionDenied(_("Only a rating officer decides on a tournament."))


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise Refused(_("Write the reason for the decision."))
    return reason


def _tell(decision: TournamentDecision, subject: str) -> None:
    """E-mail the tournament's arbiter (the organiser's address comes with the registry of
    organisers) through the outbox, never in the request."""
    arbiter = decision.tournament.arbiter
    if not arbiter.email:
        return
    with override(getattr(arbiter, "language", None) or None):
        lines = [
            str(decision.tournament),
            f"{decision.get_kind_display()} ({decision.article})",
            f"{_('State')}: {decision.get_state_display()}",
            f"{_('Reason')}: {decision.reason}",
        ]
        if decision.deadline is not None:
            lines.append(f"{_('Deadline')}: {formats.date_format(decision.deadline)}")
        if decision.resolution:
            lines.append(f"{_('Decision on the appeal')}: {decision.resolution}")
        mail_enqueue(kind=MAIL_KIND, subject=subject, body="\n".join(lines), to=[arbiter.email])


def _recalculate_if_rated(tournament: Tournament) -> None:
    """A decision that changes what a rated tournament counts marks its period for
    recalculation, as a corrected report does."""
    if tournament.status in LOCKED and tournament.period is not None:
        period_mark_for_recalculation(period=tournament.period)


def _record(
    *,
    tournament: Tournament,
    officer: Any,
    kind: str,
    reason: str,
    now: dt.datetime | None = None,
    deadline_days: bool = False,
    **fields: Any,
) -> TournamentDecision:
    _officer(officer, tournament)
    article, days = _offered(tournament, kind)
    now = now or timezone.now()
    deadline = None
    if deadline_days and days is not None:
        # "dentro de las cuatro semanas siguientes a la fecha de devolución" (feda-1996 10.13),
        # "dentro de los siete días siguientes a que le sea comunicada" (fide-2024 0.4): the
        # days after the decision's date, the last one included.
        deadline = timezone.localdate(now) + dt.timedelta(days=days)
    with transaction.atomic():
        decision = TournamentDecision.objects.create(
            tournament=tournament,
            kind=kind,
            reason=_reason(reason),
            article=article,
            decided_by=officer,
            decided_at=now,
            deadline=deadline,
            **fields,
        )
        tournament_revalidate(tournament=tournament)
        _recalculate_if_rated(tournament)
        _tell(decision, _("A rating officer's decision on %(t)s") % {"t": tournament})
    return decision


def tournament_return_for_correction(
    *, tournament: Tournament, officer: Any, reason: str, now: dt.datetime | None = None
) -> TournamentDecision:
    """Return the current report for correction (feda-1996 10.13; fide-2000 11.1 → B.01 7.13):
    it is not rated until a corrected report arrives by the deadline (four weeks)."""
    if selectors.report_current(tournament=tournament) is None:
        raise Refused(_("There is no report to return."))
    if tournament.status in LOCKED:
        raise Refused(_("A rated tournament is corrected by a new report, not returned."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.RETURN_FOR_CORRECTION,
        reason=reason,
        now=now,
        deadline_days=True,
    )


def tournament_reject_registration(
    *, tournament: Tournament, officer: Any, reason: str
) -> TournamentDecision:
    """Reject the tournament's registration (fide-2024 0.2): it is not rated."""
    if tournament.status in LOCKED:
        raise Refused(_("This tournament is already rated."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.REJECT_REGISTRATION,
        reason=reason,
    )


def tournament_refuse_rating(
    *, tournament: Tournament, officer: Any, reason: str, now: dt.datetime | None = None
) -> TournamentDecision:
    """Refuse to rate the tournament (fide-2024 0.4); its organiser may appeal within seven
    days of the decision (the deadline)."""
    if tournament.status in LOCKED:
        raise Refused(_("This tournament is already rated."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.REFUSE_RATING,
        reason=reason,
        now=now,
        deadline_days=True,
    )


def tournament_override_check(
    *, tournament: Tournament, officer: Any, reason: str, check_code: str
) -> TournamentDecision:
    """Rate the tournament although a check blocks it (fce 2.2): the check's errors stay on
    the report as warnings marked overridden, with who and why."""
    report = selectors.report_current(tournament=tournament)
    codes = {
        p["code"]
        for p in (report.problems if report is not None else [])
        if p.get("severity") == "error"
    }
    if check_code in DECISION_CODES or check_code not in codes:
        raise Refused(_("No blocking check of the current report has that code."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.OVERRIDE_CHECK,
        reason=reason,
        check_code=check_code,
    )


def tournament_authorise_long_event(
    *, tournament: Tournament, officer: Any, reason: str
) -> TournamentDecision:
    """Authorise an event longer than the regulation's days (feda-1996 5.11): the duration
    check reads it (TournamentFacts.long_event_authorised)."""
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.AUTHORISE_LONG_EVENT,
        reason=reason,
    )


def tournament_exclude_game(
    *, tournament: Tournament, officer: Any, reason: str, game: Game
) -> TournamentDecision:
    """Leave a played game out of the calculation under the fair-play rules (fide-2024 5.1):
    the game stays, marked excluded with the article; the player's calculation page says so."""
    if game.tournament_id != tournament.pk or game.kind != GameKind.PLAYED or game.black is None:
        raise Refused(_("Pick a played game of this tournament."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.EXCLUDE_GAME,
        reason=reason,
        game_round=game.round,
        white_rank=game.white.start_rank,
        black_rank=game.black.start_rank,
    )


def tournament_exempt_withdrawal(
    *, tournament: Tournament, officer: Any, reason: str, start_rank: int
) -> TournamentDecision:
    """Exempt a withdrawal justified by exceptionally serious reasons (cnxc-2000 3.2): the
    games the player lost are left out, for him and his opponents."""
    if not tournament.players.filter(start_rank=start_rank).exists():
        raise Refused(_("No player of this tournament has that start rank."))
    return _record(
        tournament=tournament,
        officer=officer,
        kind=DecisionKind.EXEMPT_WITHDRAWAL,
        reason=reason,
        player_rank=start_rank,
    )


def decision_appeal(
    *, decision: TournamentDecision, user: Any, grounds: str, now: dt.datetime | None = None
) -> TournamentDecision:
    """The organiser's appeal against a refusal to rate (fide-2024 0.4), lodged by the
    tournament's arbiter (or an officer) within seven days of the decision."""
    tournament = decision.tournament
    if not user.has_perm("tournaments.appeal_decision", tournament):
        raise PermissionDenied(_("Only the tournament's arbiter can appeal."))
    now = now or timezone.now()
    if decision.kind != DecisionKind.REFUSE_RATING or decision.state != DecisionState.IN_FORCE:
        raise Refused(_("This decision cannot be appealed."))
    if decision.deadline is not None and timezone.localdate(now) > decision.deadline:
        raise Refused(
            _("The appeal had to be lodged by %(date)s.")
            % {"date": formats.date_format(decision.deadline)}
        )
    grounds = (grounds or "").strip()
    if not grounds:
        raise Refused(_("Write the grounds of the appeal."))
    with transaction.atomic():
        decision.state = DecisionState.APPEALED
        decision.appeal_reason = grounds
        decision.appealed_by = user
        decision.appealed_at = now
        decision.save(update_fields=["state", "appeal_reason", "appealed_by", "appealed_at"])
        _tell(decision, _("Appeal lodged on %(t)s") % {"t": tournament})
    return decision


def decision_appeal_decide(
    *, decision: TournamentDecision, officer: Any, upheld: bool, resolution: str
) -> TournamentDecision:
    """The officer's decision on an appeal (fide-2024 0.4): upheld lifts the refusal and the
    tournament is validated again; dismissed, the refusal stands."""
    tournament = decision.tournament
    _officer(officer, tournament)
    if decision.state != DecisionState.APPEALED:
        raise Refused(_("There is no appeal to decide."))
    with transaction.atomic():
        decision.state = DecisionState.APPEAL_UPHELD if upheld else DecisionState.APPEAL_DISMISSED
        decision.resolution = _reason(resolution)
        decision.resolved_by = officer
        decision.resolved_at = timezone.now()
        decision.save(update_fields=["state", "resolution", "resolved_by", "resolved_at"])
        tournament_revalidate(tournament=tournament)
        _tell(decision, _("The appeal on %(t)s is decided") % {"t": tournament})
    return decision


def corrections_lapse(*, now: dt.datetime | None = None) -> int:
    """The nightly beat (tournaments.lapse_corrections): every report returned for correction
    whose deadline has passed without a corrected report is lapsed, and its event counts as not
    reported (feda-1996 10.13, fide-2000 11.1 → B.01 7.13). A corrected report that arrived in
    time is marked corrected instead. Returns how many lapsed."""
    today = timezone.localdate(now or timezone.now())
    lapsed = 0
    for decision in corrections_lapsing(today=today):
        with transaction.atomic():
            tournament = decision.tournament
            # A report sent in time marks it corrected (decision_effects.decision_problems).
            tournament_revalidate(tournament=tournament)
            decision.refresh_from_db(fields=["state"])
            if decision.state != DecisionState.IN_FORCE:
                continue
            decision.state = DecisionState.LAPSED
            decision.save(update_fields=["state"])
            tournament_revalidate(tournament=tournament)
            _tell(decision, _("Not reported: %(t)s") % {"t": tournament})
            lapsed += 1
    return lapsed


def tournament_decide(
    *,
    tournament: Tournament,
    officer: Any,
    kind: str,
    reason: str,
    check_code: str = "",
    game_id: int | None = None,
    start_rank: int | None = None,
) -> TournamentDecision:
    """One of the decisions above by its kind (the page's form and the API's action)."""
    if kind == DecisionKind.RETURN_FOR_CORRECTION:
        return tournament_return_for_correction(
            tournament=tournament, officer=officer, reason=reason
        )
    if kind == DecisionKind.REJECT_REGISTRATION:
        return tournament_reject_registration(tournament=tournament, officer=officer, reason=reason)
    if kind == DecisionKind.REFUSE_RATING:
        return tournament_refuse_rating(tournament=tournament, officer=officer, reason=reason)
    if kind == DecisionKind.OVERRIDE_CHECK:
        return tournament_override_check(
            tournament=tournament, officer=officer, reason=reason, check_code=check_code
        )
    if kind == DecisionKind.AUTHORISE_LONG_EVENT:
        return tournament_authorise_long_event(
            tournament=tournament, officer=officer, reason=reason
        )
    if kind == DecisionKind.EXCLUDE_GAME:
        game = (
            Game.objects.select_related("white", "black")
            .filter(tournament=tournament, pk=game_id or 0)
            .first()
        )
        if game is None:
            raise Refused(_("Pick a played game of this tournament."))
        return tournament_exclude_game(
            tournament=tournament, officer=officer, reason=reason, game=game
        )
    if kind == DecisionKind.EXEMPT_WITHDRAWAL:
        return tournament_exempt_withdrawal(
            tournament=tournament, officer=officer, reason=reason, start_rank=start_rank or 0
        )
    raise Refused(_("Unknown decision."))
