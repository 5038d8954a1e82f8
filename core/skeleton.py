"""Pages rendered once with slots, then filled for each request (the player search's first
requests).

Why: a search nobody has made in the last two minutes renders its whole page, and issue 13
asks 600 such searches a second on two cores; the page around the results (the site's header,
navigation, language form and footer, 11 KB) cost about 0.6 ms of the request's CPU, the same
for every query. So for the pages every anonymous visitor sees (core.caching.page_shared), the
template is rendered once per language with a mark in each slot's place, kept in the
process's memory, and each request puts its values in the marks' places. The values come
escaped as the template would escape them (core.html.escape_text for text), so the page is
byte for byte what rendering it would give (tests/core/test_skeleton.py).

Only what differs between those visitors may be a slot: the context must otherwise be the
same for every request that uses the skeleton (an anonymous visitor's page in one language).
With DEBUG on, the skeleton is rendered afresh for each request (templates may be edited
while the site runs).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from core.release import release

_MARK = "skeleton-slot-{}-7d41c9"
_MARKS = re.compile(_MARK.format(r"([a-z_]+)"))

#: (release, template, language, slots) -> the page cut at its marks: text, slot, text, ...
_kept: dict[tuple[str, str, str, tuple[str, ...]], list[str]] = {}


def skeleton_render(
    request: HttpRequest,
    *,
    template_name: str,
    context: Mapping[str, Any],
    slots: Mapping[str, str],
) -> str:
    """The page `template_name` renders with `context` and `slots` (context names → their
    values, already escaped text or markup), from the kept skeleton of the page."""
    key = (release(), template_name, get_language(), tuple(sorted(slots)))
    parts = _kept.get(key)
    if parts is None:
        marked = {name: mark_safe(_MARK.format(name)) for name in slots}
        page = render_to_string(template_name, {**context, **marked}, request=request)
        parts = _MARKS.split(page)
        if not settings.DEBUG:
            _kept[key] = parts
    # parts: text, slot name, text, slot name, ..., text
    return "".join(slots[part] if i % 2 else part for i, part in enumerate(parts))
