"""Rating systems and their periods in the API (public reads). The officers' actions on a
period (calculate, progress, publish) are the ratings app's (ratings/api/periods.py)."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from core.api.permissions import Rule
from periods.models import LISTED_FIELDS, PeriodStatus, RatingPeriod, RatingSystem

BROWSE = Rule("ratings.browse_lists")


class RatingSystemSerializer(serializers.ModelSerializer[RatingSystem]):
    class Meta:
        model = RatingSystem
        fields = [
            "code",
            "name",
            "ruleset",
            "rate_of_play",
            "cycle",
            "protest_days",
            "registration_days",
            "is_active",
        ]
        read_only_fields = fields


class RatingSystemViewSet(viewsets.ReadOnlyModelViewSet[RatingSystem]):
    """The lists the office publishes, each rated under one regulation set."""

    serializer_class = RatingSystemSerializer
    queryset = RatingSystem.objects.order_by("name", "id")
    lookup_field = "code"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_fields = ["is_active", "ruleset", "rate_of_play"]
    rules = {"list": BROWSE, "retrieve": BROWSE}


class RatingPeriodSerializer(serializers.ModelSerializer[RatingPeriod]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )

    class Meta:
        model = RatingPeriod
        fields = [
            "id",
            *LISTED_FIELDS,
            "closed_at",
            "calculated_at",
            "published_at",
        ]
        read_only_fields = fields


class RatingPeriodFilter(django_filters.FilterSet):
    system = django_filters.CharFilter(field_name="system__code", help_text="A system's code.")
    status = django_filters.ChoiceFilter(choices=PeriodStatus.choices)
    start_after = django_filters.DateFilter(field_name="start", lookup_expr="gte")
    start_before = django_filters.DateFilter(field_name="start", lookup_expr="lte")

    class Meta:
        model = RatingPeriod
        fields = ["system", "status", "needs_recalculation"]


class RatingPeriodViewSet(viewsets.ReadOnlyModelViewSet[RatingPeriod]):
    """Rating periods: the span of games one list rates, newest first."""

    serializer_class = RatingPeriodSerializer
    filterset_class = RatingPeriodFilter
    rules = {"list": BROWSE, "retrieve": BROWSE}

    def get_queryset(self) -> QuerySet[RatingPeriod]:
        return RatingPeriod.objects.select_related("system").order_by(
            "-start", "system__code", "id"
        )
