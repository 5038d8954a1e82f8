"""Login lockouts (django-axes, settings AXES_*): the page a locked-out login gets — the site's
login page with a message, also for the admin's login — and the log line of each lockout."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

log = logging.getLogger(__name__)


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
