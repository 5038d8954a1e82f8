"""Tournaments in the API: the public list, a tournament and its crosstable; arbiters register
tournaments, upload reports and read their problems (tournaments.services, the pages' rules).
The rating changes of a rated tournament are the ratings app's (ratings/api/tournaments.py)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from core.api.filters import IntegerFilter
from core.api.permissions import Rule
from core.api.query import MAX_ID
from core.api.serializers import RefuseUnknownFields
from core.rules import is_officer
from periods.models import RatingSystem
from tournaments import selectors, services
from tournaments.api_decisions import RULES as DECISION_RULES
from tournaments.api_decisions import DecisionActions, DecisionSerializer
from tournaments.api_fide import RULES as FIDE_RULES
from tournaments.api_fide import FideExportActions
from tournaments.api_parts import RULES as PART_RULES
from tournaments.api_parts import PartActions
from tournaments.api_substitutions import RULES as SUBSTITUTION_RULES
from tournaments.api_substitutions import SubstitutionActions
from tournaments.forms import OFFICIAL_FIELDS, TournamentRegistrationForm
from tournaments.kinds import kind_ids, kind_refusal, tournament_ruleset
from tournaments.models import (
    DESCRIPTION_FIELDS,
    Report,
    ReportUploadJob,
    Tournament,
    TournamentStatus,
)
from tournaments.officials.levels import level_ids, level_refusal
from tournaments.officials.models import Arbiter, Organiser, RecordState

BROWSE = Rule("tournaments.browse_tournaments")
MANAGE = Rule("tournaments.manage_tournament", on_object=True)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    rating_system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            *DESCRIPTION_FIELDS,
            *OFFICIAL_FIELDS,
            "rating_system",
            "period",
            "moved_from_period",
            "status",
            "late_registration",
            "registered_at",
            "report_received_at",
            "validated_at",
            "rated_at",
            "published_at",
            "norm_winner_rank",
            "fide_sent_on",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "chief_arbiter_record": {
                "help_text": "The chief arbiter's record of the registry (`/api/v1/arbiters/`); "
                "null: none named (`chief_arbiter` is the text shown)."
            },
            "organiser": {"help_text": "The organiser's record (`/api/v1/organisers/`)."},
            "moved_from_period": {
                "help_text": "Validated after this period's list was published: moved to "
                "`period`, the open one (null otherwise, or when rated there as a correction)."
            },
        }


class TournamentDetailSerializer(TournamentSerializer):
    """One tournament, with the rating officer's decisions on it (docs/arbiters.md)."""

    decisions = DecisionSerializer(many=True, read_only=True, help_text="Newest first.")

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "decisions"]
        read_only_fields = fields


