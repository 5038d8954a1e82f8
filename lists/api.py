"""List imports in the API v1 (officers; docs/api.md, docs/lists.md): what the import page does.

- ``POST list-imports/`` (multipart: ``system`` code, ``format``, ``target``, ``players``,
  ``file``, ``preview``): with ``preview=true`` the whole file is read, checked and counted as
  the import would (nothing written; 200 with the counts, or 400 with the problems);
  otherwise the file is stored and its import queued (201, the job; poll it).
- ``GET list-imports/``, ``list-imports/{id}/``: the jobs, newest first, with their choice of
  players and counts (created, completed, skipped).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import RefuseUnknownFields
from core.messages import stored_message
from lists.imports import jobs as import_jobs
from lists.imports.importer import (
    FORMATS,
    PLAYER_CHOICES,
    TARGETS,
    ListImportError,
    list_import,
)
from lists.imports.source import ByteSource
from lists.models import ListImportJob
from periods.models import RatingSystem


class ListImportJobSerializer(serializers.ModelSerializer[ListImportJob]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        # Null for an ICCF or FPX list, which belongs to no rating system (lists/api_external.py).
        slug_field="code",
        read_only=True,
        allow_null=True,
    )

    class Meta:
        model = ListImportJob
        fields = [
            "id",
            "system",
            "format",
            "target",
            "players",
            "filename",
            "status",
            "progress",
            "requested_at",
            "finished_at",
            "rows",
            "players_created",
            "players_updated",
            "players_skipped",
            "ratings_written",
            "problem_total",
        ]
        read_only_fields = fields


@extend_schema_field({"type": "string", "pattern": "^[-a-zA-Z0-9_]+$", "maxLength": 40})
class SystemCodeField(serializers.SlugRelatedField[RatingSystem]):
    """A rating system by its code (a slug: the schema says so, so a form field holding a
    control character, which the site refuses, is not schema-valid)."""


class ListImportRequestSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    system = SystemCodeField(
        slug_field="code", queryset=RatingSystem.objects.all(), help_text="Rating system code."
    )
    format = serializers.ChoiceField(choices=list(FORMATS))
    target = serializers.ChoiceField(
        choices=list(TARGETS),
        required=False,
        help_text="fide: the players' FIDE ratings (default for txt and xml); system: the "
        "rating system's ratings (default for csv).",
    )
    players = serializers.ChoiceField(
        choices=list(PLAYER_CHOICES),
        required=False,
        help_text="Which players not in the registry are created: update (none: only the "
        "players already in it, by FIDE ID; default for target fide), federation (those of "
        "FEDERATION_CODE), all (foreign ones too; default for target system).",
    )
    preview = serializers.BooleanField(
        default=False,
        help_text="Count what would be created, updated and skipped; write nothing.",
    )
    file = serializers.FileField(allow_empty_file=True)


class ListImportPreviewSerializer(serializers.Serializer[Any]):
    rows = serializers.IntegerField()
    players_created = serializers.IntegerField()
    players_updated = serializers.IntegerField(help_text="Players completed (birth year, title).")
    players_skipped = serializers.IntegerField(
        help_text="Rows of players not in the registry that the choice does not create."
    )
    ratings_written = serializers.IntegerField(
        help_text="Target fide: players whose FIDE ratings change; system: ratings written."
    )
    target = serializers.CharField()
    players = serializers.CharField()


def _source(upload: Any) -> ByteSource:
    def pieces() -> Any:
        upload.seek(0)
        yield from upload.chunks(import_jobs.CHUNK_BYTES)

    return pieces


class ListImportViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[ListImportJob],
):
    """Imports of rating lists (officers), newest first."""

    serializer_class = ListImportJobSerializer
    filter_backends: list[Any] = []
    parser_classes = [MultiPartParser, FormParser]
    rules = {
        "list": Rule("lists.import_list"),
        "retrieve": Rule("lists.import_list", on_object=True),
        "create": Rule("lists.import_list"),
    }

    def get_queryset(self) -> QuerySet[ListImportJob]:
        return ListImportJob.objects.select_related("system").order_by("-requested_at", "-id")

    @extend_schema(
        request={"multipart/form-data": ListImportRequestSerializer},
        responses={200: ListImportPreviewSerializer, 201: ListImportJobSerializer},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Preview (200, the counts) or queue (201, the job) the import of a list file."""
        body = ListImportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        upload = data["file"]
        if upload.size > import_jobs.max_bytes():
            raise ValidationError({"file": [import_jobs.too_large_message()]})
        if data["preview"]:
            try:
                result = list_import(
                    system=data["system"],
                    data=_source(upload),
                    format=data["format"],
                    target=data.get("target"),
                    players=data.get("players"),
                    dry_run=True,
                )
            except ListImportError as exc:
                # The file matches the schema but does not hold together: 422 (docs/api.md).
                raise ValidationError(
                    {
                        "file": [
                            ErrorDetail(stored_message(p.template, p.params), code="inconsistent")
                            for p in exc.problems
                        ]
                    }
                ) from None
            return Response(ListImportPreviewSerializer(result).data)
        try:
            job = import_jobs.list_import_request(
                system=data["system"],
                data=upload.chunks(import_jobs.CHUNK_BYTES),
                format=data["format"],
                target=data.get("target"),
                players=data.get("players"),
                filename=upload.name or "",
                user=request.user,
            )
        except import_jobs.ListImportRefused as exc:
            raise ValidationError({"file": [str(exc)]}) from None
        return Response(ListImportJobSerializer(job).data, status=status.HTTP_201_CREATED)
