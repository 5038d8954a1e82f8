"""The Jinja2 environment of the rows of the busiest public pages (settings TEMPLATES, engine
"jinja2"; templates in templates/jinja2/).

Why a second engine: a first render of a list page after a publication spent about two thirds
of its CPU in Django's template engine, most of it on the 100 rows' ~1,500 variables and
filters (each resolved, localized and escaped by a chain of calls); a card's history and the
search's results likewise. The same rows as a compiled Jinja2 template cost about a third
(docs/caching.md, "Rows as Jinja2 fragments"; figures in docs/benchmarks.md, "First renders after
a publication"). The pages stay Django templates, with their
fragment caching, and include the rows with ``{% jinja "…" %}``
(core/templatetags/jinja_fragments.py), which passes them the page's context.

What the rows may use, beside Jinja2's own:
- ``_("…")``: Django's gettext, in the page's language (makemessages finds ``_("…")`` in these
  templates as in Django's: keep every translated literal in that form, placeholders as
  ``%(name)s`` filled by ``|format(name=…)``, the message {% blocktranslate %} would write);
- ``url(name, *args)``: ``reverse()``; ``rating_chart(points, link, label, ident)``: the
  card's chart (ratings' rating_chart); ``missing_cell(key)`` for a column a row has no cell
  for (an error in debug);
- the filters ``card_url`` and ``for_player`` (players' player_links: a player's card, a link
  reversed once for every player), ``for_list`` (a link reversed once for every list),
  ``card_flag_legend``, ``date`` (Django's ``date_format`` kept per language, ratings'
  date_label: ``d|date("YEAR_MONTH_FORMAT")``) and ``floatformat`` (Django's).

In debug an undefined name is an error (StrictUndefined), as a column without its cell is."""

from __future__ import annotations

from typing import Any

import jinja2
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from markupsafe import Markup

from players.templatetags.player_links import card_url, for_player
from ratings.templatetags.card_flags import card_flag_legend
from ratings.templatetags.rating_chart import date_label, for_list, rating_chart


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def missing_cell(key: str) -> Markup:
    """A column of a regulation's layout that a row template has no cell for: an error in
    debug, an empty cell otherwise (the row keeps its columns under their headings)."""
    if settings.DEBUG:
        raise jinja2.TemplateRuntimeError(f"no cell for the column {key!r}")
    return Markup("<td></td>")


def environment(**options: Any) -> jinja2.Environment:
    options.setdefault("undefined", jinja2.StrictUndefined if settings.DEBUG else jinja2.Undefined)
    env = jinja2.Environment(**options)
    # Old-style gettext: ``_("…")`` is the translation, formatted apart where it has
    # placeholders (``_("… %(system)s …")|format(system=…)``), so that makemessages reads every
    # message as ``_("…")`` and a message is the one {% blocktranslate %} writes.
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(url=url, missing_cell=missing_cell, rating_chart=rating_chart)
    env.filters.update(
        card_url=card_url,
        for_player=for_player,
        for_list=for_list,
        card_flag_legend=card_flag_legend,
        date=date_label,
        floatformat=floatformat,
    )
    return env
