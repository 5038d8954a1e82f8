"""The licence roll and the deceased flag in the API v1 (players.licences; docs/lists.md,
"Licensed and deceased players"): officers only, as the pages."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import Rule
from core.api.query import MAX_ID, STRING_SCHEMA, integer_schema, query_int, query_text
from core.api.serializers import RefuseUnknownFields
from players import licences
from players.models import Licence, Player, Season

#: The largest licence CSV accepted through the API (a season of the whole registry fits).
IMPORT_MAX_BYTES = 64 * 1024 * 1024


class SeasonSerializer(RefuseUnknownFields, serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = ["id", "name", "start", "end"]
        read_only_fields = ["id"]


class LicenceSerializer(RefuseUnknownFields, serializers.ModelSerializer[Licence]):
    player = serializers.SlugRelatedField(
        slug_field="fed_id",
        queryset=Player.objects.filter(merged_into__isnull=True),
        help_text="The player's federation ID.",
    )
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())

    class Meta:
        model = Licence
        fields = ["id", "player", "season", "category", "club", "licensed_on"]
        read_only_fields = ["id"]


class LicenceImportSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    file = serializers.FileField(help_text="CSV: fed_id,category,club,licensed_on (header line).")
    preview = serializers.BooleanField(
        default=True, help_text="Count what would be written and write nothing."
    )


class LicenceImportResultSerializer(serializers.Serializer[Any]):
    lines = serializers.IntegerField()
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    preview = serializers.BooleanField()
    written = serializers.BooleanField()
    problems = serializers.ListField(
        source="errors",
        child=serializers.CharField(),
        help_text="Each names its line; any problem: nothing written.",
    )


class DeceasedSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    player = serializers.SlugRelatedField(
        slug_field="fed_id",
        queryset=Player.objects.filter(merged_into__isnull=True),
        help_text="The player's federation ID.",
    )
    deceased_on = serializers.DateField(
        allow_null=True, help_text="The date of death (fide-2024 10.2); null clears it."
    )


class SeasonViewSet(
    mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet[Season]
):
    """The seasons, newest first; POST creates one (dates may not overlap another's)."""

    serializer_class = SeasonSerializer
    filter_backends: list[Any] = []
    rules = {"list": Rule("players.manage_licences"), "create": Rule("players.manage_licences")}

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.order_by("-start", "id")

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = licences.season_create(
            user=self.request.user, **serializer.validated_data
        )


class LicenceViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Licence],
):
    """The licences (``?season=<id>``, ``?player=<fed_id>``); POST sets a player's licence for
    a season (created or changed); DELETE ``<id>/`` withdraws one typed by mistake;
    ``import/`` reads a CSV (docs/lists.md)."""

    serializer_class = LicenceSerializer
    lookup_value_regex = "[0-9]{1,19}"
    filter_backends: list[Any] = []
    # JSON for the licence itself; the import alone takes a multipart form (a form-encoded
    # body is refused by the control-character middleware on values a JSON body escapes).
    parser_classes = [JSONParser]
    rules = {
        "list": Rule("players.manage_licences"),
        "create": Rule("players.manage_licences"),
        "destroy": Rule("players.withdraw_licence", on_object=True),
        "import_csv": Rule("players.manage_licences"),
    }

    def get_queryset(self) -> QuerySet[Licence]:
        queryset = Licence.objects.select_related("player", "season").order_by("season_id", "id")
        # Checked against the schema's bounds and pattern (400 otherwise: core/api/query.py).
        query = self.request.query_params
        season = query_int(query, "season", default=0, minimum=1, maximum=MAX_ID)
        if season:
            queryset = queryset.filter(season_id=season)
        player = query_text(query, "player")
        if player:
            queryset = queryset.filter(player__fed_id=player[:16])
        return queryset

    @extend_schema(
        parameters=[
            OpenApiParameter("season", integer_schema(1, MAX_ID), description="A season's id."),
            OpenApiParameter("player", STRING_SCHEMA, description="A player's federation ID."),
        ]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = LicenceSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        licence = licences.licence_set(user=request.user, **body.validated_data)
        return Response(LicenceSerializer(licence).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Withdraw a licence typed by mistake (players.licences.licence_delete): 204."""
        licences.licence_delete(user=request.user, licence=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request={"multipart/form-data": LicenceImportSerializer},
        responses={200: LicenceImportResultSerializer},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[MultiPartParser, FormParser],
    )
    def import_csv(self, request: Request) -> Response:
        """Import a season's licences from a CSV: 200 with the counts (written, or a preview),
        400 in the API's error shape with the lines in error under ``file`` (nothing written)."""
        body = LicenceImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        upload = body.validated_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise serializers.ValidationError({"file": [_("The file is too large.")]})
        result = licences.licences_import(
            user=request.user,
            season=body.validated_data["season"],
            data=upload.read(),
            preview=body.validated_data["preview"],
        )
        data = LicenceImportResultSerializer({**result.__dict__, "written": result.written}).data
        if result.errors:
            # The API's one error shape (core/api/errors.py), each problem naming its line.
            raise serializers.ValidationError({"file": [str(problem) for problem in result.errors]})
        return Response(data)


class DeceasedView(APIView):
    """Record a player's death (fide-2024 10.2), or clear it with null: he leaves the lists
    from the next publication and keeps his record."""

    rules = {"post": Rule("players.record_death")}

    @extend_schema(request=DeceasedSerializer, responses=DeceasedSerializer)
    def post(self, request: Request) -> Response:
        body = DeceasedSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = licences.player_deceased_set(
            user=request.user,
            player=body.validated_data["player"],
            deceased_on=body.validated_data["deceased_on"],
        )
        return Response({"player": player.fed_id, "deceased_on": player.deceased_on})
