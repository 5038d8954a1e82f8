"""The arbiters' and organisers' registry in the API (v1): the lists (the public reads the
approved records, officers every state), a record with its tournaments, the registration of a
new one (arbiters: pending; officers: approved) and the officer's decision (approve / refuse
with the reason). The pages' rules (tournaments/rules.py) and services."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import RefuseUnknownFields
from tournaments.models import Tournament
from tournaments.officials import selectors, services
from tournaments.officials.models import (
    Arbiter,
    ArbiterCategory,
    ArbiterTitle,
    Organiser,
    RecordState,
)

RULES = {
    "list": Rule("tournaments.browse_officials"),
    "retrieve": Rule("tournaments.browse_officials"),
    "create": Rule("tournaments.register_official"),
    "decide": Rule("tournaments.decide_official"),
}

STATE_PARAMETER = OpenApiParameter(
    "state",
    str,
    enum=RecordState.values,
    description="Officers: only the records in this state (the public reads approved ones).",
)


class TournamentLinkSerializer(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields = ["id", "name", "city", "start_date", "end_date", "status"]
        read_only_fields = fields


class ArbiterSerializer(serializers.ModelSerializer[Arbiter]):
    # Written out: "" (none) is a value of both, which the model's choices do not list.
    title = serializers.ChoiceField(
        choices=ArbiterTitle.choices, allow_blank=True, read_only=True, help_text='"": none.'
    )
    category = serializers.ChoiceField(
        choices=ArbiterCategory.choices, allow_blank=True, read_only=True, help_text='"": none.'
    )

    class Meta:
        model = Arbiter
        fields = [
            "id",
            "name",
            "fide_id",
            "title",
            "category",
            "federation",
            "state",
            "decided_at",
            "reason",
        ]
        read_only_fields = fields


class ArbiterDetailSerializer(ArbiterSerializer):
    tournaments = serializers.SerializerMethodField(help_text="The tournaments he directed.")

    class Meta(ArbiterSerializer.Meta):
        fields = [*ArbiterSerializer.Meta.fields, "tournaments"]
        read_only_fields = fields

    @extend_schema(responses=TournamentLinkSerializer(many=True))
    def get_tournaments(self, arbiter: Arbiter) -> Any:
        rows = selectors.arbiter_tournaments(arbiter=arbiter)[:500]
        return TournamentLinkSerializer(rows, many=True).data


class ArbiterCreateSerializer(RefuseUnknownFields, serializers.ModelSerializer[Arbiter]):
    """A new arbiter: pending the officer's approval when an arbiter registers him."""

    class Meta:
        model = Arbiter
        fields = ["name", "fide_id", "title", "category", "federation"]
        # A FIDE ID already in the registry is the office's refusal (409, naming the record),
        # not a malformed body.
        extra_kwargs: dict[str, dict[str, Any]] = {"fide_id": {"validators": []}}


class OrganiserSerializer(serializers.ModelSerializer[Organiser]):
    class Meta:
        model = Organiser
        fields = ["id", "name", "contact", "federation", "state", "decided_at", "reason"]
        read_only_fields = fields


class OrganiserDetailSerializer(OrganiserSerializer):
    tournaments = serializers.SerializerMethodField(help_text="The tournaments it organised.")

    class Meta(OrganiserSerializer.Meta):
        fields = [*OrganiserSerializer.Meta.fields, "tournaments"]
        read_only_fields = fields

    @extend_schema(responses=TournamentLinkSerializer(many=True))
    def get_tournaments(self, organiser: Organiser) -> Any:
        rows = selectors.organiser_tournaments(organiser=organiser)[:500]
        return TournamentLinkSerializer(rows, many=True).data


class OrganiserCreateSerializer(RefuseUnknownFields, serializers.ModelSerializer[Organiser]):
    """A new organiser: pending the officer's approval when an arbiter registers it."""

    class Meta:
        model = Organiser
        fields = ["name", "contact", "federation"]


class OfficialDecisionSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    approve = serializers.BooleanField(help_text="true: approve; false: refuse.")
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=1000, help_text="Required to refuse."
    )


