"""Published lists (every version, with its current flag and downloads) and their entries:
cursor-paginated, filtered, with ETag and Last-Modified, cached (a published list never
changes, so neither does any page of it)."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import django_filters
from django.db.models import Exists, F, OuterRef, QuerySet
from django.http import Http404, HttpResponse, HttpResponseBase
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from core.api.caching import cached_get, cached_set
from core.api.errors import ErrorSerializer
from core.api.filters import IntegerFilter, filter_parameters, filterset_schemas
from core.api.pagination import MAX_LIMIT
from core.api.permissions import Rule
from core.api.query import MAX_ID, integer_schema, query_check, query_int, query_text
from formats.lists.render import CONTENT_TYPES
from periods.models import RatingSystem
from ratings.lists.filters import SECTION_LABELS, ListEntryFilter
from ratings.lists.layouts import list_layout_api, list_published_fields
from ratings.lists.selectors import section_condition
from ratings.models import EntryStatus, ListEntry, PublishedList

BROWSE = Rule("ratings.browse_lists")
#: FIDE's own layout, besides the four downloads in the regulation's layout (issue 24).
_FIDE_FORMATS = {
    "fide.txt": "FIDE's TXT: FIDE's columns only, for tools that read FIDE's files.",
    "fide.xml": "FIDE's XML: FIDE's columns only, for tools that read FIDE's files.",
}
_DOWNLOAD_KEYS = {"fide.txt": "fide_txt", "fide.xml": "fide_xml"}
#: A page of entries in the cache: a published list never changes (IMMUTABLE, ratings.models).
ENTRIES_CACHE_SECONDS = 24 * 3600
CACHE_MAX_AGE = 3600


def lists_annotated() -> QuerySet[PublishedList]:
    """Every version, with ``current`` (no later version of its period) and ``in_force``
    (current, and no list of its system with a later date)."""
    later_version = PublishedList.objects.filter(
        period_id=OuterRef("period_id"), version__gt=OuterRef("version")
    )
    later_list = PublishedList.objects.filter(
        system_id=OuterRef("system_id"), list_date__gt=OuterRef("list_date")
    )
    return (
        PublishedList.objects.select_related("system")
        .annotate(current=~Exists(later_version), superseded_by_date=Exists(later_list))
        .order_by("-list_date", "system__code", "-version", "-id")
    )


class PublishedListSerializer(serializers.ModelSerializer[PublishedList]):
    system: serializers.SlugRelatedField[RatingSystem] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )
    current = serializers.BooleanField(
        read_only=True, help_text="No later version of this period's list exists."
    )
    in_force = serializers.SerializerMethodField(
        help_text="The current version of the system's newest list."
    )
    downloads = serializers.SerializerMethodField()
    layout = serializers.SerializerMethodField(
        help_text="The columns and sections of the list, as its regulation's facts declare them "
        "(issue 24): the downloads' columns in order, the article that lists them, the sections "
        "published and the articles that leave players out."
    )

    class Meta:
        model = PublishedList
        fields = [
            "id",
            "system",
            "period",
            "list_date",
            "version",
            "current",
            "in_force",
            "published_at",
            "ruleset",
            "engine_version",
            "regulation_version",
            "entry_count",
            "note",
            "downloads",
            "layout",
        ]
        read_only_fields = fields

    def get_in_force(self, obj: PublishedList) -> bool:
        return bool(getattr(obj, "current", False)) and not getattr(obj, "superseded_by_date", True)

    @extend_schema_field(
        inline_serializer(
            "ListDownloads",
            {
                **{fmt: serializers.URLField() for fmt in CONTENT_TYPES},
                **{
                    _DOWNLOAD_KEYS[fmt]: serializers.URLField(help_text=str(help_text))
                    for fmt, help_text in _FIDE_FORMATS.items()
                },
            },
        )
    )
    def get_downloads(self, obj: PublishedList) -> dict[str, str]:
        """csv, json, txt, xml: the list in its regulation's layout; fide_txt, fide_xml:
        FIDE's own layout (FIDE's columns only)."""
        request = self.context.get("request")
        out = {}
        for fmt in (*CONTENT_TYPES, *_FIDE_FORMATS):
            path = reverse("ratings:list_download", kwargs={"pk": obj.pk, "fmt": fmt})
            key = _DOWNLOAD_KEYS.get(fmt, fmt)
            out[key] = request.build_absolute_uri(path) if request is not None else path
        return out

    @extend_schema_field(
        inline_serializer(
            "ListLayout",
            {
                "article": serializers.CharField(),
                "columns": inline_serializer(
                    "ListLayoutColumn",
                    {"key": serializers.CharField(), "label": serializers.CharField()},
                    many=True,
                ),
                "sections": inline_serializer(
                    "ListLayoutSection",
                    {
                        "key": serializers.ChoiceField(choices=list(SECTION_LABELS)),
                        "label": serializers.CharField(),
                        "article": serializers.CharField(),
                    },
                    many=True,
                ),
                "left_out_article": serializers.CharField(
                    help_text="The articles that leave players out of the list (their data "
                    "kept); empty when none does."
                ),
            },
        )
    )
    def get_layout(self, obj: PublishedList) -> dict[str, Any]:
        return list_layout_api(published=obj)


class PublishedListFilter(django_filters.FilterSet):
    system = django_filters.CharFilter(field_name="system__code", help_text="A system's code.")
    current = django_filters.BooleanFilter(help_text="Only current versions (or only older).")
    list_date_after = django_filters.DateFilter(field_name="list_date", lookup_expr="gte")
    list_date_before = django_filters.DateFilter(field_name="list_date", lookup_expr="lte")
    # By id: an id of no period finds no list (200, empty), as any filter that matches nothing.
    period = IntegerFilter(field_name="period_id", min_value=1, max_value=MAX_ID)
    version = IntegerFilter(min_value=1, max_value=32767)

    class Meta:
        model = PublishedList
        fields: list[str] = []


# ------------------------------------------------------------------------------- entries


class EntryFilter(ListEntryFilter):
    """The list page's filters (ratings.lists.filters: region, club, sex, age group, title,
    active only) and the API's own: status, federation, birth years, a rating range. No
    `sort`: the pages follow one order, by rating (the cursor's)."""

    sort = None  # removed from the page's filter set
    status = django_filters.ChoiceFilter(choices=EntryStatus.choices)
    federation = django_filters.CharFilter(field_name="player__federation", lookup_expr="iexact")
    born_from = IntegerFilter(
        field_name="player__birth_year", lookup_expr="gte", min_value=0, max_value=9999
    )
    born_until = IntegerFilter(
        field_name="player__birth_year", lookup_expr="lte", min_value=0, max_value=9999
    )
    rating_min = IntegerFilter(field_name="rating", lookup_expr="gte", min_value=0, max_value=4000)
    rating_max = IntegerFilter(field_name="rating", lookup_expr="lte", min_value=0, max_value=4000)
    # The page's checkbox reads any value as "on"; the API reads true or false.
    active = django_filters.BooleanFilter(
        method="filter_active", help_text="Only active players (rated, new or provisional)."
    )
    section = django_filters.ChoiceFilter(
        choices=list(SECTION_LABELS.items()),
        method="filter_section",
        help_text="One section of the list (issue 24): active (the list itself), inactive "
        "(published apart, feda-1996 8.22b), titled_unrated (fide-2000 9.22). Without it, "
        "every published section; players left out (cnxc-2000 5.2, fide-2000 9.23b) never.",
    )

    class Meta(ListEntryFilter.Meta):
        pass

    def filter_section(self, queryset: QuerySet[ListEntry], name: str, value: str) -> Any:
        return queryset.filter(section_condition(section=value)) if value else queryset


class EntrySerializer(serializers.Serializer[Any]):
    fed_id = serializers.CharField(source="player__fed_id")
    fide_id = serializers.IntegerField(source="player__fide_id", allow_null=True)
    surname = serializers.CharField(source="player__surname")
    given_name = serializers.CharField(source="player__given_name")
    sex = serializers.CharField(source="player__sex")
    # As published (issue 24: the entry keeps them; the player's for lists published before).
    title = serializers.CharField(source="published_title")
    birth_year = serializers.IntegerField(source="published_birth_year", allow_null=True)
    birth_date = serializers.DateField(
        source="published_birth_date",
        allow_null=True,
        help_text="Only in lists whose regulation publishes it (feda-1996 8.12a, fide-2000 "
        "9.12); null otherwise.",
    )
    federation = serializers.CharField(source="published_federation")
    region = serializers.CharField(source="published_region")
    club = serializers.CharField(source="published_club")
    rating = serializers.IntegerField(allow_null=True)
    change = serializers.IntegerField()
    k = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField()
    total_games = serializers.IntegerField()
    status = serializers.CharField()
    inactive = serializers.BooleanField()
    provisional = serializers.BooleanField()
    games_k25 = serializers.IntegerField(
        allow_null=True, help_text="The games accumulated while K is 25 (fide-2000 9.12c)."
    )
    section = serializers.ChoiceField(
        choices=list(SECTION_LABELS),
        help_text="The section the entry is published in (issue 24).",
    )


ENTRY_VALUES = [
    "player_id",
    "player__fed_id",
    "player__fide_id",
    "player__surname",
    "player__given_name",
    "player__sex",
    "rating",
    "change",
    "k",
    "games",
    "total_games",
    "status",
    "inactive",
    "provisional",
    "section",
]
ENTRY_PAGE_DEFAULT = 100


def _cursor_encode(rating: int, player_id: int) -> str:
    return base64.urlsafe_b64encode(f"{rating}:{player_id}".encode()).decode().rstrip("=")


#: A cursor is URL-safe base64 (unpadded); one that is, but was not made by this API, names no
#: place in the list: 422 (core.api.errors.UNPROCESSABLE_CODES), as an id of nothing.
CURSOR_SCHEMA = {"type": "string", "pattern": "^[A-Za-z0-9_-]*$"}


def _cursor_decode(raw: str) -> tuple[int, int]:
    unknown = ValidationError({"cursor": [_("Invalid cursor.")]}, code="unknown_cursor")
    try:
        text = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("ascii")
        rating, player_id = (int(x) for x in text.split(":"))
    except (ValueError, UnicodeDecodeError):
        raise unknown from None
    if not (-1 <= rating <= 32767 and 0 < player_id < 2**63):
        raise unknown
    return rating, player_id


def entries_page(
    *, entries: QuerySet[ListEntry], cursor: tuple[int, int] | None, limit: int
) -> tuple[list[dict[str, Any]], tuple[int, int] | None]:
    """One page of a list's (filtered) entries by rating, unrated last, then player: keyset
    pagination on the (list, rating, player) index, so page 1,000 costs what page 1 costs.
    After a cursor (rating, player; rating -1 for unrated) the rest of its rating comes first,
    then the lower ratings, then the unrated: each part an index range. Returns the rows and
    the next page's cursor."""
    by_rating: list[Any] = [F("rating").desc(nulls_last=True), "player_id"]
    if cursor is None:
        parts = [entries.order_by(*by_rating)]
    elif cursor[0] >= 0:
        rating, player_id = cursor
        parts = [
            entries.filter(rating=rating, player_id__gt=player_id).order_by("player_id"),
            entries.filter(rating__lt=rating).order_by(*by_rating),
            entries.filter(rating__isnull=True).order_by("player_id"),
        ]
    else:
        parts = [entries.filter(rating__isnull=True, player_id__gt=cursor[1]).order_by("player_id")]
    rows: list[dict[str, Any]] = []
    for part in parts:
        wanted = limit + 1 - len(rows)
        if wanted <= 0:
            break
        # The page's entries first (an index range), then their players by primary key. Why:
        # joined in one statement the planner may merge-join the registry from its first id
        # to reach a page deep in the unrated part (100 ms on 500,000 players, for 0.5 ms).
        ids = list(part.values_list("pk", flat=True)[:wanted])
        found = {
            row["pk"]: row
            for row in ListEntry.objects.filter(pk__in=ids).values(
                "pk", *ENTRY_VALUES, **list_published_fields()
            )
        }
        rows.extend(found[pk] for pk in ids)
    following = None
    if len(rows) > limit:
        rows = rows[:limit]
        last = rows[-1]
        following = (last["rating"] if last["rating"] is not None else -1, last["player_id"])
    return rows, following


ENTRY_PARAMETERS = [
    *filter_parameters(EntryFilter),
    OpenApiParameter("cursor", CURSOR_SCHEMA, description="From `next` of the page before."),
    OpenApiParameter(
        "limit",
        integer_schema(1, MAX_LIMIT),
        description=f"Entries per page ({ENTRY_PAGE_DEFAULT} by default).",
    ),
]


class PublishedListViewSet(viewsets.ReadOnlyModelViewSet[PublishedList]):
    """Every published version of every list, newest first."""

    serializer_class = PublishedListSerializer
    filterset_class = PublishedListFilter
    rules = {"list": BROWSE, "retrieve": BROWSE, "entries": BROWSE}

    def get_queryset(self) -> QuerySet[PublishedList]:
        return lists_annotated()

    def get_filterset_class(self) -> Any:
        return EntryFilter if self.action == "entries" else PublishedListFilter

    @extend_schema(
        parameters=ENTRY_PARAMETERS,
        responses={
            200: inline_serializer(
                "ListEntryPage",
                {
                    "next": serializers.URLField(allow_null=True),
                    "results": EntrySerializer(many=True),
                },
            ),
            304: OpenApiResponse(description="Not modified (If-None-Match / If-Modified-Since)."),
            422: OpenApiResponse(ErrorSerializer, description="A cursor this API did not make."),
        },
    )
    @action(detail=True, pagination_class=None, filter_backends=[])
    def entries(self, request: Request, pk: str | None = None) -> HttpResponseBase:
        """The list's entries by rating, unrated last; filters as the list page's. Pages are
        cached and carry an ETag and Last-Modified: a published list never changes."""
        # The page as first computed, found by the request's own query string: no database,
        # no filter validation for a page asked for before (only valid pages are kept).
        query = sorted(request.query_params.lists())
        cache_key = (
            "api:entries:"
            + hashlib.sha256(
                f"v1|{request.get_host()}|{pk}|{query}".encode()  # the host: `next` is absolute
            ).hexdigest()
        )
        page = cached_get(cache_key)
        if page is None:
            page = self._entries_page(request, pk)
            cached_set(cache_key, page, ENTRIES_CACHE_SECONDS)
        etag, last_modified, body = page
        not_modified = get_conditional_response(
            request, etag=etag, last_modified=int(last_modified)
        )
        if not_modified is not None:
            return _cache_headers(not_modified, etag, last_modified)
        response = HttpResponse(body, content_type="application/json")
        return _cache_headers(response, etag, last_modified)

    def _entries_page(self, request: Request, pk: str | None) -> tuple[str, float, bytes]:
        """(ETag, Last-Modified, the JSON body) of one page."""
        published = _published_or_404(pk)
        query_check(request.query_params, filterset_schemas(EntryFilter))
        limit = query_int(
            request.query_params, "limit", default=ENTRY_PAGE_DEFAULT, minimum=1, maximum=MAX_LIMIT
        )
        raw_cursor = query_text(request.query_params, "cursor", CURSOR_SCHEMA)
        cursor = _cursor_decode(raw_cursor) if raw_cursor else None
        filterset = EntryFilter(
            request.query_params,
            queryset=ListEntry.objects.filter(published_list_id=published.pk).exclude(
                section="left_out"
            ),
            list_year=published.list_date.year,
        )
        if not filterset.is_valid():
            raise ValidationError(filterset.errors)
        params = sorted(
            (k, v) for k, v in filterset.form.cleaned_data.items() if v not in (None, "")
        )
        key_text = f"v1|{published.pk}|{params}|{raw_cursor}|{limit}"
        etag = '"' + hashlib.sha256(key_text.encode()).hexdigest()[:32] + '"'
        rows, following = entries_page(entries=filterset.qs, cursor=cursor, limit=limit)
        url = request.build_absolute_uri()
        next_url = (
            replace_query_param(url, "cursor", _cursor_encode(*following)) if following else None
        )
        columns = {c["key"] for c in list_layout_api(published=published)["columns"]}
        for row in rows:
            row["games_k25"] = row["total_games"] if row["k"] == 25 else None
            row["section"] = row["section"] or "active"
            if "birth_date" not in columns:
                row["published_birth_date"] = None
        data = {"next": next_url, "results": EntrySerializer(rows, many=True).data}
        return etag, published.published_at.timestamp(), JSONRenderer().render(data)


def _published_or_404(pk: str | None) -> PublishedList:
    """The list's id and date only (a page of it needs no more)."""
    published = (
        PublishedList.objects.filter(pk=int(pk))
        .only("pk", "published_at", "list_date", "ruleset")
        .first()
        if pk and pk.isdigit() and len(pk) < 19
        else None
    )
    if published is None:
        raise Http404
    return published


def _cache_headers(response: HttpResponseBase, etag: str, last_modified: float) -> Any:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, public=True, max_age=CACHE_MAX_AGE)
    return response
