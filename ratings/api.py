from __future__ import annotations

from rest_framework import serializers, viewsets

from periods.models import RatingSystem
from ratings.models import PublishedList


class PublishedListSerializer(serializers.ModelSerializer):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )

    class Meta:
        model = PublishedList
        fields = [
            "id",
            "system",
            "list_date",
            "version",
            "published_at",
            "ruleset",
            "engine_version",
            "entry_count",
            "note",
        ]


class PublishedListViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = PublishedListSerializer
    queryset = PublishedList.objects.select_related("system").order_by("-list_date", "-version")
