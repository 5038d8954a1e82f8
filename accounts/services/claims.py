"""Claims of registry records (docs/accounts.md): a signed-in user names his record by its
federation ID and his birth date, or by its FIDE ID; an officer approves (the account is linked,
Player.user, and joins the player group) or refuses with a reason. The user is e-mailed either
way (accounts.notify, through the outbox).

A claim that matches nothing is refused with one sentence whatever was wrong (an unknown ID or
a wrong birth date), and counts towards ACCOUNTS_CLAIM_FAILURES_PER_DAY, so a birth date cannot
be found by trying dates one after another. Permissions are the rules' (accounts/rules.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import notify
from accounts.limits import limit_count, limit_reached
from accounts.models import ClaimMethod, ClaimRequest, RequestStatus
from core.errors import Refused
from core.roles import PLAYER
from players.models import Player


def _pending_already() -> Refused:
    return Refused(_("You have a claim waiting for the rating office already."))


def _no_match() -> Refused:
    return Refused(
        _(
            "No player of the registry matches these details. Check them; if they are right, "
            "write to the rating office."
        )
    )


def _matching_player(
    *, method: str, fed_id: str, birth_date: dt.date | None, fide_id: int | None
) -> Player | None:
    if method == ClaimMethod.FIDE_ID:
        return Player.objects.filter(fide_id=fide_id).first() if fide_id else None
    if method != ClaimMethod.FED_ID or not fed_id.strip() or birth_date is None:
        return None
    player = Player.objects.filter(fed_id=fed_id.strip()).first()
    if player is None:
        return None
    # The registry may know the year only (reports often give no more): then the year must
    # match, and the officer, who sees which it was, decides.
    if player.birth_date is not None:
        return player if player.birth_date == birth_date else None
    return player if player.birth_year == birth_date.year else None


def claim_submit(
    *,
    user: Any,
    method: str,
    fed_id: str = "",
    birth_date: dt.date | None = None,
    fide_id: int | None = None,
    language: str = "",
) -> ClaimRequest:
    """Claim the record that `fed_id` and `birth_date`, or `fide_id`, name (method)."""
    if not user.has_perm("accounts.claim_player"):
        raise PermissionDenied
    if getattr(user, "player", None) is not None:
        raise Refused(_("Your account is linked to a player of the registry already."))
    if ClaimRequest.objects.filter(user=user, status=RequestStatus.PENDING).exists():
        raise _pending_already()
    # Checked before the match: past the limit even the right details are not tried, or the
    # one that is accepted would tell them.
    failures = {"scope": "claim", "who": str(user.pk)}
    if limit_reached(**failures, limit=settings.ACCOUNTS_CLAIM_FAILURES_PER_DAY):
        raise Refused(_("Too many claims that match nothing today. Try again tomorrow."))
    player = _matching_player(method=method, fed_id=fed_id, birth_date=birth_date, fide_id=fide_id)
    if player is None:
        limit_count(**failures, seconds=86400)
        raise _no_match()
    if player.user_id is not None:
        raise Refused(
            _("This record is linked to an account already. If it is yours, write to the office.")
        )
    try:
        with transaction.atomic():
            return ClaimRequest.objects.create(
                user=user, player=player, method=method, language=language[:8]
            )
    except IntegrityError as exc:  # a second claim raced past the check above
        if "claim_one_pending_per_user" in str(exc):
            raise _pending_already() from exc
        raise


def _decide(claim: ClaimRequest, *, user: Any, status: str, reason: str) -> None:
    claim.status = status
    claim.reason = reason
    claim.decided_by = user
    claim.decided_at = timezone.now()
    claim.save(update_fields=["status", "reason", "decided_by", "decided_at"])
    notify.claim_decided_send(claim=claim)


def claim_decide(
    *, claim: ClaimRequest, user: Any, approve: bool, reason: str = ""
) -> ClaimRequest:
    """Approve: the player is linked to the claimant's account, which joins the player group;
    the other pending claims of the same record are refused. Refuse: with a reason. The
    claimant is e-mailed in both cases."""
    if not user.has_perm("accounts.decide_claim", claim):
        raise PermissionDenied
    reason = reason.strip()
    if not approve and not reason:
        raise Refused(_("Write the reason for the refusal: the user reads it."))
    with transaction.atomic():
        claim = ClaimRequest.objects.select_for_update().select_related("user").get(pk=claim.pk)
        if claim.status != RequestStatus.PENDING:
            raise Refused(_("This claim has been decided already."))
        if not approve:
            _decide(claim, user=user, status=RequestStatus.REFUSED, reason=reason)
            return claim
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if player.user_id is not None:
            raise Refused(_("This record is linked to an account already: refuse the claim."))
        if Player.objects.filter(user=claim.user).exists():
            raise Refused(_("This account is linked to another record already: refuse the claim."))
        player.user = claim.user
        player.save(update_fields=["user", "updated_at"])
        claim.user.groups.add(Group.objects.get_or_create(name=PLAYER)[0])
        claim.player = player
        _decide(claim, user=user, status=RequestStatus.APPROVED, reason=reason)
        others = ClaimRequest.objects.select_for_update().filter(
            player=player, status=RequestStatus.PENDING
        )
        for other in others.select_related("user", "player"):
            _decide(
                other,
                user=user,
                status=RequestStatus.REFUSED,
                reason=_("The record has been linked to another account."),
            )
    return claim
