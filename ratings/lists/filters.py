"""Filters of a published list's entries (django-filter): region, club, sex, age group, title,
active only, and the sort. Shared by the list page and the API (a FilterSet works with DRF's
DjangoFilterBackend as with a plain QueryDict).

Age groups are by year of birth against the list's year, as FIDE's lists do: "under 20" is
born in or after (list year - 20); "50 and over" born in or before (list year - 50)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from players.models import Sex, Title
from ratings.models import EntryStatus, ListEntry

#: (code, label, youngest or oldest age, direction): "u" under, "s" at least.
AGE_GROUPS: list[tuple[str, Any, int]] = [
    ("u8", _("Under 8"), 8),
    ("u10", _("Under 10"), 10),
    ("u12", _("Under 12"), 12),
    ("u14", _("Under 14"), 14),
    ("u16", _("Under 16"), 16),
    ("u18", _("Under 18"), 18),
    ("u20", _("Under 20 (juniors)"), 20),
    ("s50", _("50 and over (seniors)"), 50),
    ("s65", _("65 and over"), 65),
]

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

#: Statuses of a player who is on the list and active (fide 2024: rated, new or provisional).
ACTIVE_STATUSES = [EntryStatus.RATED, EntryStatus.NEW, EntryStatus.PROVISIONAL]


def age_group_condition(*, code: str, year: int, field: str = "player__birth_year") -> Q | None:
    for group, _label, age in AGE_GROUPS:
        if group == code:
            if code.startswith("u"):
                return Q(**{f"{field}__gte": year - age})
            return Q(**{f"{field}__lte": year - age})
    return None


class ListEntryFilter(django_filters.FilterSet):
    """Filters one list's entries; `list_year` (the list date's year) anchors the age groups."""

    region = django_filters.CharFilter(field_name="player__region", label=_("Region"))
    club = django_filters.CharFilter(field_name="player__club", label=_("Club"))
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
    sort = django_filters.ChoiceFilter(
        choices=list(SORT_LABELS.items()),
        method="filter_sort",
        label=_("Sort by"),
        empty_label=None,
    )

    class Meta:
        model = ListEntry
        fields: list[str] = []

    def __init__(self, *args: Any, list_year: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.list_year = list_year

    def filter_age(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        condition = age_group_condition(code=value, year=self.list_year)
        return queryset.filter(condition) if condition is not None else queryset

    def filter_active(self, queryset: QuerySet[ListEntry], name: str, value: bool | None) -> Any:
        if value:
            return queryset.filter(inactive=False, status__in=ACTIVE_STATUSES)
        return queryset

    def filter_sort(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        return queryset.order_by(*SORTS.get(value, SORTS["rating"]))
