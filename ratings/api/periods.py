"""The /periods/ resource, its one home: rating periods (public reads) and the officers' actions
on one: start a calculation, follow it, publish the draft (the same services and rules as the
period's page). The serializer of a period is periods/api.py's."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from periods import api as periods_api
from periods.models import PeriodStatus, RatingPeriod
from ratings.api.lists import PublishedListSerializer, lists_annotated
from ratings.calculation import runs
from ratings.calculation import selectors as calculation_selectors
from ratings.publication import services as publication
from ratings.rerating import selectors as rerating_selectors
from ratings.rerating import services as rerating
from tournaments import fide_export
from tournaments.api_fide import FORMAT_PARAMETER, TRF_RENDERERS, file_response, trf_version


class ListInForceSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    list = serializers.IntegerField(
        allow_null=True, help_text="The published list it was rated with; null: none in force."
    )
    article = serializers.CharField(help_text='"feda-1996 8.11".')


class ProgressSerializer(serializers.Serializer[Any]):
    run = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(allow_blank=True)
    progress = serializers.IntegerField()
    phase = serializers.CharField(allow_blank=True)
    done = serializers.BooleanField()
    error = serializers.CharField(allow_blank=True, required=False)
    players = serializers.IntegerField(required=False)
    games = serializers.IntegerField(required=False)
    lists_in_force = ListInForceSerializer(
        many=True,
        required=False,
        help_text="The list each tournament was rated with, chosen by its start date where the "
        "regulation says so (feda-1996 8.11); empty: every one with the period's list.",
    )


class RerateChainSerializer(serializers.Serializer[Any]):
    """A re-rating chain's progress: one bar over every period it re-rates."""

    job = serializers.IntegerField(help_text="The chain's id.")
    status = serializers.CharField()
    status_label = serializers.CharField()
    progress = serializers.IntegerField()
    message = serializers.CharField(allow_blank=True)
    done = serializers.BooleanField()
    stalled = serializers.BooleanField()
    periods_done = serializers.IntegerField(help_text="Periods whose new list is committed.")
    period_count = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True)


class CalibrationEntrySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    fed_id = serializers.CharField(source="player.fed_id")
    name = serializers.CharField(source="player.__str__")
    in_both_lists = serializers.BooleanField()
    reference = serializers.IntegerField(allow_null=True, help_text="Rating in the ICCF list.")
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()


class CalibrationSerializer(serializers.Serializer[Any]):
    """cnxc-2000 7.3: the calibration of the period's draft."""

    run = serializers.IntegerField(source="run_id")
    article = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]
    read_on = serializers.DateField(help_text="The day whose list in force was read.")
    list_date = serializers.DateField(allow_null=True)
    players = serializers.IntegerField(help_text="Players in both lists.")
    minimum_players = serializers.IntegerField()
    mean_difference = serializers.DecimalField(
        max_digits=8, decimal_places=3, allow_null=True, coerce_to_string=False
    )
    shift = serializers.IntegerField(help_text="Points added to every effective rating.")
    applied = serializers.BooleanField()
    reason = serializers.CharField()
    entries = CalibrationEntrySerializer(many=True, source="entries_list")


class PublishSerializer(StrictSerializer):
    note = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, help_text="Why this version."
    )


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

    serializer_class = periods_api.RatingPeriodSerializer
    filterset_class = RatingPeriodFilter
    rules = {
        "list": periods_api.BROWSE,
        "retrieve": periods_api.BROWSE,
        "calculate": Rule("periods.manage_period", on_object=True),
        "progress": Rule("periods.manage_period", on_object=True),
        "publish": Rule("ratings.publish_list", on_object=True),
        "rerate": Rule("ratings.publish_list", on_object=True),
        "rerating": Rule("ratings.publish_list", on_object=True),
        "calibration": Rule("periods.manage_period", on_object=True),
        "fide_batch": Rule("periods.manage_period", on_object=True),
    }

    def get_queryset(self) -> QuerySet[RatingPeriod]:
        return RatingPeriod.objects.select_related("system").order_by(
            "-start", "system__code", "id"
        )

    @extend_schema(
        parameters=[FORMAT_PARAMETER],
        responses={
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="One TRF per rated tournament of the period (fide-2024 9.1); "
                "SKIPPED.txt names those that cannot be written and why.",
            )
        },
        description="The period's batch for the FIDE Rating Server, a zip (officers).",
    )
    @action(
        detail=True,
        url_path="fide-batch",
        renderer_classes=TRF_RENDERERS,
        filter_backends=[],
        pagination_class=None,
    )
    def fide_batch(self, request: Request, pk: str | None = None) -> HttpResponse:
        period = self.get_object()
        version = trf_version(request)
        data = fide_export.period_fide_batch(period=period, version=version)
        name = f"fide-{period.system.code}-{period.start:%Y-%m}-{version}.zip"
        return file_response(data, filename=name, content_type="application/zip")

    def _progress(self) -> dict[str, Any]:
        period = self.get_object()
        run = calculation_selectors.run_latest(period=period)
        return calculation_selectors.run_progress(run=run)

    @extend_schema(request=None, responses={202: ProgressSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def calculate(self, request: Request, pk: str | None = None) -> Response:
        """Queue the period's calculation (officers); poll `progress` until `done`."""
        period = self.get_object()
        runs.calculation_request(period=period, user=request.user)
        return Response(ProgressSerializer(self._progress()).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=ProgressSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    def progress(self, request: Request, pk: str | None = None) -> Response:
        """The latest calculation's progress (officers)."""
        return Response(ProgressSerializer(self._progress()).data)

    @extend_schema(request=PublishSerializer, responses={201: PublishedListSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish the calculated draft as the next version of the period's list (officers)."""
        period = self.get_object()
        body = PublishSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        published = publication.list_publish(
            period=period, user=request.user, note=body.validated_data.get("note", "")
        )
        annotated = lists_annotated().get(pk=published.pk)
        return Response(
            PublishedListSerializer(annotated, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses={202: RerateChainSerializer})
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def rerate(self, request: Request, pk: str | None = None) -> Response:
        """Re-rate this period and every later calculated or published one, in order, in one
        worker job (officers); poll `rerating` until `done`."""
        period = self.get_object()
        chain = rerating.rerate_request(period=period, user=request.user)
        return Response(
            RerateChainSerializer(rerating_selectors.rerate_chain_progress(chain=chain)).data,
            status=status.HTTP_202_ACCEPTED,
        )

    @extend_schema(responses=RerateChainSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    def rerating(self, request: Request, pk: str | None = None) -> Response:
        """The progress of the latest re-rating chain through this period (officers); 404
        when none."""
        period = self.get_object()
        chain = rerating_selectors.rerate_chain_latest(period_id=period.pk)
        if chain is None:
            raise NotFound(_("This period has not been re-rated."))
        return Response(
            RerateChainSerializer(rerating_selectors.rerate_chain_progress(chain=chain)).data
        )

    @extend_schema(responses=CalibrationSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    def calibration(self, request: Request, pk: str | None = None) -> Response:
        """The calibration of the period's draft (cnxc-2000 7.3; officers): the list read, the
        players in both lists with their two ratings, the mean difference, applied or why
        not, each effective rating before and after. 404 when its regulation has none."""
        period = self.get_object()
        calibration = calculation_selectors.period_calibration(period=period)
        if calibration is None:
            raise NotFound(_("This calculation has no calibration."))
        calibration.entries_list = list(  # type: ignore[attr-defined]
            calculation_selectors.calibration_entries(calibration=calibration)
        )
        data = CalibrationSerializer(calibration).data
        return Response(data)
