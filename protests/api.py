"""Protests in the API: a player submits and reads his own; officers read them all and decide
(protests.services, the rules of protests/rules.py)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.serializers import StrictSerializer
from protests import services as protests
from protests.models import Protest
from protests.selectors import protests_for_user
from ratings.models import PublishedList
from tournaments.models import Game, Tournament


class ProtestSerializer(serializers.ModelSerializer[Protest]):
    list = serializers.IntegerField(source="published_list_id", read_only=True)
    system = serializers.CharField(source="published_list.system.code", read_only=True)
    player = serializers.CharField(source="player.fed_id", read_only=True)

    class Meta:
        model = Protest
        fields = [
            "id",
            "list",
            "system",
            "player",
            "submitted_at",
            "tournament",
            "game",
            "subject",
            "text",
            "status",
            "information_request",
            "information_answer",
            "decided_at",
            "decision",
            "corrected_list",
        ]
        read_only_fields = fields


class ProtestCreateSerializer(StrictSerializer):
    list = serializers.PrimaryKeyRelatedField(
        queryset=PublishedList.objects.select_related("system"),
        help_text="The published list protested.",
    )
    tournament = serializers.PrimaryKeyRelatedField(
        queryset=Tournament.objects.all(),
        required=False,
        allow_null=True,
        help_text="The tournament of the list's period the protest is about.",
    )
    game = serializers.PrimaryKeyRelatedField(
        queryset=Game.objects.all(),
        required=False,
        allow_null=True,
        help_text="Or one of the player's games in it.",
    )
    subject = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Or the tournament or game in the player's words (one of the three is needed).",
    )
    text = serializers.CharField(max_length=10000, help_text="The grounds of the protest.")


class ProtestDecisionSerializer(StrictSerializer):
    upheld = serializers.BooleanField(help_text="Upheld: the period is marked for recalculation.")
    decision = serializers.CharField(
        max_length=10000, help_text="The written reasons, sent to the player."
    )


class ProtestViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Protest],
):
    """Protests against published lists, newest first."""

    serializer_class = ProtestSerializer
    filterset_fields = ["status"]
    rules = {
        # The list shows what the object rule would let the user see (protests_for_user).
        "list": Rule("protests.view_protest", on_object=True),
        "retrieve": Rule("protests.view_protest", on_object=True),
        "create": Rule("protests.submit_protest"),
        "decide": Rule("protests.decide_protest", on_object=True),
    }

    def get_queryset(self) -> QuerySet[Protest]:
        if self.action == "list":
            return protests_for_user(user=self.request.user)
        return Protest.objects.select_related("published_list__system", "player").order_by(
            "-submitted_at", "-id"
        )

    @extend_schema(request=ProtestCreateSerializer, responses={201: ProtestSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Protest a published list (a player whose account is linked to the registry), within
        the regulation's days."""
        body = ProtestCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        published = body.validated_data["list"]
        if not request.user.has_perm("protests.submit_protest", published):
            raise PermissionDenied
        protest = protests.protest_submit(
            published=published,
            player=getattr(request.user, "player", None),
            user=request.user,
            text=body.validated_data["text"],
            tournament=body.validated_data.get("tournament"),
            game=body.validated_data.get("game"),
            subject=body.validated_data.get("subject", ""),
            language=get_language() or "",
        )
        return Response(ProtestSerializer(protest).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ProtestDecisionSerializer, responses=ProtestSerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def decide(self, request: Request, pk: str | None = None) -> Response:
        """Uphold or reject a protest (officers)."""
        protest = self.get_object()
        body = ProtestDecisionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        protests.protest_decide(
            protest=protest,
            user=request.user,
            upheld=body.validated_data["upheld"],
            decision=body.validated_data["decision"],
        )
        return Response(ProtestSerializer(protest).data)
