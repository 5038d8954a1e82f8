"""The officers' desk: what waits for them (pending protests, late registrations to approve,
periods to calculate or publish, calculations under way); the registry's likely duplicates and
the merge of two records (desk.duplicates, desk.merges; docs/registry.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import Rule
from core.api.serializers import RefuseUnknownFields
from desk import duplicates, merges
from periods.api import RatingPeriodSerializer
from periods.selectors import periods_awaiting_work
from players.models import Player
from protests.api import ProtestSerializer
from protests.selectors import protest_list_pending
from ratings.calculation.selectors import runs_active
from ratings.statistics.selectors import drift_alerts
from tournaments.api import TournamentSerializer
from tournaments.fide_export import tournaments_fide_unsent
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
    fide_unsent = TournamentSerializer(
        many=True,
        help_text="Rated tournaments of published periods not yet sent to FIDE (fide-2024 9.1).",
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
            "fide_unsent": tournaments_fide_unsent(),
            "periods": periods_awaiting_work(),
            "runs": runs_active(),
        }
        data: dict[str, Any] = {"counts": {k: qs.count() for k, qs in queues.items()}}
        data.update({k: list(qs[:QUEUE_LIMIT]) for k, qs in queues.items()})
        data["drift"] = drift_alerts()
        return Response(DeskSerializer(data).data)


# ------------------------------------------------------------------ likely duplicates, merge


class DuplicatePlayerSerializer(serializers.Serializer[Any]):
    fed_id = serializers.CharField()
    surname = serializers.CharField()
    given_name = serializers.CharField()
    birth_year = serializers.IntegerField(allow_null=True)
    fide_id = serializers.IntegerField(allow_null=True)
    club = serializers.CharField()
    tournaments = serializers.IntegerField(help_text="Tournaments the record played.")


class DuplicateGroupSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(
        choices=list(duplicates.REASONS),
        help_text="name_birth: same folded name and birth year; fide_id: one record's FIDE "
        "ID is the other's federation ID FIDE-<n>; fed_id: federation IDs equal but for case, "
        "hyphens and leading zeros.",
    )
    key = serializers.CharField(help_text="What the records share.")
    players = DuplicatePlayerSerializer(many=True)


class _Groups:
    """The likely duplicates as the paginator reads a queryset: count(), then a slice."""

    def count(self) -> int:
        return duplicates.player_duplicates(offset=0, limit=1)[1]

    def __getitem__(self, part: slice) -> list[duplicates.DuplicateGroup]:
        start = part.start or 0
        return duplicates.player_duplicates(offset=start, limit=(part.stop or start) - start)[0]


class DuplicatesView(generics.ListAPIView):
    """The registry's likely duplicates (officers), a page of groups."""

    serializer_class = DuplicateGroupSerializer
    filter_backends: list[Any] = []
    rules = {"get": Rule("players.merge_players")}

    def get_queryset(self) -> Any:
        return _Groups()


class MergeSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    kept = serializers.SlugRelatedField(
        slug_field="fed_id",
        queryset=Player.objects.all(),
        help_text="Federation ID of the record kept.",
    )
    merged = serializers.SlugRelatedField(
        slug_field="fed_id",
        queryset=Player.objects.all(),
        help_text="Federation ID of the record merged into it (it stays as a redirect).",
    )
    reason = serializers.CharField(max_length=500, help_text="Why they are the same player.")


class MergeResultSerializer(serializers.Serializer[Any]):
    kept = serializers.CharField()
    merged = serializers.CharField()
    tournaments = serializers.IntegerField()
    games = serializers.IntegerField()
    protests = serializers.IntegerField()
    claims = serializers.IntegerField()
    corrections = serializers.IntegerField()
    erasure_requests = serializers.IntegerField()
    ratings_moved = serializers.IntegerField()
    ratings_dropped = serializers.IntegerField()
    account = serializers.BooleanField()
    licences_moved = serializers.IntegerField()
    licence_seasons_kept = serializers.ListField(
        child=serializers.CharField(),
        help_text="The seasons for which both records held a licence: the kept record's "
        "stays, the merged record's is removed.",
    )


class MergeView(APIView):
    """Merge two records of one player (officers): 409 with the reasons when refused (both
    played one tournament, two linked accounts, …)."""

    rules = {"post": Rule("players.merge_players")}

    @extend_schema(request=MergeSerializer, responses=MergeResultSerializer)
    def post(self, request: Request) -> Response:
        body = MergeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        kept, merged = body.validated_data["kept"], body.validated_data["merged"]
        counts = merges.player_merge(
            kept=kept, merged=merged, by=request.user, reason=body.validated_data["reason"]
        )
        data = {"kept": kept.fed_id, "merged": merged.fed_id, **counts.__dict__}
        return Response(MergeResultSerializer(data).data)
