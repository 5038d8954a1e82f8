"""Public pages a proxy may share, and whole pages kept for anonymous visitors (the player card,
a list page, a search). docs/caching.md has the design; in short:

- An anonymous visitor's page holds nothing of his own: no CSRF token (the language switch is
  a link, core.views.language_switch), no session, no name. So every anonymous visitor sees
  the same page for the same address and language, and it answers `Cache-Control: public,
  max-age=PUBLIC_PAGE_MAX_AGE` with an ETag: the site's caching proxy (deploy/nginx.conf)
  and browsers keep it that long, then ask again with If-None-Match (a 304 when unchanged).
- Any other request (logged in, a session or a one-time message, a POST) gets its own page,
  `Cache-Control: private`: never kept by a shared cache.
- Besides, the card, a list page and a search are kept whole in Django's cache (the process's
  memory, then the shared cache: core.api.caching) under a key that names what the page
  depends on (`state`: the newest published list's id, the player's last change...), so a
  publication, a correction or an edit makes a new key and the next request renders afresh;
  `timeout` only bounds how long an entry that is no longer asked for stays.

The ETag is the digest of the page itself, so it changes exactly when the page does (a
publication marks a list page superseded: new bytes, new ETag), and a 304 is never given for a
page that changed.
"""

from __future__ import annotations

import functools
import hashlib
import zlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language

from core.api.caching import cached_get, cached_set

#: Renders the page for the request.
Render = Callable[[], HttpResponse]

_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])


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
    (path and query string, as the page shows them in its links)."""
    address = hashlib.sha1(request.get_full_path().encode()).hexdigest()
    return f"page:{kind}:{get_language()}:{state}:{address}"


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha1(body).hexdigest()[:32] + '"'


def _public(request: HttpRequest, response: HttpResponseBase, etag: str) -> HttpResponseBase:
    """`response` (the shared page whose ETag is `etag`) as a proxy may keep it, or a 304 when
    the visitor already holds it."""
    conditional = get_conditional_response(request, etag=etag)
    if conditional is not None:
        response = conditional
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=settings.PUBLIC_PAGE_MAX_AGE)
    return response


def page_private(response: HttpResponseBase) -> HttpResponseBase:
    """`response` is this request's own page: no shared cache may keep it."""
    patch_cache_control(response, private=True)
    return response


def public_page(view: _View) -> _View:
    """A view whose page anonymous visitors share (the home page, a tournament's page...):
    for them `Cache-Control: public` with an ETag of the page (and a 304 when it matches);
    for anyone else `private`. The page is rendered for each request that reaches the site."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        if (
            not page_shared(request)
            or response.status_code != 200
            or response.streaming
            or not isinstance(response, HttpResponse)
        ):
            return page_private(response)
        return _public(request, response, _etag(response.content))

    return cast(_View, wrapper)


def page_cached(
    request: HttpRequest,
    *,
    kind: str,
    state: str,
    timeout: int,
    render: Render,
    shared: bool = True,
) -> HttpResponseBase:
    """The page `render` makes, served from the cache to anonymous visitors and shared with
    proxies (see the module's text); for anyone else, rendered for the request (private).
    Only a 200 page is kept. With `shared=False` it is kept in the process's memory only (a
    page seldom asked twice: two round trips to the shared cache, a get that misses and a
    set, would cost more than the few repeats save; the proxy still shares it)."""
    if not page_shared(request):
        return page_private(render())
    key = page_key(request, kind=kind, state=state)
    kept = cached_get(key, shared=shared)
    if kept is None:
        rendered = render()
        if rendered.status_code != 200 or rendered.streaming:
            return page_private(rendered)
        # Compressed (zlib's fastest level, a third of the default's CPU, 12 % larger): a
        # card is about 15 KB of HTML, 3 KB kept (and 45 µs to inflate).
        content = rendered.content
        etag = _etag(content)
        kept = (zlib.compress(content, 1), rendered["Content-Type"], etag)
        cached_set(key, kept, timeout, shared=shared)
        # The page just rendered is served as it is (not inflated again from what was kept).
        return _public(request, rendered, etag)
    body, content_type, etag = kept
    if request.headers.get("If-None-Match") == etag:
        return _public(request, HttpResponse(content_type=content_type), etag)
    return _public(request, HttpResponse(zlib.decompress(body), content_type=content_type), etag)
