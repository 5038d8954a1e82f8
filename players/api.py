"""The registry's serializer of a player's public record, and a player's own data under
/api/v1/me/ (docs/privacy.md). The /players/ resource (the search and
a player's card with his ratings) is served by ratings/api/players.py, its one home: the card
needs the ratings app."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import Rule
from players.models import PUBLIC_FIELDS, ErasureRequest, Player, Title
from players.personal_data import personal_data_collect
from players.services import birth_year_visibility_set, erasure_request


class PlayerSerializer(serializers.ModelSerializer[Player]):
    # Declared: a read-only field built from the model forgets that the title may be blank.
    title = serializers.ChoiceField(choices=Title.choices, allow_blank=True, read_only=True)
    birth_year = serializers.SerializerMethodField(
        help_text="Null unless the player chose to show it (docs/privacy.md)."
    )

    class Meta:
        model = Player
        fields = list(PUBLIC_FIELDS)
        read_only_fields = fields

    def get_birth_year(self, player: Player) -> int | None:
        return player.birth_year if player.birth_year_public else None


class BirthYearVisibilitySerializer(serializers.Serializer[Any]):
    birth_year_public = serializers.BooleanField(
        help_text="Show the birth year on the card and in the API's player (docs/privacy.md)."
    )


class ErasureRequestSerializer(serializers.ModelSerializer[ErasureRequest]):
    class Meta:
        model = ErasureRequest
        fields = ["id", "note", "status", "created_at", "decided_at", "outcome"]
        read_only_fields = ["id", "status", "created_at", "decided_at", "outcome"]


def _own(request: Request) -> Player:
    """His record; a superuser passes every rule but may have none: 404."""
    player = getattr(request.user, "player", None)
    if player is None:
        raise NotFound
    assert isinstance(player, Player)
    return player


class MyDataView(APIView):
    """His own data (docs/privacy.md): every section the download holds."""

    rules = {"get": Rule("players.manage_own_data")}

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        description="The signed-in player's data: {section: [row, ...]} with the sections "
        "record, history, erasure_requests, ratings, list_entries, games, protests.",
    )
    def get(self, request: Request) -> Response:
        return Response(personal_data_collect(player=_own(request)))


class MyPrivacyView(APIView):
    """Whether his birth year is public."""

    rules = {"get": Rule("players.manage_own_data"), "patch": Rule("players.manage_own_data")}

    @extend_schema(responses=BirthYearVisibilitySerializer)
    def get(self, request: Request) -> Response:
        player = _own(request)
        return Response({"birth_year_public": player.birth_year_public})

    @extend_schema(request=BirthYearVisibilitySerializer, responses=BirthYearVisibilitySerializer)
    def patch(self, request: Request) -> Response:
        player = _own(request)
        # A PATCH: what it leaves out stays as it is (an empty body changes nothing).
        data = BirthYearVisibilitySerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        if "birth_year_public" in data.validated_data:
            player = birth_year_visibility_set(
                user=request.user, public=data.validated_data["birth_year_public"]
            )
        return Response({"birth_year_public": player.birth_year_public})


class MyErasureView(APIView):
    """His erasure requests; POST asks for one (docs/privacy.md says what an approval does)."""

    rules = {"get": Rule("players.manage_own_data"), "post": Rule("players.manage_own_data")}

    @extend_schema(responses=ErasureRequestSerializer(many=True))
    def get(self, request: Request) -> Response:
        player = _own(request)
        return Response(ErasureRequestSerializer(player.erasure_requests.all(), many=True).data)

    @extend_schema(request=ErasureRequestSerializer, responses={201: ErasureRequestSerializer})
    def post(self, request: Request) -> Response:
        _own(request)
        data = ErasureRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = erasure_request(user=request.user, note=data.validated_data.get("note", ""))
        return Response(ErasureRequestSerializer(made).data, status=201)
