"""The site's error pages (400, 403, 404, 500, 503) in its layout, with a translated sentence."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotFound,
    HttpResponseServerError,
)
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from core.errors import RETRY_AFTER_SECONDS


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # Django's own messages for a refused request (a file name it cannot take, too many
    # fields…) are English and technical: the page says in the user's language what to do.
    reason = _(
        "The request could not be read: a file name, a field or the address is too long or "
        "holds characters the office does not accept. Rename the file or shorten the text "
        "and try again."
    )
    if isinstance(exception, SuspiciousOperation) and getattr(exception, "user_reason", None):
        reason = str(exception.user_reason)  # type: ignore[attr-defined]
    return HttpResponseBadRequest(render_to_string("400.html", {"reason": reason}, request))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    reason = str(exception) if isinstance(exception, PermissionDenied) and str(exception) else ""
    return HttpResponseForbidden(render_to_string("403.html", {"reason": reason}, request))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponseNotFound(render_to_string("404.html", {}, request))


def server_error(request: HttpRequest) -> HttpResponse:
    # No context processors (they may be what failed): the layout renders without a user.
    return HttpResponseServerError(render_to_string("500.html", {}))


def service_unavailable(request: HttpRequest, reason: str) -> HttpResponse:
    """503 with Retry-After: a part of the office is away for a moment (core.errors.Unavailable,
    a lost database connection). Rendered like the 500 page, without context processors: the
    database may be what is missing."""
    response = HttpResponse(render_to_string("503.html", {"reason": reason}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
