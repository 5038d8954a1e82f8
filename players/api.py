"""The registry in the API: the player search (the site's selector) and a player's record.
A player's ratings and history are the ratings app's (ratings/api/players.py extends this)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from core.api.pagination import LimitOffset
from core.api.permissions import Rule
from players.models import PUBLIC_FIELDS, Player, Title
from players.selectors import player_search


class PlayerSerializer(serializers.ModelSerializer[Player]):
    # Declared: a read-only field built from the model forgets that the title may be blank.
    title = serializers.ChoiceField(choices=Title.choices, allow_blank=True, read_only=True)

    class Meta:
        model = Player
        fields = list(PUBLIC_FIELDS)
        read_only_fields = fields


SEARCH_PARAMETERS = [
    OpenApiParameter(
        "q",
        OpenApiTypes.STR,
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


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name, "")
    try:
        value = int(raw) if raw.strip() else default
    except ValueError:
        raise serializers.ValidationError({name: [_("A whole number is required.")]}) from None
    return max(low, min(value, high))


class PlayerViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet[Player]):
    serializer_class = PlayerSerializer
    lookup_field = "fed_id"
    lookup_value_regex = "[0-9A-Za-z-]+"
    queryset = Player.objects.order_by("name_key", "id")
    pagination_class = PlayerSearchPagination
    filter_backends: list[Any] = []
    rules = {
        "list": Rule("players.browse_players"),
        "retrieve": Rule("players.browse_players"),
    }

    @extend_schema(parameters=SEARCH_PARAMETERS, responses=PlayerSerializer(many=True))
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The site's player search (players.selectors.player_search), best match first."""
        limit = _int(request, "limit", LimitOffset.default_limit, 1, LimitOffset.max_limit)
        offset = _int(request, "offset", 0, 0, 10**9)
        found = player_search(
            query=request.query_params.get("q", "")[:200],
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
                "results": PlayerSerializer(found.players, many=True).data,
            }
        )
