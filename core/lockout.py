"""Login lockouts (django-axes, settings AXES_*): the page a locked-out login gets — the site's
login page with a message, also for the admin's login —, the log line of each lockout, and the
handler counting failures per user name and address and per address alone.

Two counts (issue 28, password spraying): AXES_FAILURE_LIMIT failures for one user name from
one address lock that pair; AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the
user names, lock the address. Why a handler: axes counts each group of
AXES_LOCKOUT_PARAMETERS against one limit, and one limit cannot be both small enough for a
user name and large enough for an office or a club behind one address."""

from __future__ import annotations

import logging
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

log = logging.getLogger(__name__)


class AddressLockoutHandler(AxesDatabaseHandler):
    """AXES_HANDLER: axes' database handler, AXES_LOCKOUT_PARAMETERS being
    ``[["username", "ip_address"], "ip_address"]``, with a limit of its own for the address
    alone (see the module's text)."""

    def failures_counted(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> tuple[int, int]:
        """(failures of this user name from this address, failures from this address) within
        the cool-off time."""
        groups = self.get_user_attempts(request, credentials)
        pair, address = (
            attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0 for attempts in groups
        )
        return pair, address

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """What axes compares with AXES_FAILURE_LIMIT: the pair's failures, or the limit itself
        once the address alone reached AXES_ADDRESS_FAILURE_LIMIT."""
        pair, address = self.failures_counted(request, credentials)
        if address >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(pair, int(get_failure_limit(request, credentials)))
        return pair

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """On a successful login (AXES_RESET_ON_SUCCESS) forget this user name's failures from
        this address only. Why: axes would delete every attempt of every group, the address's
        too, so one good password (the sprayer's own account) would clear the address's count."""
        pair_attempts = self.filter_user_attempts(request, credentials)[0]
        count, _deleted = pair_attempts.delete()
        return int(count)


def address_locked(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """Whether the address itself is locked out (not only this user name from it)."""
    if not hasattr(request, "axes_ip_address"):
        return False
    _pair, address = AddressLockoutHandler().failures_counted(request, credentials)
    return bool(address >= settings.AXES_ADDRESS_FAILURE_LIMIT)


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page, in the site's layout, saying why and for how
    long (HTTP 429)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not next_url and request.path.startswith("/admin/"):
        next_url = "/admin/"
    return render(
        request,
        "registration/login.html",
        {
            "form": AuthenticationForm(request),
            "locked_out": True,
            "address_locked": address_locked(request, credentials),
            "next": next_url,
            "cooloff_minutes": settings.AXES_COOLOFF_MINUTES,
        },
        status=429,
    )


def lockout_logged(
    sender: Any,
    request: HttpRequest | None = None,
    username: str | None = None,
    ip_address: str | None = None,
    **_: Any,
) -> None:
    """Receiver of axes' `user_locked_out`: one warning per refused attempt while locked out."""
    log.warning(
        "login locked out: user %r from %s (%s failures; unlock: admin Access attempts or "
        "manage.py axes_reset_username)",
        username,
        ip_address,
        settings.AXES_FAILURE_LIMIT,
    )