class TournamentRegistrationSerializer(
    RefuseUnknownFields, serializers.ModelSerializer[Tournament]
):
    """What an arbiter sends to register a tournament (the registration page's fields)."""

    rating_system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", queryset=RatingSystem.objects.filter(is_active=True)
    )
    top_rating = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=3500,
        help_text="Highest rating expected (fide-2024 0.2: over 2700 → 30 days ahead).",
    )
    top_woman_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=3500
    )
    kind = serializers.ChoiceField(
        choices=kind_ids(),
        required=False,
        allow_blank=True,
        help_text="The kind of competition, one the rating system's regulation names "
        "(fide-2000 6.33, feda-1996 7.33 championships; cnxc-2000 5.3 competitions, with the "
        "virtual rating each implies); empty: none of them. A rating system's resource lists "
        "its regulation's kinds (competition_kinds).",
    )

    chief_arbiter_record = serializers.PrimaryKeyRelatedField(
        queryset=Arbiter.objects.exclude(state=RecordState.REFUSED),
        required=False,
        allow_null=True,
        help_text="The chief arbiter's record of the registry (any but a refused one); "
        "register a new one at `/api/v1/arbiters/`.",
    )
    organiser = serializers.PrimaryKeyRelatedField(
        queryset=Organiser.objects.exclude(state=RecordState.REFUSED),
        required=False,
        allow_null=True,
        help_text="The organiser's record of the registry (any but a refused one).",
    )
    level = serializers.ChoiceField(
        choices=level_ids(),
        required=False,
        allow_blank=True,
        help_text="The level of the event (feda-1996 1.1: national, regional or provincial), "
        "one the rating system's regulation names; the chief arbiter's category must match it.",
    )

    class Meta:
        model = Tournament
        # The registration page's fields (one list: tournaments.forms).
        fields = [*TournamentRegistrationForm.Meta.fields, "top_rating", "top_woman_rating"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The regulation in force on its start day (periods.rulesets), not the newest.
        ruleset = tournament_ruleset(system=attrs["rating_system"], start=attrs.get("start_date"))
        refusal = kind_refusal(ruleset=ruleset, kind=attrs.get("kind", ""))
        if refusal is not None:
            raise serializers.ValidationError({"kind": [refusal]}, code="inconsistent")
        refusal = level_refusal(ruleset=ruleset, level=attrs.get("level", ""))
        if refusal is not None:
            raise serializers.ValidationError({"level": [refusal]}, code="inconsistent")
        if attrs["end_date"] < attrs["start_date"]:
            # Well formed, not consistent: 422 (core.api.errors.UNPROCESSABLE_CODES).
            raise serializers.ValidationError(
                {"end_date": [_("The tournament cannot end before it starts.")]},
                code="inconsistent",
            )
        return attrs


class TournamentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", help_text="Part of the name or the city.")
    rating_system = django_filters.CharFilter(field_name="rating_system__code")
    status = django_filters.ChoiceFilter(choices=TournamentStatus.choices)
    ended_after = django_filters.DateFilter(field_name="end_date", lookup_expr="gte")
    ended_before = django_filters.DateFilter(field_name="end_date", lookup_expr="lte")
    mine = django_filters.BooleanFilter(
        method="filter_mine",
        help_text="Only the tournaments the user may manage (all of them for an officer).",
    )

    # By id: an id of no period finds no tournament (200, empty).
    period = IntegerFilter(field_name="period_id", min_value=1, max_value=MAX_ID)

    class Meta:
        model = Tournament
        fields: list[str] = []

    def filter_q(self, qs: QuerySet[Tournament], name: str, value: str) -> QuerySet[Tournament]:
        value = value.strip()[:100]
        return qs.filter(Q(name__icontains=value) | Q(city__icontains=value)) if value else qs

    def filter_mine(self, qs: QuerySet[Tournament], name: str, value: bool) -> QuerySet[Tournament]:
        if not value:
            return qs
        user = self.request.user if self.request else None
        if user is None or not user.is_authenticated:
            return qs.none()
        return qs if is_officer(user) else qs.filter(arbiter_id=user.pk)


class ProblemSerializer(serializers.Serializer[Any]):
    severity = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField(help_text="Translated into the request's language.")
    line = serializers.IntegerField(allow_null=True)
    column = serializers.IntegerField(allow_null=True)
    field = serializers.CharField(allow_blank=True)
    article = serializers.CharField(allow_blank=True)


class ReportSerializer(serializers.ModelSerializer[Report]):
    problems = serializers.SerializerMethodField()
    tournament_status = serializers.CharField(source="tournament.status", read_only=True)

    class Meta:
        model = Report
        fields = [
            "submission",
            "filename",
            "format",
            "size",
            "sha256",
            "status",
            "uploaded_at",
            "tournament_status",
            "problems",
        ]
        read_only_fields = fields

    @extend_schema_field(ProblemSerializer(many=True))
    def get_problems(self, report: Report) -> list[dict[str, Any]]:
        keys = ProblemSerializer().fields.keys()
        return [
            {k: p.get(k) for k in keys}
            for p in selectors.problems_display(problems=report.problems)
        ]


class UploadJobSerializer(serializers.ModelSerializer[ReportUploadJob]):
    """A large report being read on a worker (the page's upload job): poll it until `done`;
    `report` is then the submission number of the report it stored (null if it failed)."""

    phase = serializers.CharField(source="phase_text", read_only=True)
    done = serializers.BooleanField(read_only=True)
    report = serializers.IntegerField(source="report.submission", read_only=True, allow_null=True)

    class Meta:
        model = ReportUploadJob
        fields = ["id", "status", "progress", "phase", "done", "report", "filename", "error"]
        read_only_fields = fields


class ReportUploadSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    file = serializers.FileField(allow_empty_file=True, help_text="The report file as exported.")
    format = serializers.ChoiceField(
        choices=["auto", "trf16", "trf26", "feda", "csv"], default="auto"
    )


class CrosstableCellSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(allow_null=True, help_text="null: the report does not say.")
    opponent = serializers.IntegerField(allow_null=True, help_text="Start rank; null: a bye.")
    colour = serializers.CharField(
        allow_blank=True, help_text='"w", "b", or "" for a bye or when the report does not say.'
    )
    result = serializers.CharField(
        allow_blank=True, help_text="From this player's side: 1, ½, 0, + or - (forfeits)."
    )
    points = serializers.FloatField()


#: One round of one player in the crosstable, or null when he had no game that round.
CELL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "nullable": True,
    "properties": {
        "round": {
            "type": "integer",
            "nullable": True,
            "description": "null: the report does not say (a crosstable).",
        },
        "opponent": {
            "type": "integer",
            "nullable": True,
            "description": "Start rank; null: a bye.",
        },
        "colour": {
            "type": "string",
            "description": '"w", "b", or "" for a bye or when the report does not say.',
        },
        "result": {"type": "string", "description": "1, ½, 0, + or - (forfeits)."},
        "points": {"type": "number"},
    },
    "required": ["round", "opponent", "colour", "result", "points"],
}


