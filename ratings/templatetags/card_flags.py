"""The legend under the player card's ratings: what each badge shown on it means, once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

register = template.Library()


@register.filter
def card_flag_legend(cards: Iterable[Any]) -> list[tuple[str, str]]:
    """(badge, meaning) for every badge on the cards (ratings.cards.selectors.SystemCard, which
    this layer does not import), each once, in the order first shown."""
    seen: dict[str, str] = {}
    for card in cards:
        for flag, meaning in card.explained_flags:
            seen.setdefault(flag, meaning)
    return list(seen.items())
