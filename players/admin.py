from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.admin import ReadOnlyAdmin, input_filter
from core.errors import Refused
from core.pagination import EstimatedCountPaginator
from players import licences, services
from players.models import (
    PUBLIC_FIELDS,
    ErasureRequest,
    ExternalList,
    ExternalListEntry,
    Licence,
    NameWord,
    Player,
    Season,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    # The public fields but the federation and the rapid and blitz ratings.
    list_display = tuple(
        f for f in PUBLIC_FIELDS if f not in ("federation", "fide_rapid", "fide_blitz")
    )
    # Region and federation typed in: listing their values scans the registry (core/admin.py).
    list_filter = (
        "sex",
        "title",
        input_filter(Player, "region"),
        input_filter(Player, "federation"),
        "affiliated",
        ("merged_into", admin.EmptyFieldListFilter),
    )
    search_fields = ("fed_id", "surname", "given_name", "name_key", "=fide_id", "club")
    # Merged only through desk.merges.player_merge (the duplicates page), which moves the
    # record's games, protests and account with it (docs/registry.md).
    # Deceased only through players.licences.player_deceased_set (the action below, the
    # player's "Record a death" page), kept in his history.
    readonly_fields = ("name_key", "merged_into", "deceased_on", "created_at", "updated_at")
    raw_id_fields = ("user", "merged_into")
    # The registry is the federation's largest table (150,000+ rows): one count per page, not
    # two (tests/project/test_admin_scale.py).
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    actions = ["mark_deceased_today"]

    def has_record_death_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("players.record_death")

    @admin.action(
        description=_("Record their death, dated today (fide-2024 10.2)"),
        permissions=["record_death"],
    )
    def mark_deceased_today(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        today = timezone.localdate()
        done = 0
        for player in queryset[:100]:
            licences.player_deceased_set(user=request.user, player=player, deceased_on=today)
            done += 1
        self.message_user(
            request,
            ngettext(
                "%(n)s death recorded; correct its date on the player's page.",
                "%(n)s deaths recorded; correct their dates on the players' pages.",
                done,
            )
            % {"n": done},
            messages.SUCCESS,
        )


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons (players.licences): created on the licences page or here."""

    list_display = ("name", "start", "end")
    search_fields = ("name",)


@admin.register(Licence)
class LicenceAdmin(admin.ModelAdmin):
    """Each player's licence for a season (players.licences; imported from a CSV on the
    licences page)."""

    list_display = ("player", "season", "category", "club", "licensed_on")
    # By the season's id typed in, not a link per season (tests/project/test_admin_scale.py).
    list_filter = (input_filter(Licence, "season"),)
    list_select_related = ("player", "season")
    search_fields = ("player__fed_id", "player__surname", "club", "category")
    raw_id_fields = ("player", "season")
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(ErasureRequest)
class ErasureRequestAdmin(admin.ModelAdmin):
    """Erasure requests (docs/privacy.md): the officer writes the outcome (the reason, for a
    refusal) and decides with an action; the status changes only through players.services."""

    list_display = ("created_at", "player", "user", "status", "decided_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("player__fed_id", "player__surname")
    raw_id_fields = ("player", "user")
    readonly_fields = ("player", "user", "note", "status", "decided_by", "decided_at", "created_at")
    actions = ["approve", "refuse"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_decide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("players.decide_erasure")

    def _decide(self, request: HttpRequest, queryset: QuerySet[ErasureRequest], how: Any) -> None:
        done = 0
        for erasure in queryset:
            try:
                how(request=erasure, officer=request.user, outcome=erasure.outcome)
                done += 1
            except Refused as refused:
                self.message_user(request, f"{erasure}: {refused}", messages.ERROR)
        if done:
            self.message_user(
                request,
                ngettext("%(n)s request decided.", "%(n)s requests decided.", done) % {"n": done},
                messages.SUCCESS,
            )

    @admin.action(
        description=_("Approve: erase what the lists do not need"), permissions=["decide"]
    )
    def approve(self, request: HttpRequest, queryset: QuerySet[ErasureRequest]) -> None:
        self._decide(request, queryset, services.erasure_approve)

    @admin.action(description=_("Refuse (the outcome gives the reason)"), permissions=["decide"])
    def refuse(self, request: HttpRequest, queryset: QuerySet[ErasureRequest]) -> None:
        self._decide(request, queryset, services.erasure_refuse)


@admin.register(ExternalList)
class ExternalListAdmin(admin.ModelAdmin):
    """The imported ICCF and FPX lists (lists/imports/external.py): shown, never edited (a list
    is replaced by importing its day again)."""

    list_display = (
        "source",
        "list_date",
        "filename",
        "rows",
        "matched",
        "unmatched",
        "imported_at",
    )
    list_filter = ("source",)
    readonly_fields = [f.name for f in ExternalList._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ExternalListEntry)
class ExternalListEntryAdmin(admin.ModelAdmin):
    """The rows of the imported lists, with the player each one matched."""

    list_display = ("external_list", "row", "ext_id", "name", "rating", "player")
    list_filter = ("external_list__source",)
    list_select_related = ("external_list", "player")
    search_fields = ("name", "=ext_id")
    raw_id_fields = ("player",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(NameWord)
class NameWordAdmin(ReadOnlyAdmin):
    """The search's vocabulary (players.models.NameWord): kept by the database, read here."""

    search_fields = ("word",)
    # As large as the registry: one count per page, not two.
    show_full_result_count = False
