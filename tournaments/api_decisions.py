"""The rating officer's decisions on a tournament in the API (tournaments.services.decisions,
docs/arbiters.md "The officer's decisions"): listed with the tournament, taken by officers
(``tournaments.decide_tournament``), the organiser's appeal against a refusal to rate lodged by
the tournament's arbiter (``tournaments.appeal_decision``, fide-2024 0.4) and decided by an
officer. Mixed into tournaments.api.TournamentViewSet."""

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
from tournaments.decision_selectors import decision_list
from tournaments.models import DecisionKind, Tournament, TournamentDecision

DECIDE = Rule("tournaments.decide_tournament", on_object=True)
RULES = {
    "decisions": Rule("tournaments.browse_tournaments"),
    "decision_take": DECIDE,
    "decision_appeal": Rule("tournaments.appeal_decision", on_object=True),
    "decision_appeal_decide": DECIDE,
}


class DecisionSerializer(serializers.ModelSerializer[TournamentDecision]):
    """A decision with its reason and article; games and players by start rank."""

    class Meta:
        model = TournamentDecision
        fields = [
            "id",
            "kind",
            "reason",
            "article",
            "decided_at",
            "deadline",
            "state",
            "check_code",
            "game_round",
            "white_rank",
            "black_rank",
            "player_rank",
            "appeal_reason",
            "appealed_at",
            "resolution",
            "resolved_at",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "deadline": {
                "help_text": "Return for correction: the last day for the corrected report "
                "(feda-1996 10.13, B.01 7.13: four weeks); refusal to rate: the last day of the "
                "organiser's appeal (fide-2024 0.4: seven days)."
            }
        }


class DecisionTakeSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=DecisionKind.choices,
        help_text="One the tournament's regulation provides for (409 otherwise).",
    )
    reason = serializers.CharField(max_length=2000)
    check_code = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text="override_check: the code of a blocking problem of the current report.",
    )
    game = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="exclude_game: the game's id."
    )
    start_rank = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text="exempt_withdrawal: the player who withdrew.",
    )


class AppealSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    grounds = serializers.CharField(max_length=2000)


class AppealDecisionSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    upheld = serializers.BooleanField(help_text="true: the refusal is lifted.")
    resolution = serializers.CharField(max_length=2000)


class DecisionActions:
    """The viewset's actions (``self.get_object()`` finds the tournament and asks the rule)."""

    get_object: Any

    def _decision(self, tournament: Tournament, decision: str) -> TournamentDecision:
        # At most 19 digits (the path's pattern); leading zeros allowed, ids above bigint not.
        digits = decision.lstrip("0") or "0"
        if len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
            raise Http404
        found = decision_list(tournament=tournament).filter(pk=int(digits)).first()
        if found is None:
            raise Http404
        return found

    @extend_schema(
        responses=DecisionSerializer(many=True),
        description="The rating officer's decisions on the tournament, newest first.",
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def decisions(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        return Response(DecisionSerializer(decision_list(tournament=tournament), many=True).data)

    @extend_schema(
        request=DecisionTakeSerializer,
        responses={201: DecisionSerializer},
        description=(
            "Take a decision (officers), with its reason: return_for_correction (feda-1996 "
            "10.13, fide-2000 11.1 → B.01 7.13), reject_registration (fide-2024 0.2), "
            "refuse_rating (fide-2024 0.4), override_check (fce 2.2), authorise_long_event "
            "(feda-1996 5.11), exclude_game (fide-2024 5.1), exempt_withdrawal (cnxc-2000 "
            "3.2). 409 with the reason when the regulation does not provide for it or the "
            "tournament does not allow it."
        ),
    )
    @decisions.mapping.post
    def decision_take(self, request: Request, pk: str | None = None) -> Response:
        tournament: Tournament = self.get_object()
        serializer = DecisionTakeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        decision = services.tournament_decide(
            tournament=tournament,
            officer=request.user,
            kind=data["kind"],
            reason=data["reason"],
            check_code=data.get("check_code", ""),
            game_id=data.get("game"),
            start_rank=data.get("start_rank"),
        )
        return Response(DecisionSerializer(decision).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=AppealSerializer,
        responses=DecisionSerializer,
        description=(
            "The organiser's appeal against a refusal to rate, within seven days of the "
            "decision (fide-2024 0.4), lodged by the tournament's arbiter; 409 when late or "
            "not a refusal in force."
        ),
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"decisions/(?P<decision>[0-9]{1,19})/appeal",
        pagination_class=None,
        filter_backends=[],
    )
    def decision_appeal(
        self, request: Request, pk: str | None = None, decision: str = ""
    ) -> Response:
        tournament: Tournament = self.get_object()
        found = self._decision(tournament, decision)
        serializer = AppealSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.decision_appeal(
            decision=found, user=request.user, grounds=serializer.validated_data["grounds"]
        )
        return Response(DecisionSerializer(found).data)

    @extend_schema(
        request=AppealDecisionSerializer,
        responses=DecisionSerializer,
        description="The officer's decision on an appeal (fide-2024 0.4); 409 when none waits.",
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"decisions/(?P<decision>[0-9]{1,19})/appeal-decision",
        pagination_class=None,
        filter_backends=[],
    )
    def decision_appeal_decide(
        self, request: Request, pk: str | None = None, decision: str = ""
    ) -> Response:
        tournament: Tournament = self.get_object()
        found = self._decision(tournament, decision)
        serializer = AppealDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.decision_appeal_decide(
            decision=found,
            officer=request.user,
            upheld=serializer.validated_data["upheld"],
            resolution=serializer.validated_data["resolution"],
        )
        return Response(DecisionSerializer(found).data)
