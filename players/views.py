import hashlib
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from core.caching import CSRF_PLACEHOLDER, page_cached
from core.html import escape_text
from core.permissions import permission_required
from core.skeleton import skeleton_render
from players.selectors import player_search

PER_PAGE = 50
#: Seconds a rendered page of results is kept: a player added or renamed shows up in searches
#: at most this late (the registry has no cheap "last changed" to key the cache on).
RESULTS_TTL = 120
#: The search page's parameters; an address with any other is rendered, not kept.
SEARCH_PARAMS = frozenset(["q", "page"])
#: What a row of results shows (templates/players/_results.html): the rest is not read.
RESULT_FIELDS = ("fed_id", "surname", "given_name", "title", "club", "region", "fide_standard")


@permission_required("players.browse_players")
def player_list(request: HttpRequest) -> HttpResponseBase:
    """The player search. Anonymous visitors get the whole page from the cache (RESULTS_TTL);
    others the results' fragment from it, in their own page."""
    if not set(request.GET).issubset(SEARCH_PARAMS):
        return _player_list(request, {})
    return page_cached(
        request,
        kind="search",
        state="",
        timeout=RESULTS_TTL,
        render=lambda extra: _player_list(request, extra),
    )


def _player_list(request: HttpRequest, extra: dict[str, Any]) -> HttpResponse:
    query = request.GET.get("q", "")[:200]
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    # The rendered results of a query and page are cached for RESULTS_TTL seconds, per
    # language, for the pages rendered for one user. A page that core.caching keeps whole
    # (its render gets the token's placeholder) is not rendered again while it is kept: a
    # second copy of its results would only cost two more cache calls.
    kept_whole = extra.get("csrf_token") == CSRF_PLACEHOLDER
    digest = hashlib.sha1(f"{query.strip()}\x00{page}".encode()).hexdigest()
    key = f"player-search:{get_language()}:{digest}"
    results = None if kept_whole else cache.get(key)
    if results is None:
        result = player_search(query=query, page=page, per_page=PER_PAGE, fields=RESULT_FIELDS)
        # Without the request: the fragment shows the results only, and the context
        # processors (the user's roles, messages...) cost a fifth of its rendering.
        results = render_to_string("players/_results.html", {"result": result, "q": query})
        if not kept_whole:
            cache.set(key, results, RESULTS_TTL)
    if kept_whole:
        # The page every anonymous visitor sees, from its skeleton (core.skeleton).
        html = skeleton_render(
            request,
            template_name="players/list.html",
            context=extra,
            slots={
                "results": results,
                "q": escape_text(query),
                "next_path": escape_text(request.get_full_path()),
            },
        )
        return HttpResponse(html)
    # Rendered from escaped template output (players/_results.html), kept as it was.
    return render(
        request, "players/list.html", {"results": mark_safe(results), "q": query, **extra}
    )
