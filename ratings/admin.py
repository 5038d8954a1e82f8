from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from core.admin import ReadOnlyAdmin, choices_filter, input_filter
from core.errors import Refused
from core.pagination import EstimatedCountPaginator
from periods.models import LISTED_FIELDS, RatingPeriod, RatingSystem, SystemRuleset
from periods.rulesets import system_ruleset_add, system_ruleset_check
from ratings.models import (
    Differential,
    ListEntry,
    ListFilterCount,
    ListFilterRow,
    ListRank,
    ListStatistics,
    PlayerRating,
    PublishedList,
    ScaleMonitoring,
)
from ratings.statistics.services import scale_monitoring_update

# At federation scale (tests/project/test_admin_scale.py) no list follows a foreign key row by
# row: list_select_related names every relation a column shows and what its __str__ reads (a
# period's or a list's name reads its system). Players and games are chosen by id
# (raw_id_fields), never from a <select>; the tables of a list's entries, ranks and filter
# rows count once per page (show_full_result_count).


@admin.register(RatingSystem)
class RatingSystemAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "ruleset", "rate_of_play", "cycle", "is_active")
    list_filter = ("ruleset", "rate_of_play", "cycle", "is_active")
    search_fields = ("code", "name")


class SystemRulesetAdminForm(forms.ModelForm):
    """Asks the service what it would refuse (a change to a published period's regulation,
    the same day twice, bad parameters) before saving."""

    class Meta:
        model = SystemRuleset
        fields = ("system", "ruleset", "effective_from", "parameters")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            system_ruleset_check(
                system=data["system"],
                ruleset=data["ruleset"],
                effective_from=data["effective_from"],
                parameters=data.get("parameters") or {},
            )
        except Refused as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


@admin.register(SystemRuleset)
class SystemRulesetAdmin(admin.ModelAdmin):
    """A system's timeline of regulation sets (effective dates, docs/periods.md). Entries are
    added through the service (`system_ruleset_add`) and never changed nor deleted: a published
    period keeps the regulation it was rated under."""

    form = SystemRulesetAdminForm
    list_display = ("system", "effective_from", "ruleset", "created_by", "created_at")
    list_filter = ("ruleset", "system")
    list_select_related = ("system", "created_by")
    date_hierarchy = "effective_from"
    readonly_fields = ("created_by", "created_at")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        saved = system_ruleset_add(
            system=obj.system,
            ruleset=obj.ruleset,
            effective_from=obj.effective_from,
            parameters=obj.parameters or {},
            user=request.user,
        )
        obj.pk = saved.pk


@admin.register(RatingPeriod)
class RatingPeriodAdmin(admin.ModelAdmin):
    list_display = LISTED_FIELDS
    list_filter = ("system", "status", "needs_recalculation")
    date_hierarchy = "start"
    list_select_related = ("system",)
    # Closed, calculated, published, to recalculate: the services' business (periods, ratings).
    readonly_fields = (
        "status",
        "needs_recalculation",
        "closed_at",
        "calculated_at",
        "published_at",
    )


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("player", "system", "rating", "games", "kind", "activity", "out_of_list")
    list_filter = ("system", "kind", "activity", "out_of_list", "reached_2400", "reached_2200")
    search_fields = ("player__surname", "player__given_name", "player__fed_id")
    raw_id_fields = ("player",)
    list_select_related = ("player", "system")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # The statuses a publication advances (ratings.publication.services).
    readonly_fields = ("kind", "activity", "out_of_list", "flagged_lists")


# ReadOnlyAdmin (core.admin): published lists are immutable, and runs, drafts and jobs are
# written by the services alone.


@admin.register(PublishedList)
class PublishedListAdmin(ReadOnlyAdmin):
    list_display = (
        "system",
        "list_date",
        "version",
        "published_at",
        "ruleset",
        "engine_version",
        "entry_count",
    )
    list_filter = ("system", "ruleset")
    list_select_related = ("system",)


@admin.register(ListRank)
class ListRankAdmin(ReadOnlyAdmin):
    list_display = ("published_list", "player", "national", "region", "club", "active")
    list_filter = ("published_list__system",)
    raw_id_fields = ("player",)
    list_select_related = ("published_list__system", "player")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(ListFilterRow)
class ListFilterRowAdmin(ReadOnlyAdmin):
    list_display = ("published_list", "player", "rating", "region", "club", "sex", "active")
    list_filter = ("published_list__system", "active")
    raw_id_fields = ("player",)
    list_select_related = ("published_list__system", "player")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(ListFilterCount)
class ListFilterCountAdmin(ReadOnlyAdmin):
    list_display = ("published_list", "section", "dimension", "value", "entries", "active_entries")
    list_filter = ("published_list__system",)
    search_fields = ("value",)
    list_select_related = ("published_list__system",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(ListEntry)
class ListEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "published_list",
        "player",
        "rating",
        "change",
        "k",
        "games",
        "status",
        "inactive",
        "provisional",
    )
    list_filter = ("published_list__system", "status", "inactive", "provisional")
    search_fields = ("player__surname", "player__given_name", "player__fed_id")
    list_select_related = ("published_list__system", "player")
    # Newest first by the primary key: the model's order (by rating) sorts every list's
    # entries (10,000,000 for 24 lists of 500,000 players: 40 s) to show 100; the columns
    # do not sort for the same reason.
    ordering = ("-pk",)
    sortable_by = ()
    show_full_result_count = False
    paginator = EstimatedCountPaginator


