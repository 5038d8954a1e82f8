"""The /systems/ resource (rating systems, public reads) and the serializer of a rating period.
The /periods/ resource (public reads and the officers' calculate, progress, publish) is served
by ratings/api/periods.py, its one home: the actions need the ratings app."""

from __future__ import annotations

from rest_framework import serializers, viewsets

from core.api.permissions import Rule
from periods.models import LISTED_FIELDS, RatingPeriod, RatingSystem

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
