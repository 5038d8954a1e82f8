"""The export to FIDE in the API (fide-2024 9.1): a tournament's TRF written from the stored,
matched and corrected data (``tournaments.fide_export``), and the officer's record that it was
sent to the FIDE Rating Server (``tournaments.services.fide_sent``). Mixed into
tournaments.api.TournamentViewSet; the period's batch is ratings.api.periods.

The file's version is the `format` query parameter (trf16, the default, or trf26): DRF reads
that parameter to choose a renderer, so each version is a renderer here; an answer that is not
the file (an error) is JSON whichever was asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.errors import ErrorSerializer
from core.api.permissions import Rule
from core.api.serializers import RefuseUnknownFields
from tournaments import fide_export, services
from tournaments.models import Tournament

RULES = {
    "fide_export": Rule("tournaments.export_fide", on_object=True),
    "fide_sent": Rule("tournaments.record_fide_sent", on_object=True),
}


class _TrfRenderer(BaseRenderer):
    """The TRF file (the view answers it itself); anything else, as JSON."""

    media_type = "text/plain"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if renderer_context and renderer_context.get("response") is not None:
            renderer_context["response"]["Content-Type"] = "application/json"
        return JSONRenderer().render(data)


class Trf16Renderer(_TrfRenderer):
    format = "trf16"


class Trf26Renderer(_TrfRenderer):
    format = "trf26"


TRF_RENDERERS = [Trf16Renderer, Trf26Renderer, JSONRenderer]

FORMAT_PARAMETER = OpenApiParameter(
    "format",
    str,
    enum=["trf16", "trf26"],
    description="TRF16 (the default) or TRF-2026.",
)


def trf_version(request: Request) -> fide_export.TrfVersion:
    """The version asked by `format` (the renderer DRF chose); TRF16 by default."""
    chosen = getattr(request, "accepted_renderer", None)
    return "trf26" if isinstance(chosen, Trf26Renderer) else "trf16"


def file_response(data: bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename) or "attachment"
    response["X-Content-Type-Options"] = "nosniff"
    return response


class FideSentSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    sent_on = serializers.DateField(
        required=False, help_text="When it was sent (today when left out; not in the future)."
    )


class FideSentStateSerializer(serializers.ModelSerializer[Tournament]):
    fide_sent_by = serializers.CharField(source="fide_sent_by.get_username", allow_null=True)

    class Meta:
        model = Tournament
        fields = ["id", "fide_sent_on", "fide_sent_by"]
        read_only_fields = fields


class FideExportActions:
    @extend_schema(
        parameters=[FORMAT_PARAMETER],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR,
                description="The TRF file for the FIDE Rating Server (fide-2024 9.1), written "
                "from the stored data: FIDE IDs from the registry, corrected results, the games "
                "left out marked (TRF-2026).",
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="Not validated or rated, or its report gives no rounds: `message` "
                "says which.",
            ),
        },
        description=(
            "The tournament as a TRF file for the FIDE Rating Server (officers and its "
            "arbiter; 409 when it is not validated or rated, or its report gives no rounds)."
        ),
    )
    @action(
        detail=True,
        url_path="fide-export",
        renderer_classes=TRF_RENDERERS,
        pagination_class=None,
        filter_backends=[],
    )
    def fide_export(self, request: Request, pk: str | None = None) -> HttpResponse:
        tournament = self.get_object()  # type: ignore[attr-defined]
        export = fide_export.tournament_fide_export(
            tournament=tournament, version=trf_version(request)
        )
        return file_response(
            export.text.encode("utf-8"),
            filename=export.filename,
            content_type="text/plain; charset=utf-8",
        )

    @extend_schema(
        request=FideSentSerializer,
        responses={200: FideSentStateSerializer},
        description=(
            "Record that the tournament's TRF was sent to the FIDE Rating Server (officers; "
            "fide-2024 9.1): the date and who, kept in the tournament's history. 409 when it "
            "is not rated."
        ),
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="fide-sent",
        pagination_class=None,
        filter_backends=[],
    )
    def fide_sent(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()  # type: ignore[attr-defined]
        serializer = FideSentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_fide_sent_record(
            tournament=tournament,
            user=request.user,
            sent_on=serializer.validated_data.get("sent_on"),
        )
        return Response(FideSentStateSerializer(tournament).data)