# --- Calculation runs and their drafts (rating-period work; read-only: written by the services).
from ratings.models import (  # noqa: E402
    CalculationRun,
    Calibration,
    CalibrationEntry,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    EntryStatus,
    LiveRating,
    RerateChain,
)


@admin.register(CalculationRun)
class CalculationRunAdmin(ReadOnlyAdmin):
    list_display = (
        "period",
        "status",
        "progress",
        "method",
        "ruleset",
        "engine_version",
        "requested_at",
        "finished_at",
        "player_count",
        "game_count",
        "published_list",
    )
    list_filter = ("status", "method", "ruleset", "period__system")
    list_select_related = ("period__system", "published_list__system")


@admin.register(DraftResult)
class DraftResultAdmin(ReadOnlyAdmin):
    list_display = (
        "run",
        "player",
        "rating_before",
        "rating_after",
        "change",
        "k",
        "games",
        "status",
        "previous_status",
        "inactive",
        "provisional",
    )
    list_filter = (
        "status",
        choices_filter(DraftResult, "previous_status", EntryStatus.choices),
        "inactive",
        "provisional",
        "run__period__system",
    )
    search_fields = ("player__surname", "player__fed_id")
    list_select_related = ("run__period__system", "player")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(DraftTournament)
class DraftTournamentAdmin(ReadOnlyAdmin):
    list_display = ("run", "tournament", "line_count", "player_count", "change_sum")
    list_filter = ("run__period__system",)
    exclude = ("lines",)
    list_select_related = ("run__period__system", "tournament")


@admin.register(DraftExcluded)
class DraftExcludedAdmin(ReadOnlyAdmin):
    list_display = ("run", "tournament", "round", "white_key", "black_key", "code", "article")
    list_filter = (input_filter(DraftExcluded, "code"), input_filter(DraftExcluded, "article"))
    list_select_related = ("run__period__system", "tournament")


@admin.register(LiveRating)
class LiveRatingAdmin(ReadOnlyAdmin):
    """Live ratings (ratings/live/): recomputed by a worker when a report is validated or
    changed; shown here, never edited (docs/live-ratings.md)."""

    list_display = ("player", "period", "rating_before", "change", "rating_after", "games")
    list_filter = ("system", choices_filter(LiveRating, "status", EntryStatus.choices))
    search_fields = ("player__surname", "player__fed_id")
    list_select_related = ("player", "period__system")
    raw_id_fields = ("player", "period")
    exclude = ("lines", "excluded", "notes")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(Differential)
class DifferentialAdmin(ReadOnlyAdmin):
    """fce 9.5: computed and published through the services (the officer's pages and the API:
    ratings/differentials/services.py), read here."""

    list_display = (
        "system",
        "computed_at",
        "players",
        "mean",
        "overall",
        "status",
        "effective_date",
    )
    list_filter = ("system", "status")
    date_hierarchy = "computed_at"
    list_select_related = ("system",)


@admin.register(ListStatistics)
class ListStatisticsAdmin(ReadOnlyAdmin):
    """The figures of each published list (ratings/statistics/): written by the publication,
    shown here, never edited (docs/periods.md "The scale's health")."""

    list_display = ("system", "list_date", "scope", "group", "players", "mean", "top50", "top10")
    list_filter = ("system", "scope")
    search_fields = ("group",)
    list_select_related = ("system",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(ScaleMonitoring)
class ScaleMonitoringAdmin(admin.ModelAdmin):
    """The drift check's settings of each rating system (feda-1996 11.1, fide-2000 12.3), as
    the statistics page's form sets them (the same service)."""

    list_display = ("system", "threshold", "lists", "updated_at", "updated_by")
    list_select_related = ("system", "updated_by")
    search_fields = ("system__code", "system__name")
    fields = ("system", "threshold", "lists")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        saved = scale_monitoring_update(
            system=obj.system, threshold=obj.threshold, lists=obj.lists, user=request.user
        )
        obj.pk = saved.pk


@admin.register(Calibration)
class CalibrationAdmin(ReadOnlyAdmin):
    """Each run's calibration (cnxc-2000 7.3; ratings/calculation/calibration.py)."""

    list_display = (
        "period",
        "run",
        "article",
        "list_date",
        "players",
        "mean_difference",
        "shift",
        "applied",
        "reason",
    )
    list_filter = ("applied", "reason")
    list_select_related = ("period__system", "run__period__system")


@admin.register(CalibrationEntry)
class CalibrationEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "calibration",
        "player",
        "in_both_lists",
        "reference",
        "rating_before",
        "rating_after",
    )
    list_filter = ("in_both_lists",)
    list_select_related = ("calibration__period__system", "calibration__run", "player")
    raw_id_fields = ("player", "calibration")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(RerateChain)
class RerateChainAdmin(ReadOnlyAdmin):
    """Re-rating chains (ratings.rerating.chain): one worker job over every later period."""

    list_display = ("system", "first_period", "status", "progress", "periods_done", "requested_at")
    list_filter = ("status", "system")
    list_select_related = ("system", "first_period__system")
