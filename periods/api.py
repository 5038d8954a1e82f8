"""The /systems/ resource (rating systems, public reads) and the serializer of a rating period.
The /periods/ resource (public reads and the officers' calculate, progress, publish) is served
by ratings/api/periods.py, its one home: the actions need the ratings app."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, viewsets

from core.api.permissions import Rule
from periods.models import LISTED_FIELDS, RatingPeriod, RatingSystem
from rating_engine.registry import get_regulation

BROWSE = Rule("ratings.browse_lists")


class CompetitionKindSerializer(serializers.Serializer[Any]):
    """A kind of competition the system's regulation names (its facts.competition)."""

    id = serializers.CharField(help_text="A tournament's `kind`.")
    name = serializers.CharField(help_text="What the forms show, in the language asked.")
    championship_rated = serializers.IntegerField(
        allow_null=True,
        help_text="A round robin of this kind is rated with this many rated players "
        "(fide-2000 6.33, feda-1996 7.33); null: the general composition rules.",
    )
    national = serializers.BooleanField(help_text="A national championship (feda-1996 9.4).")
    women = serializers.BooleanField()
    virtual_rating = serializers.IntegerField(
        allow_null=True,
        help_text="An unrated opponent's virtual rating in it, without ICCF, FPX or FIDE "
        "rating (cnxc-2000 5.3).",
    )
    article = serializers.CharField()


class RatingSystemSerializer(serializers.ModelSerializer[RatingSystem]):
    competition_kinds = serializers.SerializerMethodField(
        help_text="The kinds of competition the regulation names, a tournament's `kind`."
    )

    @extend_schema_field(CompetitionKindSerializer(many=True))
    def get_competition_kinds(self, system: RatingSystem) -> list[dict[str, Any]]:
        kinds = get_regulation(system.ruleset).facts.competition.kinds
        if kinds is None:
            return []
        return [
            {
                "id": k.id,
                "name": _(k.label),
                "championship_rated": k.championship_rated,
                "national": k.national,
                "women": k.women,
                "virtual_rating": k.virtual_rating,
                "article": kinds.article,
            }
            for k in kinds.value
        ]

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
            "competition_kinds",
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
