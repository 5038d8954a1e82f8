"""The registry's serializer of a player's public record. The /players/ resource (the search and
a player's card with his ratings) is served by ratings/api/players.py, its one home: the card
needs the ratings app."""

from __future__ import annotations

from rest_framework import serializers

from players.models import PUBLIC_FIELDS, Player, Title


class PlayerSerializer(serializers.ModelSerializer[Player]):
    # Declared: a read-only field built from the model forgets that the title may be blank.
    title = serializers.ChoiceField(choices=Title.choices, allow_blank=True, read_only=True)

    class Meta:
        model = Player
        fields = list(PUBLIC_FIELDS)
        read_only_fields = fields
