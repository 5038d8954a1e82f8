from django.contrib import admin

from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = (
        "fed_id",
        "surname",
        "given_name",
        "sex",
        "birth_year",
        "club",
        "region",
        "title",
        "fide_id",
        "fide_standard",
    )
    list_filter = ("sex", "title", "region", "federation", "affiliated")
    search_fields = ("fed_id", "surname", "given_name", "name_key", "=fide_id", "club")
    readonly_fields = ("name_key", "created_at", "updated_at")
    raw_id_fields = ("user",)
