"""A tournament's parts in the API (fide-2024 4.1, fide-2000 4.11; docs/periods.md
"Tournaments in parts"): whether its regulation rates it in parts, and each part with its
period, as the tournament's page shows them. Mixed into tournaments.api.TournamentViewSet."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from tournaments.models import Tournament
from tournaments.part_selectors import tournament_parts, tournament_parts_rule

RULES = {"parts": Rule("tournaments.browse_tournaments")}


class PartSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="1, 2, … in the order of the periods.")
    period = serializers.IntegerField(source="period.pk", help_text="The rating period's id.")
    period_start = serializers.DateField(source="period.start")
    period_end = serializers.DateField(source="period.end")
    published = serializers.BooleanField(
        help_text="The period's list is published: the part's games are locked (a change is "
        "the rating officer's correction)."
    )
    current = serializers.BooleanField(
        help_text="The part of the tournament's current period (`period`), which a new report "
        "replaces."
    )
    played_games = serializers.IntegerField(help_text="Played games rated in this period.")
    byes = serializers.IntegerField(help_text="Byes recorded in this part, counted apart.")
    last_round = serializers.IntegerField(allow_null=True, help_text="Null: rounds unknown.")
    validated_at = serializers.DateTimeField(allow_null=True)


class PartsSerializer(serializers.Serializer[Any]):
    in_parts = serializers.BooleanField(
        help_text="The regulation rates this tournament in parts, period by period."
    )
    article = serializers.CharField(
        help_text='The article that says so ("fide-2024 4.1", "fide-2000 4.11"); "" when '
        "rated whole."
    )
    after_days = serializers.IntegerField(
        allow_null=True, help_text="Longer than this many days, it is rated in parts."
    )
    parts = PartSerializer(many=True)


class PartActions:
    """The viewset's action (``self.get_object()`` finds the tournament and asks the rule)."""

    get_object: Any

    @extend_schema(
        responses=PartsSerializer,
        description=(
            "A tournament rated in parts (fide-2024 4.1: over 30 days; fide-2000 4.11: a "
            "league over 90 days): each part with its rating period. Each game is rated once, "
            "in its part's period, with that period's list in force."
        ),
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def parts(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        rule = tournament_parts_rule(tournament=tournament)
        data = {
            "in_parts": rule is not None,
            "article": rule.article if rule is not None else "",
            "after_days": rule.value.after_days if rule is not None else None,
            "parts": tournament_parts(tournament=tournament),
        }
        return Response(PartsSerializer(data).data)
