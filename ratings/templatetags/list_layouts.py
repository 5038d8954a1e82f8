"""``{% list_layout list as layout %}``: the columns and sections a published list shows, from
its regulation's facts (ratings.lists.layouts, issue 24)."""

from __future__ import annotations

from typing import Any

from django import template

from ratings.lists.layouts import list_layout_page

register = template.Library()


@register.simple_tag
def list_layout(published: Any) -> dict[str, Any]:
    return list_layout_page(published=published)
