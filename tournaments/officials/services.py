"""Writes of the arbiters' and organisers' registry: an arbiter registers a record (pending),
an officer registers an approved one or decides a pending one (approve / refuse, with the
reason), and a report's chief arbiter (TRF line 102) is matched to the registry at upload."""

from __future__ import annotations

from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from tournaments.officials import selectors
from tournaments.officials.models import Arbiter, OfficialRecord, Organiser, RecordState
from tournaments.services.validation import tournament_revalidate

RecordT = TypeVar("RecordT", bound=OfficialRecord)


def _register(*, model: type[RecordT], user: Any, data: dict[str, Any]) -> RecordT:
    if not user.has_perm("tournaments.register_official"):
        raise PermissionDenied(_("Only an arbiter or a rating officer can register one."))
    fide_id = data.get("fide_id")
    if fide_id is not None:
        taken = Arbiter.objects.filter(fide_id=fide_id).first()
        if taken is not None:
            raise Refused(
                _("An arbiter with this FIDE ID is already in the registry: %(name)s.")
                % {"name": taken.name}
            )
    record = model(**data, registered_by=user)
    if user.has_perm("tournaments.decide_official"):
        # An officer's own record needs no approval.
        record.state = RecordState.APPROVED
        record.decided_by = user
        record.decided_at = timezone.now()
    record.full_clean()
    record.save()
    return record


def arbiter_register(*, user: Any, data: dict[str, Any]) -> Arbiter:
    """A new arbiter: pending the officer's approval when an arbiter registers it."""
    return _register(model=Arbiter, user=user, data=data)


def organiser_register(*, user: Any, data: dict[str, Any]) -> Organiser:
    """A new organiser: pending the officer's approval when an arbiter registers it."""
    return _register(model=Organiser, user=user, data=data)


def official_decide(*, record: RecordT, user: Any, approve: bool, reason: str = "") -> RecordT:
    """The officer approves or refuses a record of the registry (a refusal says why); the
    tournaments it directs are checked again (feda-1996 1.1 reads the record's state)."""
    if not user.has_perm("tournaments.decide_official"):
        raise PermissionDenied(_("Only a rating officer can approve or refuse a record."))
    reason = reason.strip()
    if not approve and not reason:
        raise Refused(_("Say why the record is refused."))
    with transaction.atomic():
        record.state = RecordState.APPROVED if approve else RecordState.REFUSED
        record.decided_by = user
        record.decided_at = timezone.now()
        record.reason = reason
        record.save(update_fields=["state", "decided_by", "decided_at", "reason"])
        if isinstance(record, Arbiter):
            _directed_revalidate(arbiter=record)
    return record


def _directed_revalidate(*, arbiter: Arbiter) -> None:
    """Re-run the checks of the unrated tournaments with a report that this arbiter directs."""
    for tournament in selectors.arbiter_tournaments_to_check(arbiter=arbiter):
        tournament_revalidate(tournament=tournament)
