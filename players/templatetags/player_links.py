"""``{{ fed_id|card_url }}``: a player's card address exactly as ``{% url 'players:detail'
fed_id %}`` writes it, without resolving the URL pattern again for every row: the pattern is
reversed once per script prefix, language and URL configuration, and each ID is quoted into it
as ``reverse()`` quotes it. A 50-row search page reversed the pattern 50 times, about a
millisecond of a cold search's CPU (docs/benchmarks.md, "Cold searches near the floor"). An
ID the pattern refuses (empty, or holding a slash) goes through ``reverse()``, which refuses
it as the tag does."""

from __future__ import annotations

import functools
import re
from urllib.parse import quote

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import escape
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

#: What reverse() leaves unquoted in a path (django.urls.resolvers: RFC 3986 sub-delimiters
#: and "/~:@").
_SAFE = RFC3986_SUBDELIMS + "/~:@"
#: What ``{% url … "~player~" … as link %}`` puts where the federation ID goes (for_player).
PLAYER_PLACEHOLDER = "~player~"
_PLACEHOLDER = "card0placeholder"


@functools.lru_cache(maxsize=64)
def _card_parts(prefix: str, language: str | None, urlconf: str | None) -> tuple[str, str, bool]:
    """The address before and after the ID, and whether both are plain text in HTML."""
    url = reverse("players:detail", args=[_PLACEHOLDER], urlconf=urlconf)
    head, _, tail = url.partition(_PLACEHOLDER)
    return head, tail, escape(head) == head and escape(tail) == tail


#: An ID that reverse() and quote() leave as it is, and HTML too (the registry's IDs:
#: "ESP-123456").
_PLAIN = re.compile(r"[A-Za-z0-9_~-]+").fullmatch


@register.filter
def card_url(fed_id: object) -> str:
    text = str(fed_id)
    if not text or "/" in text:
        return reverse("players:detail", args=[text])
    head, tail, plain = _card_parts(
        get_script_prefix(), get_language(), get_urlconf(settings.ROOT_URLCONF)
    )
    if _PLAIN(text):
        url = f"{head}{text}{tail}"
        # Nothing to escape: marked safe, the template does not escape it again.
        return mark_safe(url) if plain else url
    return f"{head}{quote(text, safe=_SAFE)}{tail}"


@register.filter
def for_player(link: str, fed_id: object) -> str:
    """`link`, a URL reversed once with PLAYER_PLACEHOLDER as the federation ID (a link with
    more arguments than card_url's, such as a list's calculation page), for the player
    `fed_id`, quoted as ``reverse()`` quotes it."""
    return link.replace(PLAYER_PLACEHOLDER, quote(str(fed_id), safe=_SAFE), 1)