class CrosstableRowSerializer(serializers.Serializer[Any]):
    """tournaments.selectors.CrosstableRow: a line of the report, its rounds and place."""

    start_rank = serializers.IntegerField(source="line.start_rank")
    name = serializers.CharField(source="line.name")
    fed_id = serializers.SerializerMethodField()
    title = serializers.CharField(source="line.title", allow_blank=True)
    rating_at_start = serializers.IntegerField(source="line.rating_at_start", allow_null=True)
    points = serializers.FloatField()
    place = serializers.IntegerField()
    cells = serializers.SerializerMethodField(help_text="By round; null: no game that round.")

    # Written out: drf-spectacular drops a nested serializer's null from a list's items.
    @extend_schema_field({"type": "array", "items": CELL_SCHEMA})
    def get_cells(self, row: Any) -> list[Any]:
        return [None if c is None else CrosstableCellSerializer(c).data for c in row.cells]

    def get_fed_id(self, row: Any) -> str | None:
        """The registry player's federation ID; null when the line is not matched."""
        player = row.line.player
        return player.fed_id if player is not None else None


class CrosstableSerializer(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(
        help_text="Columns of `cells`: rounds, or games when unknown."
    )
    rounds_known = serializers.BooleanField(
        help_text="False for a crosstable: `cells` are each player's games, no round or colour."
    )
    standings_shown = serializers.BooleanField(
        help_text="False until the report is validated: no games yet, `rows` is empty."
    )
    rows = CrosstableRowSerializer(many=True, help_text="By start rank; `cells` by round.")


class TournamentViewSet(
    DecisionActions,
    PartActions,
    SubstitutionActions,
    FideExportActions,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    """Tournaments, newest first; arbiters register theirs and send their reports."""

    filterset_class = TournamentFilter
    rules = {
        "list": BROWSE,
        "retrieve": BROWSE,
        "crosstable": BROWSE,
        "create": Rule("tournaments.register_tournament"),
        "reports": MANAGE,
        "report": MANAGE,
        "upload": MANAGE,
        **SUBSTITUTION_RULES,
        **FIDE_RULES,
        **DECISION_RULES,
        **PART_RULES,
        # An officer's choice (periods.manage_period: officers, whatever the period).
        "rate_as_correction": Rule("periods.manage_period"),
    }

    def get_queryset(self) -> QuerySet[Tournament]:
        return Tournament.objects.select_related("rating_system").order_by(
            "-end_date", "name", "id"
        )

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action == "create":
            return TournamentRegistrationSerializer
        if self.action == "reports" and self.request.method == "POST":
            return ReportUploadSerializer
        if self.action == "retrieve":
            return TournamentDetailSerializer
        return TournamentSerializer

    @extend_schema(request=TournamentRegistrationSerializer, responses={201: TournamentSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register a tournament (arbiters, officers). A late registration waits for an officer's
        approval (`late_registration`)."""
        serializer = TournamentRegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        top_rating = data.pop("top_rating", None)
        top_woman_rating = data.pop("top_woman_rating", None)
        tournament = services.tournament_register(
            arbiter=request.user,
            data=data,
            top_rating=top_rating,
            top_woman_rating=top_woman_rating,
        )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=CrosstableSerializer)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def crosstable(self, request: Request, pk: str | None = None) -> Response:
        """The games of every player round by round (null: no game that round), by start
        rank, with points and place (the tournament page's crosstable)."""
        tournament = self.get_object()
        table = selectors.tournament_crosstable(tournament=tournament)
        return Response(CrosstableSerializer(table).data)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer},
        description=(
            "Rate a tournament validated after its period's list was published (moved to the "
            "open period, `moved_from_period` set) in that period instead, as a correction of "
            "its list: the period and the later rated ones are marked for recalculation "
            "(officers; 409 when the tournament is not waiting for that choice)."
        ),
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="rate-as-correction",
        pagination_class=None,
        filter_backends=[],
    )
    def rate_as_correction(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        services.tournament_rate_as_correction(tournament=tournament, officer=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        methods=["GET"],
        responses=ReportSerializer(many=True),
        description="Every report sent, newest first (the arbiter who runs it, officers).",
    )
    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": ReportUploadSerializer},
        responses={201: ReportSerializer, 202: UploadJobSerializer},
        description=(
            "Send a report (the arbiter until the tournament is rated, officers always). The "
            "report is recorded either way: `status` says accepted or rejected and `problems` "
            "why. A file over the size limit is recorded as rejected without being read. A "
            "file over REPORT_INLINE_BYTES (256 KiB) is read on a worker, as on the site: the "
            "answer is 202 with the upload job, to poll at its `Location` until `done`."
        ),
    )
    @action(
        detail=True,
        methods=["get", "post"],
        pagination_class=None,
        filter_backends=[],
        parser_classes=[MultiPartParser, FormParser, JSONParser],
    )
    def reports(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                ReportSerializer(selectors.report_list(tournament=tournament), many=True).data
            )
        upload = ReportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        received = services.report_receive(
            tournament=tournament,
            user=request.user,
            file=upload.validated_data["file"],
            declared_format=upload.validated_data["format"],
        )
        if isinstance(received, ReportUploadJob):  # a large file: read on a worker, as on the site
            location = reverse(
                "api-v1:tournament-upload", kwargs={"pk": tournament.pk, "job": received.pk}
            )
            return Response(
                UploadJobSerializer(received).data,
                status=status.HTTP_202_ACCEPTED,
                headers={"Location": location},
            )
        report = received
        report.tournament.refresh_from_db()
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=ReportSerializer)
    @action(
        detail=True,
        url_path=r"reports/(?P<submission>[0-9]+)",
        pagination_class=None,
        filter_backends=[],
    )
    def report(self, request: Request, pk: str | None = None, submission: str = "") -> Response:
        """One report: its status and its problems, in the request's language."""
        tournament = self.get_object()
        report = (
            selectors.report_list(tournament=tournament).filter(submission=int(submission)).first()
        )
        if report is None:
            raise Http404
        return Response(ReportSerializer(report).data)

    @extend_schema(responses=UploadJobSerializer)
    @action(
        detail=True,
        url_path=r"uploads/(?P<job>[0-9]+)",
        pagination_class=None,
        filter_backends=[],
    )
    def upload(self, request: Request, pk: str | None = None, job: str = "") -> Response:
        """A large report read on a worker: its progress, then the report it stored."""
        tournament = self.get_object()
        found = (
            ReportUploadJob.objects.select_related("report")
            .filter(tournament=tournament, pk=int(job))
            .first()
        )
        if found is None:
            raise Http404
        return Response(UploadJobSerializer(found).data)
