"""Protests against a published list: submitted within the regulation's window, decided by
an officer; an upheld protest marks the period for recalculation. Who may submit or decide is
the rules' business (ratings/rules.py): both services refuse (PermissionDenied) without it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from periods.services import period_mark_for_recalculation
from ratings.models import Protest, ProtestStatus, PublishedList
from ratings.protests.selectors import protest_open_until


def protest_submit(*, published: PublishedList, player: Any, user: Any, text: str) -> Protest:
    """``player``: the registry player the protest is about, the one linked to ``user``'s
    account."""
    if not user.has_perm("ratings.submit_protest", published):
        raise PermissionDenied
    if player is None or player.user_id != user.pk:
        raise Refused(_("Your account is not linked to a player of the registry."))
    if timezone.now() > protest_open_until(published=published):
        raise Refused(
            _("The deadline to protest this list (%(days)s days) has passed.")
            % {"days": published.system.protest_days}
        )
    if not text.strip():
        raise Refused(_("Give the grounds of the protest."))
    return Protest.objects.create(
        published_list=published, player=player, submitted_by=user, text=text.strip()
    )


def protest_decide(*, protest: Protest, user: Any, upheld: bool, decision: str = "") -> Protest:
    """Upheld: the period is marked for recalculation; the officer recalculates and publishes a
    correction (version n+1)."""
    if not user.has_perm("ratings.decide_protest", protest):
        raise PermissionDenied
    if protest.status != ProtestStatus.SUBMITTED:
        raise Refused(_("This protest has already been decided."))
    protest.status = ProtestStatus.UPHELD if upheld else ProtestStatus.REJECTED
    protest.decided_by = user
    protest.decided_at = timezone.now()
    protest.decision = decision
    protest.save(update_fields=["status", "decided_by", "decided_at", "decision"])
    if upheld:
        period_mark_for_recalculation(period=protest.published_list.period)
    return protest
