from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.admin import ReadOnlyAdmin, input_filter
from core.errors import Refused
from core.pagination import EstimatedCountPaginator
from tournaments.forms import kind_field, level_field
from tournaments.models import (
    Game,
    Report,
    ReportUploadJob,
    Substitution,
    Tournament,
    TournamentDecision,
    TournamentPart,
    TournamentPlayer,
)
from tournaments.officials.models import Arbiter, Organiser, RecordState
from tournaments.officials.services import official_decide

# Statuses and the dates of the lifecycle are read-only here: they change through the services
# (registration, uploads, approval, calculation, publication), never by hand.
#
# At federation scale (tests/project/test_admin_scale.py: 100,000 players and games) no form
# lists a large table in a <select> (raw_id_fields: one query for the chosen row's label), no
# list follows a foreign key row by row (list_select_related, down to what __str__ reads),
# and no list filter lists a large table. A tournament's report lines are not an inline of its
# page (an open of 500 players took 1.7 s as read-only rows, and as forms a query per line):
# the page links to them, a page of the lines' list filtered by the tournament.


class TournamentAdminForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"] = kind_field()  # a choice of the regulations' kinds
        self.fields["level"] = level_field()  # feda-1996 1.1's levels of event


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = (
        "name",
        "city",
        "start_date",
        "end_date",
        "system",
        "rating_system",
        "status",
        "late_registration",
    )
    list_filter = (
        "status",
        "system",
        "rating_system",
        "late_registration",
        "national_championship",
        "kind",
        "thematic",
    )
    search_fields = ("name", "city", "chief_arbiter")
    date_hierarchy = "end_date"
    raw_id_fields = (
        "arbiter",
        "period",
        "moved_from_period",
        "chief_arbiter_record",
        "organiser",
        "fide_sent_by",
    )
    list_select_related = ("rating_system",)
    readonly_fields = (
        "report_lines",
        "status",
        "late_registration",
        "approved_by",
        "approved_at",
        "registered_at",
        "report_received_at",
        "validated_at",
        "rated_at",
        "published_at",
        "norm_winner_rank",  # the winner's form (tournaments.services.substitutions)
    )

    @admin.display(description=_("report lines"))
    def report_lines(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "–"
        count = obj.players.count()
        return format_html(
            '<a href="{}?tournament__id__exact={}">{}</a>',
            reverse("admin:tournaments_tournamentplayer_changelist"),
            obj.pk,
            ngettext("%(count)d line", "%(count)d lines", count) % {"count": count},
        )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("tournament", "submission", "format", "status", "size", "sha256", "uploaded_at")
    list_filter = ("format", "status")
    search_fields = ("tournament__name", "sha256", "filename")
    exclude = ("data",)
    raw_id_fields = ("tournament", "uploaded_by")
    list_select_related = ("tournament",)
    readonly_fields = ("status", "problems", "sha256", "size", "uploaded_at")


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ("tournament", "start_rank", "name", "player", "rating_at_start")
    list_filter = ("tournament__rating_system",)
    search_fields = ("name", "fide_id", "fed_id", "tournament__name")
    raw_id_fields = ("tournament", "player")
    list_select_related = ("tournament", "player")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # By the column, not the model's ordering ("tournament" sorts every line by the
    # tournament's dates through a join): the newest tournaments first, read from the
    # (tournament, start_rank) index.
    ordering = ("-tournament_id", "start_rank")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "white", "black", "result", "kind")
    list_filter = ("kind", "result")
    search_fields = ("tournament__name",)
    raw_id_fields = ("tournament", "white", "black", "period")
    list_select_related = ("tournament", "white", "black")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-tournament_id", "round", "id")  # as the lines' list: no join to sort


@admin.register(ReportUploadJob)
class ReportUploadJobAdmin(admin.ModelAdmin):
    """Large uploads read on a worker (docs/reports.md): shown, never edited."""

    list_display = ("requested_at", "tournament", "filename", "status", "progress", "report")
    list_filter = ("status",)
    search_fields = ("tournament__name", "filename")
    exclude = ("data",)
    list_select_related = ("tournament", "report__tournament")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Substitution)
class SubstitutionAdmin(ReadOnlyAdmin):
    """Team substitutions (cnxc-2000 7.2): shown here; recorded and deleted on the
    tournament's management page or the API (tournaments.services.substitutions), which mark
    a rated period for recalculation."""

    list_display = (
        "tournament",
        "round",
        "board",
        "side",
        "replaced_rank",
        "substitute_rank",
        "date",
        "recorded_by",
    )
    list_filter = ("side",)
    search_fields = ("tournament__name",)
    list_select_related = ("tournament", "recorded_by")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-tournament_id", "round", "id")


@admin.register(TournamentDecision)
class TournamentDecisionAdmin(ReadOnlyAdmin):
    """The rating officer's decisions (docs/arbiters.md): shown here; taken, appealed and
    decided on the tournament's management page or the API (tournaments.services.decisions),
    which apply them and keep their history."""

    list_display = ("tournament", "kind", "article", "state", "deadline", "decided_at")
    list_filter = ("kind", "state")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    raw_id_fields = ("tournament", "decided_by", "appealed_by", "resolved_by")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-decided_at", "-id")


class OfficialAdmin(admin.ModelAdmin):
    """The arbiters' and organisers' registry (tournaments.officials): the state changes only
    through the officer's decision (the action below, the registry's pages, the API)."""

    list_select_related = ("registered_by", "decided_by")
    readonly_fields = ("state", "registered_by", "registered_at", "decided_by", "decided_at")
    actions = ("approve",)

    @admin.action(description=_("Approve the selected records"))
    def approve(self, request: HttpRequest, queryset: Any) -> None:
        done = 0
        for record in queryset.filter(state=RecordState.PENDING):
            try:
                official_decide(record=record, user=request.user, approve=True)
            except Refused as exc:
                self.message_user(request, str(exc), level="error")
                return
            done += 1
        self.message_user(
            request,
            ngettext("%(count)d record approved.", "%(count)d records approved.", done)
            % {"count": done},
        )


@admin.register(Arbiter)
class ArbiterAdmin(OfficialAdmin):
    list_display = ("name", "fide_id", "title", "category", "federation", "state")
    list_filter = ("state", "title", "category", input_filter(Arbiter, "federation"))
    search_fields = ("name", "=fide_id")


@admin.register(Organiser)
class OrganiserAdmin(OfficialAdmin):
    list_display = ("name", "contact", "federation", "state")
    list_filter = ("state", input_filter(Organiser, "federation"))
    search_fields = ("name", "contact")


@admin.register(TournamentPart)
class TournamentPartAdmin(ReadOnlyAdmin):
    """The parts of a tournament rated in parts (docs/periods.md): written by the uploads'
    service, shown here, never edited (a change to a published part is a correction)."""

    list_display = ("tournament", "number", "period")
    list_filter = ("period__system",)
    search_fields = ("tournament__name",)
    raw_id_fields = ("tournament", "period", "report")
    list_select_related = ("tournament", "period__system")
