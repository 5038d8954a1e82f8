"""The scale's health in the API (feda-1996 11.1-11.2, fide-2000 12.1-12.3): the figures of
each published list (/statistics/: whole list, regions, age bands; public) and a system's drift
check settings (/scale-monitoring/<code>/: officers read and set them, as on the page)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Exists, OuterRef, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from periods.models import RatingSystem
from ratings.models import ListStatistics, PublishedList, ScaleMonitoring, StatisticsScope
from ratings.statistics import selectors, services

BROWSE = Rule("ratings.browse_lists")
MONITOR = Rule("ratings.monitor_scale")


class ListStatisticsSerializer(serializers.ModelSerializer[ListStatistics]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )
    list = serializers.IntegerField(source="published_list_id", read_only=True)
    mean = serializers.FloatField(
        allow_null=True, read_only=True, help_text="The mean rating of the rated players."
    )
    top50 = serializers.FloatField(
        allow_null=True,
        read_only=True,
        help_text="The average rating of the top 50 (all of them when fewer): the group the "
        "drift check watches (feda-1996 11.1, fide-2000 12.3).",
    )
    deciles = serializers.ListField(
        child=serializers.FloatField(), read_only=True, help_text="The 1st to 9th deciles."
    )

    class Meta:
        model = ListStatistics
        fields = [
            "id",
            "system",
            "list",
            "list_date",
            "scope",
            "group",
            "players",
            "active",
            "new",
            "mean",
            "median",
            "deciles",
            "top50",
            "top10",
            "mean_change",
            "computed_at",
        ]
        read_only_fields = fields


class ListStatisticsFilter(django_filters.FilterSet):
    system = django_filters.CharFilter(field_name="system__code", help_text="A system's code.")
    scope = django_filters.ChoiceFilter(choices=StatisticsScope.choices)
    group = django_filters.CharFilter(help_text="A region's name or an age band's code.")
    current = django_filters.BooleanFilter(
        method="filter_current", help_text="Only the current version of each period's list."
    )
    list_date_after = django_filters.DateFilter(field_name="list_date", lookup_expr="gte")
    list_date_before = django_filters.DateFilter(field_name="list_date", lookup_expr="lte")

    class Meta:
        model = ListStatistics
        fields: list[str] = []

    def filter_current(
        self, queryset: QuerySet[ListStatistics], name: str, value: bool | None
    ) -> QuerySet[ListStatistics]:
        if value is None:
            return queryset
        later = PublishedList.objects.filter(
            period_id=OuterRef("published_list__period_id"),
            version__gt=OuterRef("published_list__version"),
        )
        return queryset.exclude(Exists(later)) if value else queryset.filter(Exists(later))


class ListStatisticsViewSet(viewsets.ReadOnlyModelViewSet[ListStatistics]):
    """The figures of each published list, for the whole list (scope "all"), each region and
    each age band: players, active, new, mean, median, deciles, top-50 and top-10 averages,
    mean change. Newest first."""

    serializer_class = ListStatisticsSerializer
    filterset_class = ListStatisticsFilter
    rules = {"list": BROWSE, "retrieve": BROWSE}

    def get_queryset(self) -> QuerySet[ListStatistics]:
        return ListStatistics.objects.select_related("system").order_by(
            "-list_date", "system__code", "scope", "group", "-id"
        )


class ScaleMonitoringSerializer(serializers.ModelSerializer[ScaleMonitoring]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )
    article = serializers.SerializerMethodField(
        help_text="The article that asks for the watch; null: the regulation asks for none."
    )

    class Meta:
        model = ScaleMonitoring
        fields = ["system", "threshold", "lists", "article", "updated_at"]
        read_only_fields = ["system", "article", "updated_at"]

    def get_article(self, obj: ScaleMonitoring) -> str | None:
        watch = selectors.monitoring_article(system=obj.system)
        return None if watch is None else watch[1]


class ScaleMonitoringUpdateSerializer(StrictSerializer):
    threshold = serializers.FloatField(min_value=0.1, max_value=1000)
    lists = serializers.IntegerField(min_value=1, max_value=60)


class ScaleMonitoringViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet[ScaleMonitoring]):
    """A rating system's drift check (officers): the top-50 average may move ``threshold``
    points over ``lists`` lists before the officers are told (feda-1996 11.1, fide-2000 12.3).
    The defaults until an officer sets them."""

    serializer_class = ScaleMonitoringSerializer
    lookup_field = "code"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    rules = {"retrieve": MONITOR, "update": MONITOR}
    queryset = ScaleMonitoring.objects.none()

    def get_object(self) -> ScaleMonitoring:
        system = get_object_or_404(RatingSystem, code=self.kwargs["code"])
        return selectors.scale_monitoring_of(system=system)

    @extend_schema(request=ScaleMonitoringUpdateSerializer, responses=ScaleMonitoringSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Set the threshold and the number of lists."""
        current = self.get_object()
        body = ScaleMonitoringUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        saved = services.scale_monitoring_update(
            system=current.system,
            threshold=body.validated_data["threshold"],
            lists=body.validated_data["lists"],
            user=request.user,
        )
        return Response(ScaleMonitoringSerializer(saved).data)
