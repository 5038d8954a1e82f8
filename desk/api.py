"""The officers' desk: what waits for them (pending protests, late registrations to approve,
periods to calculate or publish, calculations under way)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import Rule
from periods.api import RatingPeriodSerializer
from periods.selectors import periods_awaiting_work
from protests.api import ProtestSerializer
from protests.selectors import protest_list_pending
from ratings.calculation.selectors import runs_active
from ratings.statistics.selectors import drift_alerts
from tournaments.api import TournamentSerializer
from tournaments.queues import tournaments_moved_after_publication
from tournaments.selectors import tournaments_awaiting_approval

#: Items per queue; `counts` gives each queue's length.
QUEUE_LIMIT = 100


class RunSerializer(serializers.Serializer[Any]):
    run = serializers.IntegerField(source="pk")
    period = serializers.IntegerField(source="period_id")
    status = serializers.CharField()
    progress = serializers.IntegerField()
    phase = serializers.CharField(source="phase_text")
    requested_at = serializers.DateTimeField()


class DriftSerializer(serializers.Serializer[Any]):
    """A system whose top-50 average moved more than the officer's threshold (feda-1996 11.1,
    fide-2000 12.3)."""

    system = serializers.CharField(source="system.code")
    article = serializers.CharField()
    group_size = serializers.IntegerField()
    threshold = serializers.FloatField()
    lists = serializers.IntegerField()
    before = serializers.FloatField()
    before_date = serializers.DateField()
    after = serializers.FloatField()
    after_date = serializers.DateField()
    moved = serializers.FloatField()


class DeskSerializer(serializers.Serializer[Any]):
    counts = serializers.DictField(child=serializers.IntegerField())
    protests = ProtestSerializer(many=True)
    late_registrations = TournamentSerializer(many=True)
    moved_after_publication = TournamentSerializer(
        many=True, help_text="Validated after their period's list was published: moved."
    )
    periods = RatingPeriodSerializer(many=True)
    runs = RunSerializer(many=True)
    drift = DriftSerializer(many=True)


class DeskView(APIView):
    rules = {"get": Rule("protests.decide_protest")}

    @extend_schema(responses=DeskSerializer)
    def get(self, request: Request) -> Response:
        """The officers' queues, oldest first, at most 100 items each."""
        queues = {
            "protests": protest_list_pending().order_by("submitted_at", "id"),
            "late_registrations": tournaments_awaiting_approval().order_by("registered_at", "id"),
            "moved_after_publication": tournaments_moved_after_publication(),
            "periods": periods_awaiting_work(),
            "runs": runs_active(),
        }
        data: dict[str, Any] = {"counts": {k: qs.count() for k, qs in queues.items()}}
        data.update({k: list(qs[:QUEUE_LIMIT]) for k, qs in queues.items()})
        data["drift"] = drift_alerts()
        return Response(DeskSerializer(data).data)
