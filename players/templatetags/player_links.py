"""Links to player cards without reversing a URL per row (the search's results table)."""

from __future__ import annotations

import re

from django import template
from django.urls import reverse

register = template.Library()

#: A federation ID that a URL carries as it is (the registry's rule: letters, digits, hyphens).
_PLAIN_ID = re.compile(r"[0-9A-Za-z\-]+")


@register.filter
def card_link(fed_id: str, link: str) -> str:
    """The card of `fed_id`, from `link`, the card's URL reversed once with "0" as the ID:
    the same address `{% url 'players:detail' fed_id %}` gives, reversed once per table
    instead of once per row. An ID with other characters is reversed (and quoted) itself."""
    if link.endswith("/0/") and _PLAIN_ID.fullmatch(fed_id or ""):
        return f"{link[:-2]}{fed_id}/"
    return reverse("players:detail", args=[fed_id])
