"""The list page's rows, written in Python for speed (ratings/templatetags/list_rows.py), give
the HTML the row template gave: rendered both ways and compared, in two languages, over
entries with every kind of value (no rating, no change, negative change, K 0, titles, marks,
statuses, names and clubs that need escaping)."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template
from django.utils import translation

from ratings.lists import selectors as list_selectors
from tests.factories import make_period, make_player, make_published_list, make_system

pytestmark = pytest.mark.django_db

# The rows as ratings/_list_entries.html wrote them before list_rows (commit 28ba3d3).
TEMPLATE_ROWS = (
    "{% load i18n player_links rating_chart %}{% url 'players:detail' '0' as card0 %}"
    "{% for e in page.entries %}\n"
    '<tr><td class="num">{{ page.start|add:forloop.counter0 }}</td><td><a href="'
    '{{ e.player.fed_id|card_link:card0 }}">{{ e.player.surname }}, {{ e.player.given_name }}'
    '</a>{% if e.player.title %} <span class="badge">{{ e.player.title }}</span>{% endif %}'
    "</td><td>{{ e.player.fed_id }}</td><td>{{ e.player.club }}</td>"
    '<td class="num"><a href="/players/{{ e.player.fed_id }}/lists/{{ list.pk }}/">'
    '{{ e.rating|default:"—" }}</a></td><td class="num"><a href="/players/{{ e.player.fed_id }}'
    '/lists/{{ list.pk }}/">{{ e.change|stringformat:"+d" }}</a></td>'
    '<td class="num">{{ e.k|default:"" }}</td><td class="num">{{ e.games }}</td>'
    '<td>{{ e|choice_label:"status" }}{% if e.inactive %} <span class="badge" title="'
    "{% translate 'Inactive' %}\">i</span>{% endif %}{% if e.provisional %} "
    '<span class="badge" title="{% translate \'Provisional\' %}">p</span>{% endif %}'
    "</td></tr>\n{% endfor %}"
)


def test_the_rows_are_the_templates_rows() -> None:
    period = make_period(make_system())
    people: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"title": "GM", "club": "CA <Oviedo> & 93"}, {"rating": 2620, "change": 0, "k": 10}),
        ({"surname": "<script>alert(1)</script>"}, {"rating": None, "change": 0, "k": 0}),
        ({"fed_id": "AB-12"}, {"rating": 1500, "change": -17, "k": 40, "inactive": True}),
        ({"given_name": 'Zoë "Q" O\'Brien'}, {"rating": 1999, "change": 23, "games": 9}),
        ({"title": "WIM"}, {"rating": 2100, "change": 5, "provisional": True, "status": "new"}),
        ({}, {"rating": 1400, "status": "inactive", "inactive": True, "provisional": True}),
    ]
    players = [make_player(**fields) for fields, _entry in people]
    published = make_published_list(period, players, entries=[e for _f, e in people])
    page = list_selectors.list_entries_page(published=published, params={}, page=1)
    assert len(page.entries) == len(people)
    context = {"page": page, "list": published}
    for language in ("en", "es"):
        with translation.override(language):
            expected = Template(TEMPLATE_ROWS).render(Context(context))
            got = Template("{% load list_rows %}{% list_rows page list %}").render(Context(context))
        assert got == expected
    assert "&lt;script&gt;" in got and "<script>" not in got
    assert 'title="Inactivo">i</span>' in got  # the marks' titles in the reader's language
