from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from players.models import Player
from players.selectors import MATCH_CAP, players_matching


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = [
            "fed_id",
            "surname",
            "given_name",
            "sex",
            "birth_year",
            "club",
            "region",
            "federation",
            "title",
            "fide_id",
            "fide_standard",
            "fide_rapid",
            "fide_blitz",
        ]


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = PlayerSerializer
    lookup_field = "fed_id"

    def get_queryset(self) -> QuerySet[Player]:
        query = self.request.query_params.get("q", "")
        if query and self.action == "list":
            # The page's search (players.selectors), best first; ?limit=&offset= page it.
            return players_matching(query=query, cap=MATCH_CAP)[:200]
        return Player.objects.order_by("name_key", "id")
