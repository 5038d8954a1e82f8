"""The /players/ resource, its one home: the site's player search (players.selectors) and a
player's card with his ratings: per rating system his state (rating, kind, activity, games), his
K and status in the system's newest list, and his entry in every published list. The registry's
serializer of a player's record is players/api.py's."""

from __future__ import annotations

from typing import Any

from django.core.cache import caches
from django.db.models import Max
from django.http import HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, viewsets
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from core.api.caching import cached_get, cached_set
from core.api.pagination import LimitOffset
from core.api.permissions import Rule
from core.api.query import STRING_SCHEMA, query_text
from players import api as players_api
from players.models import Player
from players.selectors import player_search
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


class LiveTournamentSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="His games counted in it.")
    score = serializers.FloatField()
    change = serializers.FloatField(help_text="The sum of his games' changes, before rounding.")


class LiveSerializer(serializers.Serializer[Any]):
    """ratings.live.selectors.LiveFigure: his pending change in a period not yet published,
    over the tournaments of it validated so far (docs/live-ratings.md)."""

    provisional = serializers.SerializerMethodField(
        help_text="Always true: final only when the period's list is published."
    )
    period = serializers.IntegerField(source="live.period_id")
    period_start = serializers.DateField(source="live.period.start")
    period_end = serializers.DateField(source="live.period.end")
    rating_before = serializers.IntegerField(source="live.rating_before", allow_null=True)
    rating_after = serializers.IntegerField(source="live.rating_after", allow_null=True)
    change = serializers.IntegerField(source="live.change")
    games = serializers.IntegerField(source="live.games")
    score = serializers.FloatField(source="live.score")
    expected = serializers.FloatField(source="live.expected")
    k = serializers.IntegerField(source="live.k", allow_null=True)
    status = serializers.CharField(source="live.status")
    regulation_version = serializers.CharField(source="live.regulation_version")
    computed_at = serializers.DateTimeField(source="live.computed_at")
    tournaments = LiveTournamentSerializer(many=True)

    def get_provisional(self, figure: Any) -> bool:
        return True


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
    live = LiveSerializer(
        allow_null=True,
        help_text="His live rating (provisional) in a period not yet published; null if none.",
    )


class PlayerDetailSerializer(players_api.PlayerSerializer):
    ratings = serializers.SerializerMethodField()

    class Meta(players_api.PlayerSerializer.Meta):
        fields = [*players_api.PlayerSerializer.Meta.fields, "ratings"]
        read_only_fields = fields

    @extend_schema_field(SystemCardSerializer(many=True))
    def get_ratings(self, player: Any) -> list[dict[str, Any]]:
        return list(SystemCardSerializer(player_card(player=player), many=True).data)


SEARCH_PARAMETERS = [
    OpenApiParameter(
        "q",
        STRING_SCHEMA,
        description="Name in any order (accents and commas optional), initials, federation "
        "ID or FIDE ID; empty: every player by name.",
    ),
]


class PlayerSearchPagination(LimitOffset):
    """The search's pages: ``limit`` and ``offset`` (rounded down to a multiple of
    ``limit``), and ``capped`` when more players match than are ranked."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged = super().get_paginated_response_schema(schema)
        paged["properties"]["capped"] = {
            "type": "boolean",
            "description": "More players match than are ranked: refine the query.",
        }
        paged["required"] = [*paged.get("required", []), "capped"]
        return paged


class PlayerViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet[Player]):
    """Players: the site's search, and a player's card with every rating system's rating,
    status, K, ranks and history (the card's selector, ratings.cards.selectors)."""

    serializer_class = players_api.PlayerSerializer
    lookup_field = "fed_id"
    lookup_value_regex = "[0-9A-Za-z-]+"
    queryset = Player.objects.order_by("name_key", "id")
    pagination_class = PlayerSearchPagination
    filter_backends: list[Any] = []
    rules = {
        "list": Rule("players.browse_players"),
        "retrieve": Rule("players.browse_players"),
    }

    @extend_schema(parameters=SEARCH_PARAMETERS, responses=players_api.PlayerSerializer(many=True))
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The site's player search (players.selectors.player_search), best match first."""
        paginator = PlayerSearchPagination()
        limit = paginator.get_limit(request)
        offset = paginator.get_offset(request)
        found = player_search(
            query=query_text(request.query_params, "q")[:200],
            page=offset // limit + 1,
            per_page=limit,
        )
        url = request.build_absolute_uri()
        url = replace_query_param(url, "limit", limit)

        def page_url(page: int | None) -> str | None:
            return None if page is None else replace_query_param(url, "offset", (page - 1) * limit)

        return Response(
            {
                "count": found.total,
                "capped": found.capped,
                "next": page_url(found.next_page),
                "previous": page_url(found.previous_page),
                "results": players_api.PlayerSerializer(found.players, many=True).data,
            }
        )

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
