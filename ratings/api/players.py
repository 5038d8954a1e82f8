"""A player in the API with his ratings: per rating system his state (rating, kind, activity,
games), his K and status in the system's newest list, and his entry in every published list."""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from django.db.models import Max
from django.http import HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from core.api.caching import cached_get, cached_set
from players import api as players_api
from ratings.cards.selectors import player_card
from ratings.models import PublishedList

#: A player's card in the cache: registry edits show within this; publications at once.
PLAYER_CACHE_SECONDS = 60
LATEST_LIST_KEY = "api:lists:latest"


class RanksSerializer(serializers.Serializer[Any]):
    national = serializers.IntegerField(allow_null=True)
    region = serializers.IntegerField(allow_null=True)
    club = serializers.IntegerField(allow_null=True)
    active = serializers.IntegerField(allow_null=True, help_text="Among active players.")


class HistoryPointSerializer(serializers.Serializer[Any]):
    list = serializers.IntegerField(source="list_id")
    list_date = serializers.DateField()
    version = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True)
    change = serializers.IntegerField()
    games = serializers.IntegerField()
    k = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    calculated = serializers.BooleanField(
        help_text="The office calculated this list (an imported one has no calculation)."
    )


class SystemCardSerializer(serializers.Serializer[Any]):
    """ratings.cards.selectors.SystemCard: the state, the newest current list's entry, ranks
    there, and the history over the current versions (oldest first)."""

    system = serializers.CharField(source="system.code")
    system_name = serializers.CharField(source="system.name")
    rating = serializers.IntegerField(source="state.rating", allow_null=True, default=None)
    kind = serializers.CharField(source="state.kind", allow_null=True, default=None)
    activity = serializers.CharField(source="state.activity", allow_null=True, default=None)
    out_of_list = serializers.BooleanField(
        source="state.out_of_list", allow_null=True, default=None
    )
    games = serializers.IntegerField(
        source="state.games", allow_null=True, default=None, help_text="Rated games in total."
    )
    last_game_date = serializers.DateField(
        source="state.last_game_date", allow_null=True, default=None
    )
    list = serializers.IntegerField(
        source="entry.published_list_id",
        allow_null=True,
        default=None,
        help_text="The system's newest current list with this player.",
    )
    status = serializers.CharField(source="entry.status", allow_null=True, default=None)
    k = serializers.IntegerField(
        source="entry.k", allow_null=True, default=None, help_text="K applied in that list."
    )
    change = serializers.IntegerField(source="entry.change", allow_null=True, default=None)
    ranks = RanksSerializer()
    history = HistoryPointSerializer(many=True)


class PlayerDetailSerializer(players_api.PlayerSerializer):
    ratings = serializers.SerializerMethodField()

    class Meta(players_api.PlayerSerializer.Meta):
        fields = [*players_api.PlayerSerializer.Meta.fields, "ratings"]
        read_only_fields = fields

    @extend_schema_field(SystemCardSerializer(many=True))
    def get_ratings(self, player: Any) -> list[dict[str, Any]]:
        return list(SystemCardSerializer(player_card(player=player), many=True).data)


class PlayerViewSet(players_api.PlayerViewSet):
    """Players: the site's search, and a player's card with every rating system's rating,
    status, K, ranks and history (the card's selector, ratings.cards.selectors)."""

    @extend_schema(responses=PlayerDetailSerializer)
    def retrieve(  # type: ignore[override]  # the cached JSON, not a DRF Response
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        """Cached for PLAYER_CACHE_SECONDS, and afresh once a list is published."""
        key = f"api:player:{latest_list_id()}:{kwargs.get(self.lookup_field, '')}"
        body = cached_get(key)
        if body is None:
            player = self.get_object()
            data = PlayerDetailSerializer(player, context={"request": request}).data
            body = JSONRenderer().render(data)
            cached_set(key, body, PLAYER_CACHE_SECONDS)
        response = HttpResponse(body, content_type="application/json")
        patch_cache_control(response, public=True, max_age=PLAYER_CACHE_SECONDS)
        return response


def latest_list_id() -> int:
    """The newest published list's id (a publication changes players' cards), looked up at
    most once every few seconds."""
    latest = caches["local"].get(LATEST_LIST_KEY)
    if latest is None:
        latest = PublishedList.objects.aggregate(m=Max("id"))["m"] or 0
        caches["local"].set(LATEST_LIST_KEY, latest, 5)
    return int(latest)
