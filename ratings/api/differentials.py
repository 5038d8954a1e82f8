"""The /differentials/ resource: a system's FIDE -> system differentials (fce 9.5), the
published ones for everybody, drafts too for officers; officers compute one from the lists
in force and publish it with its effective date (the same services and rules as the pages)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from periods.models import RatingSystem
from ratings.differentials import services
from ratings.models import Differential, DifferentialStatus


class BandSerializer(serializers.Serializer[Any]):
    start = serializers.IntegerField(source="from", help_text="Lowest FIDE rating of the band.")
    end = serializers.IntegerField(
        source="to", allow_null=True, help_text="Highest FIDE rating; null for the last band."
    )
    players = serializers.IntegerField()
    sum = serializers.IntegerField(help_text="Sum of (system rating − FIDE rating).")
    mean = serializers.CharField(allow_null=True, help_text="Two decimals; null when empty.")
    value = serializers.IntegerField(help_text="The value the calculation adds.")
    own = serializers.BooleanField(
        help_text="False when the band has too few players and takes the overall value."
    )


class DifferentialSerializer(serializers.ModelSerializer[Differential]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )
    bands = BandSerializer(many=True, read_only=True)

    class Meta:
        model = Differential
        fields = [
            "id",
            "system",
            "status",
            "computed_at",
            "players",
            "mean",
            "overall",
            "bands",
            "effective_date",
            "published_at",
        ]
        read_only_fields = fields


class ComputeSerializer(StrictSerializer):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", queryset=RatingSystem.objects.all(), help_text="A system's code."
    )


class DifferentialPublishSerializer(StrictSerializer):
    effective_date = serializers.DateField(
        help_text="Periods ending on or after this date read this differential."
    )


class DifferentialFilter(django_filters.FilterSet):
    system = django_filters.CharFilter(field_name="system__code", help_text="A system's code.")
    status = django_filters.ChoiceFilter(choices=DifferentialStatus.choices)

    class Meta:
        model = Differential
        fields = ["system", "status"]


class DifferentialViewSet(viewsets.ReadOnlyModelViewSet[Differential]):
    """FIDE -> system differentials (fce 9.5): published ones for everybody, drafts for
    officers; newest first."""

    serializer_class = DifferentialSerializer
    filterset_class = DifferentialFilter
    rules = {
        "list": Rule("ratings.view_differentials"),
        "retrieve": Rule("ratings.view_differentials"),
        "compute": Rule("ratings.manage_differential"),
        "publish": Rule("ratings.manage_differential"),
    }

    def get_queryset(self) -> QuerySet[Differential]:
        rows = Differential.objects.select_related("system").order_by("-computed_at", "-id")
        if not self.request.user.has_perm("ratings.manage_differential"):
            rows = rows.filter(status=DifferentialStatus.PUBLISHED)
        return rows

    @extend_schema(request=ComputeSerializer, responses={201: DifferentialSerializer})
    @action(detail=False, methods=["post"], filter_backends=[], pagination_class=None)
    def compute(self, request: Request) -> Response:
        """Compute a system's differential from the lists in force, as a draft (officers)."""
        body = ComputeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        system = get_object_or_404(RatingSystem, pk=body.validated_data["system"].pk)
        differential = services.differential_compute(system=system, user=request.user)
        return Response(DifferentialSerializer(differential).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DifferentialPublishSerializer, responses=DifferentialSerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish a draft from its effective date (officers)."""
        differential = self.get_object()
        body = DifferentialPublishSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        published = services.differential_publish(
            differential=differential,
            effective_date=body.validated_data["effective_date"],
            user=request.user,
        )
        return Response(DifferentialSerializer(published).data)
