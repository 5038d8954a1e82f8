"""Accounts in the API (docs/api.md, docs/accounts.md): sign up; claim a record and follow the
claims; ask for corrections and follow them; officers decide both. The same services and rules
as the pages (accounts.services, accounts/rules.py)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import CORRECTABLE_FIELDS, ClaimMethod, ClaimRequest, CorrectionRequest
from accounts.selectors import claims_for_user, corrections_for_user
from accounts.services import claims, corrections, signup
from core.api.permissions import Rule
from core.api.serializers import StrictSerializer


class SignupSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(
        write_only=True, help_text="Checked by the site's password validators."
    )


class SignupView(APIView):
    """Open an account: it stays closed until the link e-mailed to the address is followed
    (a page). The answer is the same whether the address had an account or not."""

    rules = {"post": Rule("accounts.sign_up")}

    @extend_schema(
        request=SignupSerializer,
        responses={202: {"type": "object", "properties": {"detail": {"type": "string"}}}},
    )
    def post(self, request: Request) -> Response:
        body = SignupSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            signup.account_sign_up(
                username=body.validated_data["username"],
                email=body.validated_data["email"],
                password=body.validated_data["password"],
                address=request.META.get("REMOTE_ADDR", ""),
                language=get_language() or "",
            )
        except ValidationError as exc:
            # A request of the schema's shape that the account rules refuse (a weak password,
            # a taken user name): 422, not 400 (core/api/errors.py, UNPROCESSABLE_CODES).
            raise serializers.ValidationError(
                {
                    field: [ErrorDetail(message, code="inconsistent") for message in messages]
                    for field, messages in exc.message_dict.items()
                }
            ) from exc
        detail = _("We sent a message to the address given: follow its link to open the account.")
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class ClaimSerializer(serializers.ModelSerializer[ClaimRequest]):
    user = serializers.CharField(source="user.get_username", read_only=True)
    player = serializers.CharField(source="player.fed_id", read_only=True)

    class Meta:
        model = ClaimRequest
        fields = ["id", "user", "player", "method", "status", "reason", "created_at", "decided_at"]
        read_only_fields = fields


class ClaimCreateSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=ClaimMethod.choices)
    fed_id = serializers.CharField(
        max_length=16, required=False, allow_blank=True, help_text="With method fed_id."
    )
    birth_date = serializers.DateField(required=False, help_text="With method fed_id.")
    fide_id = serializers.IntegerField(
        min_value=1, required=False, help_text="With method fide_id."
    )


class DecisionSerializer(StrictSerializer):
    approve = serializers.BooleanField()
    reason = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, help_text="Needed to refuse."
    )


class ClaimViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[ClaimRequest],
):
    """Claims of registry records: a user's own; officers see and decide them all."""

    serializer_class = ClaimSerializer
    filterset_fields = ["status"]
    rules = {
        "list": Rule("accounts.view_claim", on_object=True),
        "retrieve": Rule("accounts.view_claim", on_object=True),
        "create": Rule("accounts.claim_player"),
        "decide": Rule("accounts.decide_claim", on_object=True),
    }

    def get_queryset(self) -> QuerySet[ClaimRequest]:
        if self.action == "list":
            return claims_for_user(user=self.request.user)
        return ClaimRequest.objects.select_related("user", "player")

    @extend_schema(request=ClaimCreateSerializer, responses={201: ClaimSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Claim a record by federation ID and birth date, or by FIDE ID."""
        body = ClaimCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        claim = claims.claim_submit(
            user=request.user,
            method=body.validated_data["method"],
            fed_id=body.validated_data.get("fed_id", ""),
            birth_date=body.validated_data.get("birth_date"),
            fide_id=body.validated_data.get("fide_id"),
            language=get_language() or "",
        )
        return Response(ClaimSerializer(claim).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DecisionSerializer, responses=ClaimSerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def decide(self, request: Request, pk: str | None = None) -> Response:
        """Approve (the account is linked and joins the players) or refuse with a reason."""
        claim = self.get_object()
        body = DecisionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        claim = claims.claim_decide(
            claim=claim,
            user=request.user,
            approve=body.validated_data["approve"],
            reason=body.validated_data.get("reason", ""),
        )
        return Response(ClaimSerializer(claim).data)


class CorrectionSerializer(serializers.ModelSerializer[CorrectionRequest]):
    player = serializers.CharField(source="player.fed_id", read_only=True)

    class Meta:
        model = CorrectionRequest
        fields = [
            "id",
            "player",
            "changes",
            "previous",
            "note",
            "status",
            "reason",
            "created_at",
            "decided_at",
        ]
        read_only_fields = fields


class CorrectionCreateSerializer(StrictSerializer):
    surname = serializers.CharField(max_length=120, required=False)
    given_name = serializers.CharField(max_length=120, required=False)
    birth_date = serializers.DateField(required=False, allow_null=True)
    birth_year = serializers.IntegerField(required=False, allow_null=True)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    region = serializers.CharField(max_length=80, required=False, allow_blank=True)
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class CorrectionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[CorrectionRequest],
):
    """Requests to correct a player's record: the player's own; officers see and decide all."""

    serializer_class = CorrectionSerializer
    filterset_fields = ["status"]
    rules = {
        "list": Rule("accounts.view_correction", on_object=True),
        "retrieve": Rule("accounts.view_correction", on_object=True),
        "create": Rule("accounts.request_correction"),
        "decide": Rule("accounts.decide_correction", on_object=True),
    }

    def get_queryset(self) -> QuerySet[CorrectionRequest]:
        if self.action == "list":
            return corrections_for_user(user=self.request.user)
        return CorrectionRequest.objects.select_related("player")

    @extend_schema(request=CorrectionCreateSerializer, responses={201: CorrectionSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Ask for the fields given to change on the caller's record, with a note."""
        body = CorrectionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        correction = corrections.correction_submit(
            user=request.user,
            changes={f: data[f] for f in CORRECTABLE_FIELDS if f in data},
            note=data.get("note", ""),
            language=get_language() or "",
        )
        return Response(CorrectionSerializer(correction).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DecisionSerializer, responses=CorrectionSerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def decide(self, request: Request, pk: str | None = None) -> Response:
        """Accept (the record changes) or refuse with a reason."""
        correction = self.get_object()
        body = DecisionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        correction = corrections.correction_decide(
            correction=correction,
            user=request.user,
            approve=body.validated_data["approve"],
            reason=body.validated_data.get("reason", ""),
        )
        return Response(CorrectionSerializer(correction).data)
