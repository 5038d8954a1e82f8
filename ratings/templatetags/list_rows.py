"""The rows of a list page's table, written in Python.

Hand-written on purpose (the developers' guide allows it where a benchmark needs it): issue 13
asks a list page of 100 entries within 50 ms at the 99th percentile, and on its first request
(nothing cached yet) the template engine spent about 120 µs per row resolving variables and
filters, most of a page's time. This writes the same HTML as the row template it replaces
(tests/ratings/test_list_rows.py renders both and compares them), with every text escaped.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.html import escape_text
from players.templatetags.player_links import card_link
from ratings.templatetags.rating_chart import choice_label

register = template.Library()


def _change(value: Any) -> str:
    """As `|stringformat:"+d"`: the signed change, nothing when there is none."""
    try:
        return f"{int(value):+d}" if value is not None else ""
    except (TypeError, ValueError):
        return ""


@register.simple_tag
def list_rows(page: Any, published: Any) -> SafeString:
    """The <tr> of each entry of `page` (ratings.lists.selectors.list_entries_page) of the
    list `published`: number, name and title, federation ID, club, rating and change linking
    to the player's calculation in this list, K, games, status with the i/p marks."""
    e_ = escape_text
    card0 = reverse("players:detail", args=["0"])
    inactive = f' <span class="badge" title="{e_(gettext("Inactive"))}">i</span>'
    provisional = f' <span class="badge" title="{e_(gettext("Provisional"))}">p</span>'
    list_pk = int(published.pk)
    rows = []
    for number, entry in enumerate(page.entries, start=page.start):
        player = entry.player
        fed_id = e_(player.fed_id)
        calc = f"/players/{fed_id}/lists/{list_pk}/"
        title = f' <span class="badge">{e_(player.title)}</span>' if player.title else ""
        rating = entry.rating if entry.rating else "—"
        rows.append(
            f'\n<tr><td class="num">{number}</td>'
            f'<td><a href="{e_(card_link(player.fed_id, card0))}">{e_(player.surname)}, '
            f"{e_(player.given_name)}</a>{title}</td>"
            f"<td>{fed_id}</td><td>{e_(player.club)}</td>"
            f'<td class="num"><a href="{calc}">{rating}</a></td>'
            f'<td class="num"><a href="{calc}">{_change(entry.change)}</a></td>'
            f'<td class="num">{entry.k or ""}</td><td class="num">{entry.games}</td>'
            f"<td>{e_(choice_label(entry, 'status'))}"
            f"{inactive if entry.inactive else ''}{provisional if entry.provisional else ''}"
            "</td></tr>\n"
        )
    return mark_safe("".join(rows))  # every value above is escaped
