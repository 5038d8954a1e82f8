from django.contrib import admin

from players.models import PUBLIC_FIELDS, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    # The public fields but the federation and the rapid and blitz ratings.
    list_display = tuple(
        f for f in PUBLIC_FIELDS if f not in ("federation", "fide_rapid", "fide_blitz")
    )
    list_filter = ("sex", "title", "region", "federation", "affiliated")
    search_fields = ("fed_id", "surname", "given_name", "name_key", "=fide_id", "club")
    readonly_fields = ("name_key", "created_at", "updated_at")
    raw_id_fields = ("user",)
