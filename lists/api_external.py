"""API v1: the ICCF and FPX lists (cnxc-2000 5.3, 7.3): the imported lists, dated, and an
import of one, run as the import page runs it (a job on a worker; the same rule,
``lists.import_list``). docs/api.md, docs/lists.md "ICCF and FPX lists"."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from formats.lists.external import EXTERNAL_SOURCES
from lists.imports import jobs as import_jobs
from lists.imports.external import FORMATS
from players.models import ExternalList

IMPORT = Rule("lists.import_list")


class ExternalListSerializer(serializers.ModelSerializer[ExternalList]):
    class Meta:
        model = ExternalList
        fields = [
            "id",
            "source",
            "list_date",
            "filename",
            "imported_at",
            "rows",
            "matched",
            "unmatched",
            "created",
        ]
        read_only_fields = fields


class ExternalImportSerializer(StrictSerializer):
    source = serializers.ChoiceField(choices=list(EXTERNAL_SOURCES))  # type: ignore[assignment]
    list_date = serializers.DateField(help_text="The day the list comes into force.")
    format = serializers.ChoiceField(
        choices=list(FORMATS),
        help_text="txt: ICCF's list saved as text (tab-separated); csv: the documented CSV.",
    )
    file = serializers.FileField()


class ExternalImportJobSerializer(serializers.Serializer[Any]):
    job = serializers.IntegerField()
    status = serializers.CharField()
    progress = serializers.IntegerField()
    external_list = serializers.IntegerField(allow_null=True)
    rows = serializers.IntegerField(allow_null=True)
    matched = serializers.IntegerField(allow_null=True)
    created = serializers.IntegerField(allow_null=True)


class ExternalListViewSet(viewsets.ReadOnlyModelViewSet[ExternalList]):
    """The imported ICCF and FPX lists, newest first (officers)."""

    serializer_class = ExternalListSerializer
    rules = {"list": IMPORT, "retrieve": IMPORT, "upload": IMPORT}

    def get_queryset(self) -> QuerySet[ExternalList]:
        return ExternalList.objects.order_by("-list_date", "source", "-id")

    @extend_schema(
        request={"multipart/form-data": ExternalImportSerializer},
        responses={202: ExternalImportJobSerializer},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[MultiPartParser],
        filter_backends=[],
        pagination_class=None,
    )
    def upload(self, request: Request) -> Response:
        """Import an ICCF or FPX list (officers): the job is queued (with no broker it has
        run when this answers); follow it at /ratings/lists/import/<job>/."""
        body = ExternalImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        upload = data["file"]
        if upload.size > import_jobs.max_bytes():
            raise ValidationError({"file": [import_jobs.too_large_message()]})
        job = import_jobs.list_import_request(
            system=None,
            data=upload.chunks(import_jobs.CHUNK_BYTES),
            format=data["format"],
            filename=upload.name or "",
            user=request.user,
            source=data["source"],
            list_date=data["list_date"],
        )
        job.refresh_from_db()
        out = {
            "job": job.pk,
            "status": job.status,
            "progress": job.progress,
            "external_list": job.external_list_id,
            "rows": job.rows,
            "matched": job.players_updated,
            "created": job.players_created,
        }
        return Response(ExternalImportJobSerializer(out).data, status=status.HTTP_202_ACCEPTED)