class _OfficialViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Any],
):
    rules = RULES
    list_serializer: type[serializers.BaseSerializer[Any]]
    detail_serializer: type[serializers.BaseSerializer[Any]]
    create_serializer: type[serializers.BaseSerializer[Any]]

    def _officer(self) -> bool:
        return bool(self.request.user.has_perm("tournaments.decide_official"))

    def _rows(self, *, public: bool, state: str) -> QuerySet[Any]:
        raise NotImplementedError

    def _register(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[Any]:
        officer = self._officer()
        if self.action == "list":
            state = self.request.query_params.get("state", "")
            if state:
                try:
                    serializers.ChoiceField(choices=RecordState.values).run_validation(state)
                except serializers.ValidationError as exc:
                    raise serializers.ValidationError({"state": exc.detail}) from None
            return self._rows(public=not officer, state=state if officer else "")
        rows = self._rows(public=False, state="")
        # A refused record is the officers' (404 to the others), as on the pages.
        return rows if officer else rows.exclude(state=RecordState.REFUSED)

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action == "create":
            return self.create_serializer
        if self.action == "retrieve" or self.action == "decide":
            return self.detail_serializer
        return self.list_serializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.create_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        record = self._register(dict(serializer.validated_data))
        return Response(self.detail_serializer(record).data, status=status.HTTP_201_CREATED)

    def _decide(self, request: Request) -> Response:
        record = self.get_object()
        decision = OfficialDecisionSerializer(data=request.data)
        decision.is_valid(raise_exception=True)
        services.official_decide(
            record=record,
            user=request.user,
            approve=decision.validated_data["approve"],
            reason=decision.validated_data.get("reason", ""),
        )
        return Response(self.detail_serializer(record).data)


@extend_schema_view(list=extend_schema(parameters=[STATE_PARAMETER]))
class ArbiterViewSet(_OfficialViewSet):
    """The arbiters' registry (feda-1996 1.1: a tournament is rated when directed by a titled
    arbiter of matching category): name, FIDE ID, FIDE title, the federation's category."""

    list_serializer = ArbiterSerializer
    detail_serializer = ArbiterDetailSerializer
    create_serializer = ArbiterCreateSerializer

    def _rows(self, *, public: bool, state: str) -> QuerySet[Any]:
        return selectors.arbiter_list(public=public, state=state)

    def _register(self, data: dict[str, Any]) -> Any:
        return services.arbiter_register(user=self.request.user, data=data)

    @extend_schema(request=ArbiterCreateSerializer, responses={201: ArbiterDetailSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register an arbiter (arbiters: pending the officer's approval; officers: approved)."""
        return super().create(request, *args, **kwargs)

    @extend_schema(
        request=OfficialDecisionSerializer,
        responses={200: ArbiterDetailSerializer},
        description="Approve or refuse the record (officers; a refusal says why, else 409). "
        "The unrated tournaments he directs are checked again (feda-1996 1.1).",
    )
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def decide(self, request: Request, pk: str | None = None) -> Response:
        return self._decide(request)


@extend_schema_view(list=extend_schema(parameters=[STATE_PARAMETER]))
class OrganiserViewSet(_OfficialViewSet):
    """The organisers' registry: name, contact, federation."""

    list_serializer = OrganiserSerializer
    detail_serializer = OrganiserDetailSerializer
    create_serializer = OrganiserCreateSerializer

    def _rows(self, *, public: bool, state: str) -> QuerySet[Any]:
        return selectors.organiser_list(public=public, state=state)

    def _register(self, data: dict[str, Any]) -> Any:
        return services.organiser_register(user=self.request.user, data=data)

    @extend_schema(request=OrganiserCreateSerializer, responses={201: OrganiserDetailSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register an organiser (arbiters: pending the officer's approval; officers:
        approved)."""
        return super().create(request, *args, **kwargs)

    @extend_schema(
        request=OfficialDecisionSerializer,
        responses={200: OrganiserDetailSerializer},
        description="Approve or refuse the record (officers; a refusal says why, else 409).",
    )
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def decide(self, request: Request, pk: str | None = None) -> Response:
        return self._decide(request)
