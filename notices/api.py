"""A user's notices and his notice preferences in the API (v1): his own only (rules.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.permissions import Rule
from core.api.serializers import RefuseUnknownFields
from notices import selectors, services
from notices.models import Notice, NoticePreference
from periods.models import RatingSystem


class NoticeSerializer(serializers.ModelSerializer[Notice]):
    class Meta:
        model = Notice
        fields = ["id", "kind", "subject", "text", "link", "created_at", "read_at"]
        read_only_fields = fields


class NoticePreferenceSerializer(
    RefuseUnknownFields, serializers.ModelSerializer[NoticePreference]
):
    systems = serializers.SlugRelatedField(
        slug_field="code",
        many=True,
        required=False,
        queryset=RatingSystem.objects.all(),
        help_text="The codes of the rating systems whose every new list he is told about.",
    )

    class Meta:
        model = NoticePreference
        fields = [
            "language",
            "by_email",
            "list_published",
            "event_rated",
            "live_rating",
            "report",
            "officer_digest",
            "systems",
        ]


class NoticeViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Notice]
):
    """The signed-in user's notices, newest first."""

    serializer_class = NoticeSerializer
    filterset_fields = ["kind"]
    rules = {
        "list": Rule("notices.follow_notices"),
        "retrieve": Rule("notices.read_notice", on_object=True),
        "read": Rule("notices.read_notice", on_object=True),
        "read_all": Rule("notices.follow_notices"),
    }

    def get_queryset(self) -> QuerySet[Notice]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generation: no user
            return Notice.objects.none()
        if self.action == "list":
            return selectors.notices_for_user(user=self.request.user)
        return Notice.objects.order_by("-created_at", "-id")

    @extend_schema(request=None, responses=NoticeSerializer)
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def read(self, request: Request, pk: str | None = None) -> Response:
        """Mark one of his notices read."""
        notice = self.get_object()
        services.notices_mark_read(user=request.user, ids=[notice.pk])
        notice.refresh_from_db()
        return Response(NoticeSerializer(notice).data)

    @extend_schema(request=None, responses={200: {"type": "object"}})
    @action(
        detail=False,
        methods=["post"],
        url_path="read-all",
        filter_backends=[],
        pagination_class=None,
    )
    def read_all(self, request: Request) -> Response:
        """Mark all his notices read; how many were unread."""
        return Response({"marked": services.notices_mark_read(user=request.user)})


class NoticePreferenceView(APIView):
    """The signed-in user's notice preferences: which kinds he gets, by e-mail or not, in which
    language, and which rating systems he follows. Without a row of his own, the defaults."""

    rules = {
        "get": Rule("notices.follow_notices"),
        "put": Rule("notices.follow_notices"),
        "patch": Rule("notices.follow_notices"),
    }

    @extend_schema(responses=NoticePreferenceSerializer)
    def get(self, request: Request) -> Response:
        preference = selectors.preference_for(user=request.user)
        return Response(_data(preference))

    @extend_schema(request=NoticePreferenceSerializer, responses=NoticePreferenceSerializer)
    def put(self, request: Request) -> Response:
        return self._update(request, partial=False)

    @extend_schema(request=NoticePreferenceSerializer, responses=NoticePreferenceSerializer)
    def patch(self, request: Request) -> Response:
        return self._update(request, partial=True)

    def _update(self, request: Request, *, partial: bool) -> Response:
        body = NoticePreferenceSerializer(
            selectors.preference_for(user=request.user), data=request.data, partial=partial
        )
        body.is_valid(raise_exception=True)
        preference = services.preference_update(user=request.user, **body.validated_data)
        return Response(_data(preference))


def _data(preference: NoticePreference) -> dict[str, Any]:
    if preference.pk is None:
        # Unsaved defaults: no systems followed (a many-to-many needs a saved row).
        data = {
            name: getattr(preference, name)
            for name in NoticePreferenceSerializer.Meta.fields
            if name != "systems"
        }
        return {**data, "systems": []}
    return dict(NoticePreferenceSerializer(preference).data)
