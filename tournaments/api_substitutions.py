"""A tournament's team substitutions and norm winner in the API (cnxc-2000 7.2, 7.1): the
same services as the management page's forms (tournaments.services.substitutions), the same
rule (``tournaments.record_substitutions``: its arbiter until the report is validated,
officers always). Mixed into tournaments.api.TournamentViewSet."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.permissions import Rule
from core.api.query import MAX_ID
from core.api.serializers import RefuseUnknownFields
from tournaments import services
from tournaments.models import Substitution, SubstitutionSide, Tournament
from tournaments.substitution_selectors import substitution_list

RECORD = Rule("tournaments.record_substitutions", on_object=True)
RULES = {
    "substitutions": Rule("tournaments.browse_tournaments"),
    "substitution_create": RECORD,
    "substitution_delete": RECORD,
    "winner": RECORD,
}


class SubstitutionSerializer(RefuseUnknownFields, serializers.ModelSerializer[Substitution]):
    """A player who took over another's game (by start ranks in the report)."""

    round = serializers.IntegerField(min_value=1, max_value=32767)
    board = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)
    side = serializers.ChoiceField(
        choices=SubstitutionSide.choices, help_text="The colour of the game's side."
    )
    replaced_rank = serializers.IntegerField(min_value=1, max_value=32767)
    substitute_rank = serializers.IntegerField(min_value=1, max_value=32767)
    replaced_moved = serializers.BooleanField(
        default=True, help_text="The player replaced had made a move (7.2 a)."
    )
    substitute_moved = serializers.BooleanField(
        default=True, help_text="The substitute made a move (7.2 b)."
    )

    class Meta:
        model = Substitution
        fields = [
            "id",
            "round",
            "board",
            "side",
            "replaced_rank",
            "replaced_moved",
            "substitute_rank",
            "substitute_moved",
            "date",
            "recorded_at",
        ]
        read_only_fields = ["id", "recorded_at"]


class WinnerSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    norm_winner_rank = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        allow_null=True,
        help_text="The winner after tie-breaks, by start rank; null: the sole top scorer.",
    )


class SubstitutionActions:
    """The viewset's actions (``self.get_object()`` finds the tournament and asks the rule)."""

    get_object: Any

    @extend_schema(
        responses=SubstitutionSerializer(many=True),
        description="The team substitutions recorded (cnxc-2000 7.2), by round.",
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def substitutions(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        rows = substitution_list(tournament=tournament)
        return Response(SubstitutionSerializer(rows, many=True).data)

    @extend_schema(
        request=SubstitutionSerializer,
        responses={201: SubstitutionSerializer},
        description=(
            "Record a substitution (its arbiter until the report is validated, officers "
            "always); 409 with the reason when the office refuses it (no such game, a "
            "regulation without substitutions)."
        ),
    )
    @substitutions.mapping.post
    def substitution_create(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        serializer = SubstitutionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        created = services.substitution_create(
            tournament=tournament, user=request.user, **serializer.validated_data
        )
        return Response(SubstitutionSerializer(created).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"substitutions/(?P<substitution>[0-9]+)",
        pagination_class=None,
        filter_backends=[],
    )
    def substitution_delete(
        self, request: Request, pk: str | None = None, substitution: str = ""
    ) -> Response:
        """Delete a substitution (the same users as recording one)."""
        tournament: Tournament = self.get_object()
        if int(substitution) > MAX_ID:
            raise Http404
        found = (
            Substitution.objects.select_related("tournament__period", "tournament__rating_system")
            .filter(tournament=tournament, pk=int(substitution))
            .first()
        )
        if found is None:
            raise Http404
        services.substitution_delete(substitution=found, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=WinnerSerializer,
        responses=WinnerSerializer,
        description=(
            "Name the winner after tie-breaks of a competition valid for norms (cnxc-2000 "
            "7.1: he keeps his rating change only if positive); null: the sole top scorer."
        ),
    )
    @action(detail=True, methods=["put"], pagination_class=None, filter_backends=[])
    def winner(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        serializer = WinnerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_winner_set(
            tournament=tournament,
            user=request.user,
            rank=serializer.validated_data["norm_winner_rank"],
        )
        return Response({"norm_winner_rank": tournament.norm_winner_rank})
