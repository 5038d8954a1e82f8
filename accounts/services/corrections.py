"""Correction requests (docs/accounts.md): a claimed player asks to change his record's name,
birth date or year, club or region, with a note; an officer accepts (the record changes here,
and players.Player's history keeps the change, with this request's id in its context) or
refuses with a reason. The player is e-mailed either way (accounts.notify, the outbox).
Permissions are the rules' (accounts/rules.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import notify
from accounts.models import CORRECTABLE_FIELDS, CorrectionRequest, RequestStatus
from core.errors import Refused
from core.history import history_context
from players.models import Player

#: The longest text a name, club or region may have (the Player model's).
_MAX_LENGTHS: dict[str, int] = {
    f: getattr(Player._meta.get_field(f), "max_length", 0) or 0
    for f in ("surname", "given_name", "club", "region")
}


def _as_text(value: Any) -> str:
    """A field's value as stored in a request's JSON: dates in ISO, none as empty text."""
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


def _parsed(field: str, text: str) -> Any:
    """The JSON text of a change as the Player field's value."""
    if field == "birth_date":
        return dt.date.fromisoformat(text) if text else None
    if field == "birth_year":
        return int(text) if text else None
    return text


def _check(player: Player, changes: dict[str, str]) -> None:
    today = timezone.localdate()
    for field in ("surname", "given_name"):
        if field in changes and not changes[field]:
            raise Refused(_("The name cannot be left empty."))
    for field, most in _MAX_LENGTHS.items():
        if len(changes.get(field, "")) > most:
            raise Refused(_("A value is too long."))
    date = _parsed("birth_date", changes["birth_date"]) if "birth_date" in changes else None
    if date is not None and not (dt.date(1900, 1, 1) <= date <= today):
        raise Refused(_("The birth date is not possible."))
    if changes.get("birth_year"):
        year = _parsed("birth_year", changes["birth_year"])
        if not 1900 <= year <= today.year:
            raise Refused(_("The birth year is not possible."))
        kept = date if "birth_date" in changes else player.birth_date
        if kept is not None and kept.year != year:
            # The year follows the date (Player.save): correct the date instead.
            raise Refused(_("The birth year must be the birth date's: correct the birth date."))


def correction_submit(
    *, user: Any, changes: dict[str, Any], note: str = "", language: str = ""
) -> CorrectionRequest:
    """Ask for the `changes` (field → new value, fields of CORRECTABLE_FIELDS) to the record
    linked to `user`. Fields whose value is the record's already are left out."""
    if not user.has_perm("accounts.request_correction"):
        raise PermissionDenied
    player = getattr(user, "player", None)
    if player is None:
        raise Refused(_("Your account is not linked to a player of the registry."))
    unknown = set(changes) - set(CORRECTABLE_FIELDS)
    if unknown:
        raise Refused(_("Only the name, birth date or year, club and region can be corrected."))
    wanted = {
        f: _as_text(v) for f, v in changes.items() if _as_text(v) != _as_text(getattr(player, f))
    }
    if not wanted:
        raise Refused(_("Change at least one field: every value given is the record's already."))
    _check(player, wanted)
    if CorrectionRequest.objects.filter(player=player, status=RequestStatus.PENDING).exists():
        raise _pending_already()
    previous = {f: _as_text(getattr(player, f)) for f in wanted}
    try:
        with transaction.atomic():
            return CorrectionRequest.objects.create(
                player=player,
                requested_by=user,
                changes=wanted,
                previous=previous,
                note=note.strip(),
                language=language[:8],
            )
    except IntegrityError as exc:  # a second request raced past the check above
        if "correction_one_pending_per_player" in str(exc):
            raise _pending_already() from exc
        raise


def _pending_already() -> Refused:
    return Refused(_("A correction request of yours waits for the rating office already."))


def correction_decide(
    *, correction: CorrectionRequest, user: Any, approve: bool, reason: str = ""
) -> CorrectionRequest:
    """Accept (the record takes the requested values) or refuse with a reason."""
    if not user.has_perm("accounts.decide_correction", correction):
        raise PermissionDenied
    reason = reason.strip()
    if not approve and not reason:
        raise Refused(_("Write the reason for the refusal: the player reads it."))
    with transaction.atomic():
        correction = CorrectionRequest.objects.select_for_update().get(pk=correction.pk)
        if correction.status != RequestStatus.PENDING:
            raise Refused(_("This request has been decided already."))
        player = (
            Player.objects.select_for_update(of=("self",))
            .select_related("user")
            .get(pk=correction.player_id)
        )
        if approve:
            _check(player, correction.changes)
            player_correct(player=player, changes=correction.changes, correction=correction)
        correction.player = player
        correction.status = RequestStatus.APPROVED if approve else RequestStatus.REFUSED
        correction.reason = reason
        correction.decided_by = user
        correction.decided_at = timezone.now()
        correction.save(update_fields=["status", "reason", "decided_by", "decided_at"])
        notify.correction_decided_send(correction=correction)
    return correction


def player_correct(
    *, player: Player, changes: dict[str, str], correction: CorrectionRequest
) -> None:
    """Write `changes` to the record. The Player's history (pghistory) records the update; its
    context names the request, beside the request's user and path (core.history)."""
    for field, text in changes.items():
        setattr(player, field, _parsed(field, text))
    fields = [*changes, "name_key", "updated_at"]
    if "birth_date" in changes:
        fields.append("birth_year")  # Player.save makes it follow the date
    with history_context(correction=correction.pk):
        player.save(update_fields=sorted(set(fields)))
