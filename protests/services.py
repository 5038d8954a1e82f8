"""Protests against a published list (docs/protests.md): submitted within the regulation's
window by the player of the entry, followed on his "my protests" page; the officer may ask him
for information, then upholds or rejects with written reasons; under cnxc-2000 the player may
appeal within 7 days with a deposit (4.3). Every change is kept in the protest's history
(pghistory) and e-mailed to the player (notify). An upheld protest marks the period for
recalculation; the corrected version links back to it (protests_correction_link, when
ratings.publication signals the new version).

Statuses change here only. Permissions are the rules' (protests/rules.py): a service refuses
(PermissionDenied) without them; a wrong state or a late request is a Refused with its reason.
"""

from __future__ import annotations

from typing import IO, Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import Refused
from periods.models import RatingPeriod
from periods.services import period_mark_for_recalculation
from protests import notify
from protests.attachments import attachment_check
from protests.deadlines import appeal_deposit_required, appeal_window, protest_window
from protests.models import OPEN_STATUSES, Protest, ProtestAttachment, ProtestStatus
from ratings.models import ListEntry, PublishedList
from tournaments.models import Game, Tournament


def _duplicate() -> Refused:
    return Refused(
        _(
            "You already have an open protest against this entry of the list. Follow it on "
            "“My protests”; you may protest again once it is decided."
        )
    )


def _check_subject(
    *,
    published: PublishedList,
    player: Any,
    tournament: Tournament | None,
    game: Game | None,
    subject: str,
) -> Tournament | None:
    """The tournament or game named: rated in the list's period, a game of the player; or,
    when it is not one of the period's (a tournament left out), named in his words."""
    if game is not None:
        played = Game.objects.filter(pk=game.pk, tournament__period_id=published.period_id).filter(
            Q(white__player=player) | Q(black__player=player)
        )
        if not played.exists():
            raise Refused(_("The game named is not one of yours rated in this list."))
        if tournament is not None and game.tournament_id != tournament.pk:
            raise Refused(_("The game named is not one of the tournament named."))
        return game.tournament
    if tournament is None:
        if subject.strip():
            return None
        raise Refused(_("Name the tournament or the game the protest is about."))
    if tournament.period_id != published.period_id:
        raise Refused(_("The tournament named is not rated in this list."))
    return tournament


def protest_submit(
    *,
    published: PublishedList,
    player: Any,
    user: Any,
    text: str,
    tournament: Tournament | None = None,
    game: Game | None = None,
    subject: str = "",
    attachment: IO[bytes] | None = None,
    attachment_name: str = "",
    language: str = "",
) -> Protest:
    """``player``: the registry player the protest is about, the one linked to ``user``'s
    account; his entry in ``published`` is the one protested. Within the window (fce 9.3,
    cnxc-2000 4.3, else the office's days), one open protest per entry."""
    if not user.has_perm("protests.submit_protest", published):
        raise PermissionDenied
    if player is None or player.user_id != user.pk:
        raise Refused(_("Your account is not linked to a player of the registry."))
    window = protest_window(published=published)
    if not window.accepts(timezone.now()):
        raise Refused(
            _("The deadline to protest this list (%(days)s days) ended on %(day)s.")
            % {"days": window.days, "day": date_format(window.last_day)}
        )
    if not ListEntry.objects.filter(published_list=published, player=player).exists():
        raise Refused(_("You have no entry in this list to protest."))
    if not text.strip():
        raise Refused(_("Give the grounds of the protest."))
    tournament = _check_subject(
        published=published, player=player, tournament=tournament, game=game, subject=subject
    )
    checked = (
        attachment_check(name=attachment_name, file=attachment) if attachment is not None else None
    )
    if Protest.objects.filter(
        published_list=published, player=player, status__in=OPEN_STATUSES
    ).exists():
        raise _duplicate()
    # One transaction: the protest, its attachment and its e-mail (the outbox row) together.
    try:
        with transaction.atomic():
            protest = Protest.objects.create(
                published_list=published,
                player=player,
                submitted_by=user,
                text=text.strip(),
                tournament=tournament,
                game=game,
                subject=subject.strip()[:200],
                language=language[:8],
            )
            if checked is not None:
                ProtestAttachment.objects.create(
                    protest=protest,
                    name=checked.name,
                    content_type=checked.content_type,
                    data=checked.data,
                    size=len(checked.data),
                )
            notify.protest_notify(protest=protest, change=notify.SUBMITTED)
    except IntegrityError as exc:  # a second submission raced past the check above
        if "protest_one_open_per_entry" in str(exc):
            raise _duplicate() from exc
        raise
    return protest


def _save(protest: Protest, *fields: str) -> None:
    protest.save(update_fields=list(fields))


def protest_request_information(*, protest: Protest, user: Any, request: str) -> Protest:
    """The officer asks the player for information; the protest waits for his answer."""
    if not user.has_perm("protests.decide_protest", protest):
        raise PermissionDenied
    if protest.status != ProtestStatus.SUBMITTED:
        raise Refused(_("Information can only be requested on an open protest."))
    if not request.strip():
        raise Refused(_("Write what information you need."))
    protest.status = ProtestStatus.WAITING
    protest.information_request = request.strip()
    protest.information_requested_at = timezone.now()
    protest.information_answer = ""
    protest.information_answered_at = None
    with transaction.atomic():  # the change and its e-mail (the outbox row) together
        _save(
            protest,
            "status",
            "information_request",
            "information_requested_at",
            "information_answer",
            "information_answered_at",
        )
        notify.protest_notify(protest=protest, change=notify.INFORMATION_REQUESTED)
    return protest


