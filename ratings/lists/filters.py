"""Filters of a published list's entries (django-filter): name, region, club, sex, age group,
title, active only, and the sort. Name, region and club take any case and a part (issue 24
item 7: ``?region=catalunya`` finds "Catalunya", ``?club=terras`` "C.E. Terrassa"; the name's
words in any order, accents ignored, as the player search); region and club offer the list's
own values as a choice list (a datalist: typing stays free). Shared by the list page and the
API (a FilterSet works with DRF's DjangoFilterBackend as with a plain QueryDict).

Age groups are by year of birth against the list's year, as FIDE's lists do: "under 20" is
born in or after (list year - 20); "50 and over" born in or before (list year - 50)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import F, Q, QuerySet
from django.forms.renderers import Jinja2
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from players.models import Sex, Title
from players.names import fold
from ratings.models import ACTIVE_ENTRY_STATUSES, LIST_AGE_GROUPS, ListEntry

#: (code, label, youngest or oldest age): "u" under, "s" at least (ratings.models: the
#: publication counts the entries of each, ratings.publication.counts).
AGE_GROUPS: list[tuple[str, Any, int]] = LIST_AGE_GROUPS

#: Sort keys of the list page: key -> ORDER BY. Rating first (the (list, rating) index serves
#: it), unrated entries last.
SORTS: dict[str, list[Any]] = {
    "rating": [F("rating").desc(nulls_last=True), "player_id"],
    "-rating": [F("rating").asc(nulls_last=True), "player_id"],
    "name": ["player__name_key", "player_id"],
    "-name": ["-player__name_key", "-player_id"],
    "change": [F("change").desc(), "player_id"],
    "-change": [F("change").asc(), "player_id"],
    "games": [F("games").desc(), "player_id"],
}
SORT_LABELS: dict[str, Any] = {
    "rating": _("Rating, highest first"),
    "-rating": _("Rating, lowest first"),
    "name": _("Name, A to Z"),
    "-name": _("Name, Z to A"),
    "change": _("Change, largest gain first"),
    "-change": _("Change, largest loss first"),
    "games": _("Games, most first"),
}

#: The sections a list may publish (rating_engine.list_layout.Section), as a page names them.
SECTION_LABELS: dict[str, Any] = {
    "active": _("Active players"),
    "inactive": _("Inactive players (published apart)"),
    "titled_unrated": _("Titled players without a rating"),
}

#: Statuses of a player who is on the list and active (fide 2024: rated, new or provisional).
ACTIVE_STATUSES = list(ACTIVE_ENTRY_STATUSES)


def age_group_condition(*, code: str, year: int, field: str = "player__birth_year") -> Q | None:
    for group, _label, age in AGE_GROUPS:
        if group == code:
            if code.startswith("u"):
                return Q(**{f"{field}__gte": year - age})
            return Q(**{f"{field}__lte": year - age})
    return None


def name_words(text: str) -> list[str]:
    """The folded words of a name typed in a filter (players.names.fold: accents and case)."""
    return [w for w in fold(text).split() if w][:6]


def name_condition(*, text: str, field: str = "player__name_key") -> Q:
    """Every word of `text` is part of the folded name, in any order."""
    condition = Q()
    for word in name_words(text):
        condition &= Q(**{f"{field}__contains": word})
    return condition


class DatalistInput(forms.TextInput):
    """A text box with the known values offered as a choice list (``<datalist>``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options: list[str] = []

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        if not self.options:
            return super().render(name, value, attrs, renderer)
        box = super().render(name, value, {**(attrs or {}), "list": f"{name}-values"}, renderer)
        options = format_html_join("", '<option value="{}">', ((o,) for o in self.options))
        return format_html('{}<datalist id="{}-values">{}</datalist>', box, name, options)


class ListFilterForm(forms.Form):
    """The list page's filter form, its widgets rendered by Django's Jinja2 form renderer: the
    default renders each ``<option>`` of a select through a template of its own, 8 ms of the
    first page of each filter combination after a publication (docs/benchmarks.md, "First
    renders after a publication"). The same widgets, Django's own templates for Jinja2."""

    default_renderer = Jinja2()


class ListEntryFilter(django_filters.FilterSet):
    """Filters one list's entries; `list_year` (the list date's year) anchors the age groups."""

    name = django_filters.CharFilter(
        method="filter_name",
        label=_("Name"),
        max_length=120,
        help_text=_("Part of the name, any case, words in any order."),
    )
    region = django_filters.CharFilter(
        field_name="player__region",
        lookup_expr="icontains",
        label=_("Region"),
        max_length=80,
        widget=DatalistInput,
    )
    club = django_filters.CharFilter(
        field_name="player__club",
        lookup_expr="icontains",
        label=_("Club"),
        max_length=120,
        widget=DatalistInput,
    )
    sex = django_filters.ChoiceFilter(
        field_name="player__sex", choices=Sex.choices, label=_("Sex"), empty_label=_("All")
    )
    age = django_filters.ChoiceFilter(
        choices=[(code, label) for code, label, _a in AGE_GROUPS],
        method="filter_age",
        label=_("Age group"),
        empty_label=_("All"),
    )
    title = django_filters.ChoiceFilter(
        field_name="player__title", choices=Title.choices, label=_("Title"), empty_label=_("All")
    )
    active = django_filters.BooleanFilter(
        method="filter_active", label=_("Active only"), widget=forms.CheckboxInput
    )
    # Issue 24 item 2: the section shown (the selector restricts the entries to it,
    # ratings.lists.selectors.list_entry_filter; the regulation's facts say which exist).
    section = django_filters.ChoiceFilter(
        choices=list(SECTION_LABELS.items()),
        method="filter_section",
        label=_("Section"),
        empty_label=None,
    )
    sort = django_filters.ChoiceFilter(
        choices=list(SORT_LABELS.items()),
        method="filter_sort",
        label=_("Sort by"),
        empty_label=None,
    )

    class Meta:
        model = ListEntry
        fields: list[str] = []
        form = ListFilterForm

    def __init__(self, *args: Any, list_year: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.list_year = list_year

    def filter_name(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        return queryset.filter(name_condition(text=value)) if value else queryset

    def filter_age(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        condition = age_group_condition(code=value, year=self.list_year)
        return queryset.filter(condition) if condition is not None else queryset

    def filter_active(self, queryset: QuerySet[ListEntry], name: str, value: bool | None) -> Any:
        if value:
            return queryset.filter(inactive=False, status__in=ACTIVE_STATUSES)
        return queryset

    def filter_section(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        return queryset  # applied to the queryset the filters start from

    def filter_sort(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        return queryset.order_by(*SORTS.get(value, SORTS["rating"]))
