"""Whole public pages kept for anonymous visitors (the player card, a list page, a search).

Every anonymous visitor sees the same page for the same address and language, but for one
thing: the CSRF token of the language form, which belongs to the visitor's cookie. A page is
rendered once with a placeholder in the token's place, kept (the process's memory, then the
shared cache: core.api.caching), and served with the visitor's own token put in.

Only a GET or HEAD with no session cookie and no message cookie, from a visitor who is not
logged in, is served from or stored in the cache: a logged-in user's page (his name, "My
protests", protest links, the officer's menu) and a page showing a one-time message are always
rendered for the request and never kept.

A page served from the cache carries an ETag (the page and the visitor's CSRF cookie) and
`Cache-Control: private, no-cache`: a browser asking again with If-None-Match gets a 304.
Pages are kept compressed (zlib): a card of 15 KB takes about 2.6 KB of memory.

The caller names what the page depends on in `state` (the newest published list's id, the
player's last change...): the key holds it, so a publication, a correction or an edit makes
a new key and the next request renders afresh; `timeout` only bounds how long an entry that
is no longer asked for stays in memory.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language

from core.api.caching import cached_get, cached_set

#: What stands in a kept page where the visitor's CSRF token goes ({% csrf_token %}).
CSRF_PLACEHOLDER = "csrf-placeholder-3b1f0c"
_PLACEHOLDER = CSRF_PLACEHOLDER.encode()

#: Renders the page; its argument is context to add (the token's placeholder).
Render = Callable[[dict[str, Any]], HttpResponse]


def page_shared(request: HttpRequest) -> bool:
    """True when `request` sees the page every anonymous visitor sees: a GET or HEAD, no
    session (so no login and no message kept in it), no message cookie, not logged in."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
        and not request.user.is_authenticated
    )


def page_key(request: HttpRequest, *, kind: str, state: str) -> str:
    """The cache key of the page `request` asks for: its kind, language, state and address
    (path and query string, as the page shows them in its links and its language form)."""
    address = hashlib.sha1(request.get_full_path().encode()).hexdigest()
    return f"page:{kind}:{get_language()}:{state}:{address}"


def page_cached(
    request: HttpRequest, *, kind: str, state: str, timeout: int, render: Render
) -> HttpResponseBase:
    """The page `render` makes, served from the cache to anonymous visitors (see the module's
    text); for anyone else, rendered for the request. Only a 200 page is kept."""
    if not page_shared(request):
        return render({})
    key = page_key(request, kind=kind, state=state)
    kept = cached_get(key)
    if kept is None:
        rendered = render({"csrf_token": CSRF_PLACEHOLDER})
        if rendered.status_code != 200 or rendered.streaming:
            return rendered
        # Compressed: a card is about 15 KB of HTML, 2.6 KB kept (and 45 µs to inflate).
        kept = (zlib.compress(rendered.content, 6), rendered["Content-Type"])
        cached_set(key, kept, timeout)
    body, content_type = kept
    # The ETag names the page and the secret of the visitor's CSRF cookie, which the token in
    # his copy comes from: a visitor whose cookie changed gets the page again, not a 304.
    token = get_token(request)
    secret = request.META.get("CSRF_COOKIE", "")
    etag = '"' + hashlib.sha1(f"{key}|{secret}".encode()).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(
            zlib.decompress(body).replace(_PLACEHOLDER, token.encode()), content_type=content_type
        )
    response["ETag"] = etag
    # The browser keeps it and asks again each time (If-None-Match); no shared cache may keep
    # a page that holds a visitor's token.
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie",))
    return response
