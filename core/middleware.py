"""Refuse control characters at the edge, before any view or query sees them.

A NUL byte cannot be stored in a PostgreSQL text column and no form field, search or
identifier of the office needs a control character: a request whose path, query string,
form fields or uploaded file names hold one (other than tab, line feed and carriage return
in form fields) gets a 400 page with a sentence, in the site's layout.
Uploaded files' contents are not looked at here: the report parsers answer for those.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from core.api.errors import error_response

# C0 controls and DEL; tab, LF and CR are allowed in form values (a textarea holds lines).
_IN_PATH = re.compile(r"[\x00-\x1f\x7f]")
_VALUE_CONTROLS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
_IN_VALUE = re.compile(f"[{_VALUE_CONTROLS}]")
#: The same rule as a pattern of the API's schema (core.api.query): a text parameter's value.
ALLOWED_IN_VALUES = f"^[^{_VALUE_CONTROLS}]*$"
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _holds(pattern: re.Pattern[str], texts: Iterable[str]) -> bool:
    return any(pattern.search(t) for t in texts)


def control_characters_in(request: HttpRequest) -> str | None:
    """Where the request carries a refused control character, as a translated sentence
    naming the place, or None."""
    if _IN_PATH.search(request.path):
        return _("The address holds a control character (such as a NUL byte).")
    if _holds(_IN_VALUE, (*request.GET.keys(), *(v for _k, vs in request.GET.lists() for v in vs))):
        return _("The search or the address's parameters hold a control character.")
    if request.method == "POST" and request.content_type in _FORM_TYPES:
        post = request.POST
        if _holds(_IN_VALUE, (*post.keys(), *(v for _k, vs in post.lists() for v in vs))):
            return _("A field of the form holds a control character.")
        names = (f.name or "" for _k, fs in request.FILES.lists() for f in fs)
        if _holds(_IN_PATH, names):
            return _("The uploaded file's name holds a control character.")
    return None


class ControlCharacterMiddleware:
    """Answer 400 to a request holding a control character (see the module's text)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        reason = control_characters_in(request)
        if reason is not None:
            if request.path.startswith("/api/"):  # programs read the API's error shape
                return error_response(status=400, code="control_character", message=reason)
            return HttpResponseBadRequest(
                render_to_string("400.html", {"reason": reason}, request=request)
            )
        return self.get_response(request)


class ForwardedForMiddleware:
    """The client's address behind the site's own proxies (settings.TRUSTED_PROXY_COUNT).

    Why: behind nginx (docker-compose.yml, deploy/nginx.conf) every request comes from the
    proxy's address, so the per-address counters (django-axes' lockouts, the sign-up limit of
    accounts/limits.py, the API's throttles) would count every visitor as one. Each trusted
    proxy appends the address it was called from to X-Forwarded-For, so the client is the entry
    TRUSTED_PROXY_COUNT places from the right; anything further left was written by the client
    and is not believed. With no proxy configured (0, the default) the header is ignored: a
    client could otherwise name any address and escape every limit. REMOTE_ADDR is rewritten
    first in the chain, so every reader (axes reads REMOTE_ADDR only, DRF with NUM_PROXIES=0)
    sees the same address.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.count = settings.TRUSTED_PROXY_COUNT

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.count > 0:
            address = forwarded_client(
                request.META.get("HTTP_X_FORWARDED_FOR", ""), proxies=self.count
            )
            if address:
                request.META["REMOTE_ADDR"] = address
        return self.get_response(request)


def forwarded_client(header: str, *, proxies: int) -> str:
    """The address `proxies` trusted proxies put in X-Forwarded-For `header` for their client
    ("" when the header has fewer entries than that, or the entry is not an address)."""
    entries = [entry.strip() for entry in header.split(",") if entry.strip()]
    if len(entries) < proxies:
        return ""
    candidate = entries[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return ""
