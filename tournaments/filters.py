"""Filters of the public tournament list (django-filter), shared with the API."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from periods.models import RatingPeriod, RatingSystem
from tournaments.models import Tournament, TournamentPlayer, TournamentStatus


class TournamentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label=_("Name or city"))
    rating_system = django_filters.ModelChoiceFilter(
        queryset=RatingSystem.objects.order_by("name"),
        field_name="rating_system",
        to_field_name="code",
        label=_("Rating system"),
        empty_label=_("All"),
    )
    period = django_filters.ModelChoiceFilter(
        queryset=RatingPeriod.objects.select_related("system").order_by("-start"),
        field_name="period",
        label=_("Rating period"),
        empty_label=_("All"),
    )
    status = django_filters.ChoiceFilter(
        choices=TournamentStatus.choices, label=_("Status"), empty_label=_("All")
    )
    # A tournament has no region of its own: it is in a region's list if players of that
    # territorial federation played in it.
    region = django_filters.CharFilter(method="filter_region", label=_("Players' region"))
    ended_after = django_filters.DateFilter(
        field_name="end_date",
        lookup_expr="gte",
        label=_("Ended on or after"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    ended_before = django_filters.DateFilter(
        field_name="end_date",
        lookup_expr="lte",
        label=_("Ended on or before"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    class Meta:
        model = Tournament
        fields: list[str] = []

    def filter_q(self, queryset: QuerySet[Tournament], name: str, value: str) -> Any:
        return queryset.filter(Q(name__icontains=value) | Q(city__icontains=value))

    def filter_region(self, queryset: QuerySet[Tournament], name: str, value: str) -> Any:
        players = TournamentPlayer.objects.filter(tournament=OuterRef("pk"), player__region=value)
        return queryset.filter(Exists(players))
