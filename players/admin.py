from django.contrib import admin

from core.admin import input_filter
from players.models import PUBLIC_FIELDS, Player


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
    )
    search_fields = ("fed_id", "surname", "given_name", "name_key", "=fide_id", "club")
    readonly_fields = ("name_key", "created_at", "updated_at")
    raw_id_fields = ("user",)
    # The registry is the federation's largest table (150,000+ rows): one count per page, not
    # two (tests/project/test_admin_scale.py).
    show_full_result_count = False
