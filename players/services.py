"""Writes on the registry that a player asks for himself (docs/privacy.md): whether his birth
year is public, and his erasure request, which an officer approves or refuses."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from core.models import ApiToken
from players.models import ErasureRequest, ErasureStatus, Player


def _own_player(user: Any) -> Player:
    if not user.has_perm("players.manage_own_data"):
        raise PermissionDenied
    player = getattr(user, "player", None)
    if player is None:  # a superuser passes every rule, with or without a record
        raise Refused(_("Your account is not linked to a player record."))
    assert isinstance(player, Player)
    return player


def birth_year_visibility_set(*, user: Any, public: bool) -> Player:
    """Show or hide his birth year on his card, in the search's API and the API's player
    (the published lists keep their column)."""
    player = _own_player(user)
    player.birth_year_public = public
    # updated_at is in the card's cache key (ratings.cards.selectors.card_state).
    player.save(update_fields=["birth_year_public", "updated_at"])
    return player


def erasure_request(*, user: Any, note: str = "") -> ErasureRequest:
    """His request to erase his data; one pending at a time."""
    player = _own_player(user)
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if ErasureRequest.objects.filter(player=player, status=ErasureStatus.PENDING).exists():
            raise Refused(_("You already have an erasure request waiting for the office."))
        return ErasureRequest.objects.create(player=player, user=user, note=note[:2000])


def _decidable(request: ErasureRequest, officer: Any) -> None:
    if not officer.has_perm("players.decide_erasure"):
        raise PermissionDenied
    if request.status != ErasureStatus.PENDING:
        raise Refused(_("This erasure request has already been decided."))


@transaction.atomic
def erasure_approve(*, request: ErasureRequest, officer: Any, outcome: str = "") -> ErasureRequest:
    """Approve: what the published lists need stays (the record's name, federation ID, club,
    region, sex, title, birth year, ratings, list entries, games and protests: the office
    must keep its lists as published); the rest goes (docs/privacy.md, "Erasure"):

    - the full birth date is cleared (the year stays: the lists' column, and the calculation
      reads 1 July of it), the birth year is hidden again;
    - his account is unlinked from the record and pseudonymised: user name ``erased-<id>``,
      e-mail and names blanked, password unusable, deactivated; his API tokens are deleted.
    """
    request = ErasureRequest.objects.select_for_update().get(pk=request.pk)
    _decidable(request, officer)
    player = Player.objects.select_for_update().get(pk=request.player_id)
    user = player.user or request.user
    player.user = None
    player.birth_date = None
    player.birth_year_public = False
    player.save(update_fields=["user", "birth_date", "birth_year_public", "updated_at"])
    if user is not None:
        ApiToken.objects.filter(user=user).delete()
        user.username = f"erased-{user.pk}"
        user.email = ""
        user.first_name = ""
        user.last_name = ""
        user.is_active = False
        user.set_unusable_password()
        user.save()
    request.status = ErasureStatus.APPROVED
    request.decided_by = officer
    request.decided_at = timezone.now()
    request.outcome = outcome
    request.save(update_fields=["status", "decided_by", "decided_at", "outcome"])
    return request


@transaction.atomic
def erasure_refuse(*, request: ErasureRequest, officer: Any, outcome: str) -> ErasureRequest:
    """Refuse, with the reason he reads on his data page."""
    request = ErasureRequest.objects.select_for_update().get(pk=request.pk)
    _decidable(request, officer)
    if not outcome.strip():
        raise Refused(_("Give the reason for refusing the request."))
    request.status = ErasureStatus.REFUSED
    request.decided_by = officer
    request.decided_at = timezone.now()
    request.outcome = outcome
    request.save(update_fields=["status", "decided_by", "decided_at", "outcome"])
    return request