def protest_answer(*, protest: Protest, user: Any, answer: str) -> Protest:
    """The player answers the officer's request; the protest is open again."""
    if not user.has_perm("protests.answer_protest", protest):
        raise PermissionDenied
    if protest.status != ProtestStatus.WAITING:
        raise Refused(_("No information has been requested on this protest."))
    if not answer.strip():
        raise Refused(_("Write your answer."))
    protest.status = ProtestStatus.SUBMITTED
    protest.information_answer = answer.strip()
    protest.information_answered_at = timezone.now()
    with transaction.atomic():  # the change and its e-mail (the outbox row) together
        _save(protest, "status", "information_answer", "information_answered_at")
        notify.protest_notify(protest=protest, change=notify.ANSWERED)
    return protest


def protest_decide(*, protest: Protest, user: Any, upheld: bool, decision: str) -> Protest:
    """Uphold or reject, with written reasons. Upheld: the period is marked for
    recalculation; the officer recalculates and publishes a correction (version n+1), which
    links back to this protest (``corrected_list``)."""
    if not user.has_perm("protests.decide_protest", protest):
        raise PermissionDenied
    if protest.status == ProtestStatus.WAITING:
        raise Refused(_("This protest is waiting for the player's information."))
    if protest.status != ProtestStatus.SUBMITTED:
        raise Refused(_("This protest has already been decided."))
    if not decision.strip():
        raise Refused(_("Write the reasons for the decision."))
    protest.status = ProtestStatus.UPHELD if upheld else ProtestStatus.REJECTED
    protest.decided_by = user
    protest.decided_at = timezone.now()
    protest.decision = decision.strip()
    with transaction.atomic():  # the decision, its consequence and its e-mail together
        _save(protest, "status", "decided_by", "decided_at", "decision")
        if upheld:
            period_mark_for_recalculation(period=protest.published_list.period)
        notify.protest_notify(protest=protest, change=notify.DECIDED)
    return protest


def protest_appeal(*, protest: Protest, user: Any, text: str) -> Protest:
    """cnxc-2000 4.3: the player appeals the decision to the board within 7 days, with a
    deposit equal to the membership fee in force (settings.PROTEST_APPEAL_DEPOSIT), recorded
    here and returned if the appeal is upheld."""
    if not user.has_perm("protests.answer_protest", protest):
        raise PermissionDenied
    window = appeal_window(protest=protest)
    if window is None:
        raise Refused(_("The regulation of this list allows no appeal."))
    if protest.appealed_at is not None:
        raise Refused(_("This protest has already been appealed."))
    if protest.status != ProtestStatus.REJECTED:
        raise Refused(_("Only a rejected protest can be appealed."))
    if not window.accepts(timezone.now()):
        raise Refused(
            _("The deadline to appeal (%(days)s days, %(article)s) ended on %(day)s.")
            % {"days": window.days, "article": window.article, "day": date_format(window.last_day)}
        )
    if not text.strip():
        raise Refused(_("Give the grounds of the appeal."))
    protest.status = ProtestStatus.APPEALED
    protest.appealed_at = timezone.now()
    protest.appeal_text = text.strip()
    protest.appeal_deposit = (
        settings.PROTEST_APPEAL_DEPOSIT if appeal_deposit_required(protest=protest) else None
    )
    try:
        with transaction.atomic():  # the appeal and its e-mail (the outbox row) together
            _save(protest, "status", "appealed_at", "appeal_text", "appeal_deposit")
            notify.protest_notify(protest=protest, change=notify.APPEALED)
    except IntegrityError as exc:  # a new protest on the same entry is open meanwhile
        if "protest_one_open_per_entry" in str(exc):
            raise _duplicate() from exc
        raise
    return protest


def protest_decide_appeal(*, protest: Protest, user: Any, upheld: bool, decision: str) -> Protest:
    """The board's decision on the appeal, recorded by the officer. Upheld: the protest is
    upheld (the period marked for recalculation) and the deposit returned (cnxc-2000 4.3);
    rejected: the protest is rejected and the deposit kept."""
    if not user.has_perm("protests.decide_protest", protest):
        raise PermissionDenied
    if protest.status != ProtestStatus.APPEALED:
        raise Refused(_("This protest has no appeal waiting for a decision."))
    if not decision.strip():
        raise Refused(_("Write the reasons for the decision."))
    now = timezone.now()
    protest.status = ProtestStatus.UPHELD if upheld else ProtestStatus.REJECTED
    protest.appeal_decided_by = user
    protest.appeal_decided_at = now
    protest.appeal_decision = decision.strip()
    protest.deposit_returned_at = now if upheld and protest.appeal_deposit is not None else None
    with transaction.atomic():  # the decision, its consequence and its e-mail together
        _save(
            protest,
            "status",
            "appeal_decided_by",
            "appeal_decided_at",
            "appeal_decision",
            "deposit_returned_at",
        )
        if upheld:
            period_mark_for_recalculation(period=protest.published_list.period)
        notify.protest_notify(protest=protest, change=notify.APPEAL_DECIDED)
    return protest


def protests_correction_link(*, published: PublishedList, period: RatingPeriod) -> int:
    """The upheld protests against an earlier version of `period`'s list link to the correction
    they caused, `published` (shown on the player's protest page: docs/protests.md). Run when a
    list is published, in its transaction (protests/receivers.py); the number linked."""
    return (
        Protest.objects.filter(
            published_list__period=period, status=ProtestStatus.UPHELD, corrected_list=None
        )
        .exclude(published_list=published)
        .update(corrected_list=published)
    )
