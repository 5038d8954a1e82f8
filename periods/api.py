"""The /systems/ resource (rating systems, public reads) and the serializer of a rating period.
The /periods/ resource (public reads and the officers' calculate, progress, publish) is served
by ratings/api/periods.py, its one home: the actions need the ratings app."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from periods.models import LISTED_FIELDS, RULESET_CHOICES, RatingPeriod, RatingSystem, SystemRuleset
from periods.rulesets import system_ruleset_add, system_ruleset_on, system_timeline
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


class SystemRulesetSerializer(serializers.ModelSerializer[SystemRuleset]):
    """An entry of the system's timeline (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1)."""

    parameters = serializers.JSONField(
        allow_null=True,
        help_text="null: the system's parameters (when the regulation set is the system's "
        "own), else the regulation's defaults.",
    )

    class Meta:
        model = SystemRuleset
        fields = ["ruleset", "effective_from", "parameters", "created_at"]
        read_only_fields = fields


class SystemRulesetAddSerializer(StrictSerializer):
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES)
    effective_from = serializers.DateField(
        help_text="It applies to the tournaments starting on or after this day."
    )
    parameters = serializers.DictField(
        required=False, help_text="The regulation's parameters; absent: its defaults."
    )


class RatingSystemSerializer(serializers.ModelSerializer[RatingSystem]):
    competition_kinds = serializers.SerializerMethodField(
        help_text="The kinds of competition the regulation in force today names (a "
        "tournament's `kind` is checked against the regulation in force on its start date)."
    )
    rulesets = serializers.SerializerMethodField(
        help_text="The timeline of regulation sets, oldest first: each applies to the "
        "tournaments starting on or after its date; the first also to any earlier day. "
        "`ruleset` names the newest. Empty: the system's `ruleset` from the start."
    )

    @extend_schema_field(SystemRulesetSerializer(many=True))
    def get_rulesets(self, system: RatingSystem) -> list[dict[str, Any]]:
        return list(SystemRulesetSerializer(system_timeline(system=system), many=True).data)

    @extend_schema_field(CompetitionKindSerializer(many=True))
    def get_competition_kinds(self, system: RatingSystem) -> list[dict[str, Any]]:
        in_force = system_ruleset_on(system=system, day=timezone.localdate())
        kinds = get_regulation(in_force.ruleset).facts.competition.kinds
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
            "rulesets",
        ]
        read_only_fields = fields


class RatingSystemViewSet(viewsets.ReadOnlyModelViewSet[RatingSystem]):
    """The lists the office publishes, each rated under one regulation set."""

    serializer_class = RatingSystemSerializer
    queryset = RatingSystem.objects.order_by("name", "id")
    lookup_field = "code"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    filterset_fields = ["is_active", "ruleset", "rate_of_play"]
    rules = {
        "list": BROWSE,
        "retrieve": BROWSE,
        "rulesets": Rule("periods.manage_rulesets", on_object=True),
    }

    @extend_schema(request=SystemRulesetAddSerializer, responses={201: SystemRulesetSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def rulesets(self, request: Request, code: str | None = None) -> Response:
        """Add an entry to the system's timeline (officers): from `effective_from` on, the
        tournaments starting on or after it are rated under `ruleset`. 409 when it would
        change the regulation of a published period, or the day has an entry."""
        system = self.get_object()
        body = SystemRulesetAddSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = system_ruleset_add(
            system=system,
            ruleset=body.validated_data["ruleset"],
            effective_from=body.validated_data["effective_from"],
            parameters=body.validated_data.get("parameters"),
            user=request.user,
        )
        entry.refresh_from_db()
        return Response(SystemRulesetSerializer(entry).data, status=status.HTTP_201_CREATED)


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
