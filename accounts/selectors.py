"""Reads of claims and correction requests: a user's own, the officers' pending queues, and
what the API lists for a user (what accounts.view_claim / view_correction let him see)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import ClaimRequest, CorrectionRequest, RequestStatus
from core.rules import is_officer

_CLAIM_RELATED = ("user", "player", "decided_by")
_CORRECTION_RELATED = ("player", "requested_by", "decided_by")


def claims_of_user(*, user: Any) -> QuerySet[ClaimRequest]:
    """His claims, newest first."""
    if not user.is_authenticated:
        return ClaimRequest.objects.none()
    return ClaimRequest.objects.filter(user=user).select_related(*_CLAIM_RELATED)


def claims_pending() -> QuerySet[ClaimRequest]:
    """The officers' queue, oldest first."""
    return (
        ClaimRequest.objects.filter(status=RequestStatus.PENDING)
        .select_related(*_CLAIM_RELATED)
        .order_by("created_at", "id")
    )


def claims_for_user(*, user: Any) -> QuerySet[ClaimRequest]:
    """Every claim for an officer, his own for anyone else (accounts.view_claim)."""
    if is_officer(user):
        return ClaimRequest.objects.select_related(*_CLAIM_RELATED)
    return claims_of_user(user=user)


def corrections_of_user(*, user: Any) -> QuerySet[CorrectionRequest]:
    """The requests he made or that are about his record, newest first."""
    if not user.is_authenticated:
        return CorrectionRequest.objects.none()
    return CorrectionRequest.objects.filter(
        Q(requested_by=user) | Q(player__user=user)
    ).select_related(*_CORRECTION_RELATED)


def corrections_pending() -> QuerySet[CorrectionRequest]:
    """The officers' queue, oldest first."""
    return (
        CorrectionRequest.objects.filter(status=RequestStatus.PENDING)
        .select_related(*_CORRECTION_RELATED)
        .order_by("created_at", "id")
    )


def corrections_for_user(*, user: Any) -> QuerySet[CorrectionRequest]:
    """Every request for an officer, his own for anyone else (accounts.view_correction)."""
    if is_officer(user):
        return CorrectionRequest.objects.select_related(*_CORRECTION_RELATED)
    return corrections_of_user(user=user)
