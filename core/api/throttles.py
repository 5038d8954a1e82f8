"""Throttles: per anonymous client (its address) and per signed-in user, counted apart.

DRF's UserRateThrottle also counts anonymous clients (by address) at the users' rate; here the
users' rate is for users only, the anonymous one (AnonRateThrottle) for the rest."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle


class SignedInRateThrottle(UserRateThrottle):
    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None  # AnonRateThrottle's business
        return super().get_cache_key(request, view)
