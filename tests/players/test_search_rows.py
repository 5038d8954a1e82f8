"""The search's result rows, written in Python for speed (players/templatetags/search_rows.py),
give the HTML the row template gave: both rendered and compared over players with every kind
of value (no title, no FIDE rating, an ID with other characters, text that needs escaping)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from tests.factories import make_player

pytestmark = pytest.mark.django_db

# The rows as players/_results.html wrote them before search_rows (commit 13462d1).
TEMPLATE_ROWS = (
    "{% load player_links %}{% url 'players:detail' '0' as card0 %}\n"
    "{% for p in players %}\n"
    '<tr><td>{{ p.fed_id }}</td><td><a href="{{ p.fed_id|card_link:card0 }}">{{ p.surname }}, '
    "{{ p.given_name }}</a></td><td>{{ p.title }}</td><td>{{ p.club }}</td><td>{{ p.region }}"
    '</td><td class="num">{{ p.fide_standard|default:"" }}</td></tr>\n{% endfor %}'
)


def test_the_rows_are_the_templates_rows() -> None:
    players = [
        make_player(title="GM", club="CA <Oviedo> & 93", region="Asturias", fide_standard=2620),
        make_player(surname="<script>alert(1)</script>", given_name='Zoë "Q" O\'Brien'),
        make_player(fed_id="AB-12", fide_standard=None, region=""),
        make_player(fed_id="X Y.1", club="Peón & Torre"),  # reversed and quoted, not formatted
    ]
    context = Context({"players": players})
    expected = Template(TEMPLATE_ROWS).render(context)
    got = Template("{% load search_rows %}\n{% search_rows players %}").render(context)
    assert got == expected
    assert "&lt;script&gt;" in got and "<script>" not in got
