"""The rows of the player search's results, written in Python.

Hand-written on purpose (the developers' guide allows it where a benchmark needs it): issue 13
asks 600 searches a second, and on a first request the template engine spent most of a
50-row page's time resolving variables per cell. This writes the same HTML as the row template
it replaces (tests/players/test_search_rows.py renders both and compares them), every text
escaped.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from core.html import escape_text
from players.templatetags.player_links import card_link

register = template.Library()


@register.simple_tag
def search_rows(players: Any) -> SafeString:
    """The <tr> of each player found: federation ID, name linking to the card, title, club,
    region and FIDE standard rating."""
    e_ = escape_text
    card0 = reverse("players:detail", args=["0"])
    rows = [
        f'\n<tr><td>{e_(p.fed_id)}</td><td><a href="{e_(card_link(p.fed_id, card0))}">'
        f"{e_(p.surname)}, {e_(p.given_name)}</a></td><td>{e_(p.title)}</td>"
        f"<td>{e_(p.club)}</td><td>{e_(p.region)}</td>"
        f'<td class="num">{p.fide_standard or ""}</td></tr>\n'
        for p in players
    ]
    return mark_safe("".join(rows))  # every value above is escaped
