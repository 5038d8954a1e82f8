"""A published list's layout as the page and the API show it (issue 24 items 1-2): the columns
and sections its regulation's facts declare (rating_engine/list_layout.py), with their labels
in the reader's language and their articles."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from rating_engine.list_layout import FIDE_TITLES, ListLayout, list_layout_of
from ratings.lists.filters import SECTION_LABELS
from ratings.models import PublishedList

#: Every column a regulation may publish (rating_engine.list_layout.ListColumn), as named.
COLUMN_LABELS: dict[str, Any] = {
    "fide_id": _("FIDE ID"),
    "fed_id": _("Federation ID"),
    "name": _("Name"),
    "title": _("Title"),
    "fide_title": _("FIDE title"),
    "federation": _("Federation"),
    "region": _("Territorial federation"),
    "club": _("Club"),
    "rating": _("Rating"),
    "provisional": _("Provisional"),
    "change": _("Change"),
    "birth_date": _("Birth date"),
    "birth_year": _("Birth year"),
    "sex": _("Sex"),
    "activity": _("Active/inactive"),
    "k": "K",
    "games": _("Games"),
    "total_games": _("Total games"),
    "games_k25": _("Games at K 25"),
    "section": _("Section"),
}
_NUMERIC = frozenset({"rating", "change", "k", "games", "total_games", "games_k25", "birth_year"})
#: Shown as a badge next to the name on the page, not as a column of their own.
_NAME_BADGES = frozenset({"title", "fide_title"})


def list_published_fields() -> dict[str, Any]:
    """``values()`` expressions of what a list published of the player: the entry's own field,
    else (lists published before issue 24) the player's, named ``published_<field>``."""
    return {
        f"published_{name}": Coalesce(F(name), F(f"player__{name}"))
        for name in ("title", "federation", "region", "club", "birth_date", "birth_year")
    }


def list_layout(*, published: PublishedList) -> ListLayout:
    return list_layout_of(published.ruleset)


def list_layout_page(*, published: PublishedList) -> dict[str, Any]:
    """What the list page needs: the columns (name and federation ID first, the title a badge
    next to the name, then the regulation's columns in its article's order), the article,
    the sections the regulation publishes and whether the title shown is FIDE's only."""
    layout = list_layout(published=published)
    columns = layout.columns.value
    keys = ["name", "fed_id", *[c for c in columns if c not in ("name", "fed_id", *_NAME_BADGES)]]
    articles = layout.section_articles()
    return {
        "article": layout.columns.article,
        "page_columns": [
            {"key": key, "label": COLUMN_LABELS[key], "numeric": key in _NUMERIC} for key in keys
        ],
        "badge": "fide_title" if "fide_title" in columns else "title" if "title" in columns else "",
        "fide_titles": sorted(FIDE_TITLES),
        "sections": [
            {"key": key, "label": SECTION_LABELS[key], "article": articles[key]}
            for key in layout.sections()
        ],
        "left_out": articles.get("left_out", ""),
    }


def list_layout_api(*, published: PublishedList) -> dict[str, Any]:
    """The API's description of a list's layout: every column of the downloads in order (the
    FIDE ID and the federation ID first, the section last), the article, the sections."""
    layout = list_layout(published=published)
    articles = layout.section_articles()
    rest = [c for c in layout.columns.value if c not in ("fide_id", "fed_id")]
    keys = ["fide_id", "fed_id", *rest, "section"]
    return {
        "article": layout.columns.article,
        "columns": [{"key": key, "label": str(COLUMN_LABELS[key])} for key in keys],
        "sections": [
            {"key": key, "label": str(SECTION_LABELS[key]), "article": articles[key]}
            for key in layout.sections()
        ],
        "left_out_article": articles.get("left_out", ""),
    }
