"""The cells of a list's row, chosen once per table (issue 29: the row template tested every
column's key against an ``if/elif`` chain in every cell, about 11,000 variable lookups for a
page of 100 rows).

``{% cells columns %}`` holds one ``{% cell "key" %}…{% endcell %}`` per column a regulation may
publish (ratings.lists.layouts.COLUMN_LABELS), each written in the template, ``<td>`` and all;
for each row it renders the cells of `columns` (the layout's ``page_columns``: dicts with a
``key``), in their order, picked the first time the table renders and kept for the rest of it::

    {% for e in page.entries %}<tr>{% cells layout.page_columns %}
    {% cell "name" %}<td>{{ e.player.surname }}</td>{% endcell %}
    {% cell "rating" %}<td class="num">{{ e.rating }}</td>{% endcell %}
    {% endcells %}</tr>{% endfor %}

A column without a cell of its own renders nothing (a template error in debug: a column the
template forgot). Text between the cells is not rendered.

The rows' links to a player come from players' ``player_links`` (``card_url``, ``for_player``)."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


class CellsNode(Node):
    def __init__(self, columns: FilterExpression, cells: dict[str, NodeList]) -> None:
        self.columns = columns
        self.cells = cells
        self.nodelist = NodeList(node for nodelist in cells.values() for node in nodelist)

    def chosen(self, context: Context) -> list[NodeList]:
        """The cells of the table's columns, in order: chosen once per rendering of the
        template (Django's render context, as ``{% cycle %}`` keeps its state)."""
        columns = self.columns.resolve(context)
        kept = context.render_context.get(self)
        if kept is not None and kept[0] is columns:
            return kept[1]
        keys = [column["key"] for column in columns or ()]
        missing = [key for key in keys if key not in self.cells]
        if missing and settings.DEBUG:
            raise template.TemplateSyntaxError(f"no {{% cell %}} for the columns {missing}")
        chosen = [self.cells[key] for key in keys if key in self.cells]
        context.render_context[self] = (columns, chosen)
        return chosen

    def render(self, context: Context) -> SafeString:
        return mark_safe("".join([cell.render(context) for cell in self.chosen(context)]))


@register.tag("cells")
def do_cells(parser: Parser, token: Token) -> CellsNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% cells %} takes the list of columns")
    columns = parser.compile_filter(bits[1])
    cells: dict[str, NodeList] = {}
    while True:
        parser.parse(("cell", "endcells"))  # between the cells: not rendered
        tag = parser.next_token()
        if tag.contents == "endcells":
            break
        cell_bits = tag.split_contents()
        if len(cell_bits) != 2 or cell_bits[1][0] not in "\"'":
            raise template.TemplateSyntaxError('{% cell "key" %} names its column')
        key = cell_bits[1][1:-1]
        if key in cells:
            raise template.TemplateSyntaxError(f"two {{% cell %}} for the column {key!r}")
        cells[key] = parser.parse(("endcell",))
        parser.delete_first_token()
    return CellsNode(columns, cells)
