"""``{% language_links as languages %}``: the language links of every page (templates/base.html),
each language's code, its own name and the address of its switch (``core.views.language_switch``),
as ``{% get_available_languages %}``, ``{% get_language_info_list %}`` and ``{% url 'language'
code %}`` give them, worked out once per script prefix, URL configuration and list of languages
rather than on every page: they were about half of the layout's rendering on an anonymous page
(docs/benchmarks.md, "Cold searches at three times the hello view")."""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language_info

register = template.Library()


@functools.lru_cache(maxsize=16)
def _links(prefix: str, urlconf: str | None, codes: tuple[str, ...]) -> tuple[dict[str, str], ...]:
    return tuple(
        {
            "code": code,
            "name_local": get_language_info(code)["name_local"],
            "url": reverse("language", args=[code], urlconf=urlconf),
        }
        for code in codes
    )


@register.simple_tag
def language_links() -> tuple[dict[str, str], ...]:
    codes = tuple(code for code, _name in settings.LANGUAGES)
    # The URL configuration named (not None): a changed ROOT_URLCONF is another key.
    return _links(get_script_prefix(), get_urlconf(settings.ROOT_URLCONF), codes)
