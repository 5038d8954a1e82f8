"""Reads of published lists: a player's history, the latest version, the differences
between two versions, current and superseded versions, one page of a list's entries.

Current and superseded: a period's lists are its versions; the newest is current, every
older one is superseded by it. The home page and the histories show current versions only."""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from periods.models import RatingPeriod
from players.models import Player
from rating_engine.list_layout import list_layout_of
from ratings.lists.filters import SORTS, ListEntryFilter, age_group_condition, name_condition
from ratings.lists.layouts import list_layout_page
from ratings.lists.ranks import list_rows_model
from ratings.models import ListEntry, ListFilterCount, ListFilterRow, PublishedList
from ratings.models.published import games_at_k25

#: A page of a list shows this many entries unless asked otherwise (at most MAX_PER_PAGE).
PER_PAGE = 100
MAX_PER_PAGE = 500
#: What a page's row shows (templates/ratings/_list_entries.html), read as plain rows (one dict
#: per entry, by column name): the template reads a dict's keys at the first try, where a
#: model's attributes cost it a failed item lookup each (issue 29: a first page after a
#: publication). The entry's own fields are what the list published; lists published before
#: issue 24 left them empty, and the player's are shown instead (ListEntry.published).
PAGE_FIELDS = (
    *("player_id", "rating", "change", "k", "games", "status", "inactive", "provisional"),
    *("total_games", "section"),
    *("player__fed_id", "player__surname", "player__given_name", "player__fide_id"),
    *("player__sex",),
)
#: The published fields: the entry's, else the player's (ListEntry.published).
PUBLISHED_FIELDS = ("title", "federation", "region", "club", "birth_date", "birth_year")


def list_sections_present(*, published: PublishedList) -> frozenset[str]:
    """The sections a list's entries are in (issue 24 item 2); "" for lists published before
    (and "active" for the list itself in the counts of lists published since issue 29). Cached
    for good (a published list never changes)."""
    known = getattr(published, "sections_present", None)  # asked before in this request
    if known is not None:
        return frozenset(known)
    key = f"list-sections:{published.pk}"
    found = cache.get(key)
    if found is None:
        # The sections the publication counted (ratings.publication.counts: a few rows), else
        # the entries' (a scan of the list: 155 ms for 100,000 entries on its first page).
        found = sorted(
            ListFilterCount.objects.filter(published_list=published, dimension="").values_list(
                "section", flat=True
            )
        ) or sorted(
            ListEntry.objects.filter(published_list=published)
            .order_by()
            .values_list("section", flat=True)
            .distinct()
        )
        cache.set(key, found, None)
    published.sections_present = found  # type: ignore[attr-defined]  # a page asks 3-4 times
    return frozenset(found)


def list_sectioned(*, published: PublishedList) -> bool:
    """True when some entries are in another section than the list itself (published apart,
    or left out): the page then reads the entries of one section."""
    return bool(list_sections_present(published=published) - {"", "active"})


def list_section(*, published: PublishedList, params: Mapping[str, Any]) -> str:
    """The section asked for (``?section=``) among those the regulation publishes, else the
    list itself (``active``)."""
    wanted = params.get("section") or "active"
    return wanted if wanted in list_layout_of(published.ruleset).sections() else "active"


def section_condition(*, section: str) -> Q:
    """Entries of one section; ``active`` includes the lists published before issue 24."""
    return Q(section__in=("active", "")) if section == "active" else Q(section=section)


def list_current_ids(*, system_id: int | None = None) -> list[int]:
    """Ids of the current version of every published period (newest list date first)."""
    sql = """
        SELECT id FROM (
            SELECT DISTINCT ON (period_id) id, list_date, system_id
            FROM ratings_publishedlist ORDER BY period_id, version DESC
        ) current {where} ORDER BY list_date DESC, id DESC
    """
    params: list[Any] = []
    where = ""
    if system_id is not None:
        where, params = "WHERE system_id = %s", [system_id]
    with connection.cursor() as cursor:
        cursor.execute(sql.format(where=where), params)
        return [row[0] for row in cursor.fetchall()]


def lists_current(*, system_id: int | None = None) -> QuerySet[PublishedList]:
    """The current versions (newest list date first), with their system."""
    return (
        PublishedList.objects.filter(id__in=list_current_ids(system_id=system_id))
        .select_related("system")
        .order_by("-list_date", "-id")
    )


def list_current_version(*, published: PublishedList, newest_id: int = 0) -> PublishedList:
    """The current version of `published`'s period: itself, or the version superseding it.
    `newest_id`: the newest published list's id, if the caller has it (publication_state): that
    list is current (no later version of any list exists), with no statement."""
    if newest_id and published.pk == newest_id:
        return published
    newest = published.period.lists.order_by("-version").first() if published.period_id else None
    return newest or published


def list_system_versions(*, system_id: int, limit: int = 60) -> list[tuple[PublishedList, bool]]:
    """A system's published lists, newest first, each with `True` when it is current."""
    current = set(list_current_ids(system_id=system_id))
    lists = PublishedList.objects.filter(system_id=system_id).order_by("-list_date", "-version")
    return [(published, published.pk in current) for published in lists[:limit]]


@dataclass(frozen=True)
class EntryPage:
    """One page of a list's entries with the number of entries the filters keep."""

    #: One dict per entry (PAGE_FIELDS by their last part, the PUBLISHED_FIELDS, and the
    #: status's label), in the page's order.
    entries: list[dict[str, Any]]
    total: int
    page: int
    per_page: int
    #: 1-based position of the page's first entry in the filtered, sorted list.
    start: int
    #: The columns and sections the page shows (ratings.lists.layouts.list_layout_page).
    layout: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def num_pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.num_pages else None


def list_entry_filter(
    *, published: PublishedList, params: Mapping[str, Any], with_values: bool = False
) -> ListEntryFilter:
    """The filters of a list page, bound to `params` (a QueryDict or a dict). `with_values`:
    the region and club boxes offer the list's own values (list_filter_values)."""
    entries = ListEntry.objects.filter(published_list=published)
    if list_sectioned(published=published):
        # One section at a time; left-out entries in none (cnxc-2000 5.2, fide-2000 9.23b).
        section = list_section(published=published, params=params)
        entries = entries.filter(section_condition(section=section))
    filterset = ListEntryFilter(params, queryset=entries, list_year=published.list_date.year)
    if with_values:
        for field, values in list_filter_values(published=published).items():
            widget = filterset.form.fields[field].widget
            widget.options = values
    return filterset


#: More distinct values than this (a club list of a big federation) are not offered.
MAX_FILTER_VALUES = 500


def list_filter_values(*, published: PublishedList) -> dict[str, list[str]]:
    """The distinct regions and clubs of a list's players, sorted: those the publication counted
    (ratings.publication.counts), else one GROUP BY over the list's rows; cached for good (a
    published list never changes). A field with more than MAX_FILTER_VALUES values offers none
    (the box still takes any part of a name)."""
    key = f"list-values:{published.pk}"
    values = cache.get(key)
    if values is None:
        values = {}
        counts = ListFilterCount.objects.filter(published_list=published)
        # The values the publication counted (ratings.publication.counts), else the list's rows.
        counted = counts.filter(dimension="").exists()
        model = list_rows_model(list_id=published.pk) if not counted else None
        filled = model is not None
        rows: QuerySet[Any] = (model or ListEntry).objects.filter(published_list=published)
        for field in ("region", "club"):
            if counted:
                found = list(
                    counts.filter(dimension=field)
                    .order_by("value")
                    .values_list("value", flat=True)
                    .distinct()[: MAX_FILTER_VALUES + 1]
                )
            else:
                column = field if filled else f"player__{field}"
                found = list(
                    rows.exclude(**{column: ""})
                    .order_by()
                    .values_list(column, flat=True)
                    .distinct()[: MAX_FILTER_VALUES + 1]
                )
            values[field] = sorted(found) if len(found) <= MAX_FILTER_VALUES else []
        cache.set(key, values, None)
    return dict(values)


def list_entries(*, published: PublishedList, params: Mapping[str, Any]) -> QuerySet[ListEntry]:
    """A list's entries kept by the filters in `params`, sorted (`sort`, rating by default).
    Invalid filter values are ignored (the whole list)."""
    return _entries_sorted(list_entry_filter(published=published, params=params)).select_related(
        "player"
    )


def _entries_sorted(filterset: ListEntryFilter) -> QuerySet[ListEntry]:
    qs = filterset.qs if filterset.is_valid() else filterset.queryset
    if not (filterset.is_valid() and filterset.form.cleaned_data.get("sort")):
        qs = qs.order_by(*SORTS["rating"])
    return qs


def _filter_rows(
    published: PublishedList, filterset: ListEntryFilter
) -> QuerySet[ListEntry] | QuerySet[ListFilterRow] | None:
    """The list's rows the filters keep, sorted as the page asks, when they are needed: a
    filter or a sort other than by rating (the entries' own (list, rating) index serves the
    whole list by rating). Read from the entries' own filter columns (lists published since
    issue 27; one section of a list with sections) or the list's filter rows
    (ratings.models.ListFilterRow, lists before, once written). None otherwise: the page then
    reads the entries joined to their players, with the same result."""
    if not filterset.is_valid():
        return None
    cleaned = filterset.form.cleaned_data
    condition = Q()
    for field in ("sex", "title"):
        if cleaned.get(field):
            condition &= Q(**{field: cleaned[field]})
    # Any case, a part (issue 24 item 7), as ListEntryFilter reads them.
    for field in ("region", "club"):
        if cleaned.get(field):
            condition &= _part_condition(published=published, field=field, text=cleaned[field])
    if cleaned.get("name"):
        condition &= name_condition(text=cleaned["name"], field="name_key")
    if cleaned.get("age"):
        age = age_group_condition(
            code=cleaned["age"], year=published.list_date.year, field="birth_year"
        )
        condition &= age if age is not None else Q()
    if cleaned.get("active"):
        condition &= Q(active=True)
    sort = cleaned.get("sort") or "rating"
    if not condition and sort == "rating":
        return None
    model = list_rows_model(list_id=published.pk)
    sectioned = list_sectioned(published=published)
    if model is None or (sectioned and model is not ListEntry):
        # The filter rows carry no section: a list with sections reads its entries.
        return None
    if sectioned:
        section = list_section(published=published, params=filterset.data)
        condition &= section_condition(section=section)
    order = [
        key.replace("player__", "") if isinstance(key, str) else key
        for key in SORTS.get(sort, SORTS["rating"])
    ]
    rows: QuerySet[Any] = model.objects.filter(condition, published_list=published)
    return rows.order_by(*order)


#: The filters whose counts the publication writes (ratings.publication.counts), besides
#: "active only", which every one of their rows counts apart.
COUNTED_FILTERS = frozenset({"sex", "title", "region", "club", "age"})
#: Region and club take a part of the name in any case (ListEntryFilter): the counts of every
#: value they match are added up, matched by the same lookup as the entries.
_PART_FILTERS = frozenset({"region", "club"})


def list_filter_count(
    *, published: PublishedList, section: str, used: Mapping[str, Any]
) -> int | None:
    """The number of entries of `section` that the filters `used` keep (cleaned values, only
    those set), from the counts the publication wrote (ratings.models.ListFilterCount): one
    statement. None when they do not say: a list published before them, or a filter they do not
    count (the name, or two of sex, title, region, club and age at once)."""
    dimensions = [name for name in used if name != "active"]
    if len(dimensions) > 1 or not set(dimensions) <= COUNTED_FILTERS:
        return None
    condition = Q(dimension="")
    if dimensions:
        (name,) = dimensions
        value = used[name]
        matches = {"value__icontains" if name in _PART_FILTERS else "value": value}
        condition = Q(dimension=name, **matches)
    found = ListFilterCount.objects.filter(published_list=published, section=section).aggregate(
        written=Count("pk", filter=Q(dimension="")),
        entries=Sum("entries", filter=condition),
        active=Sum("active_entries", filter=condition),
    )
    if not found["written"]:
        return None  # not written (a list published before issue 29), or an empty section
    return int(found["active" if used.get("active") else "entries"] or 0)


def _part_condition(*, published: PublishedList, field: str, text: str) -> Q:
    """Entries whose `field` holds `text`, any case (issue 24 item 7). When the list's values of
    the field are known (list_filter_values: all of them, the publication counted them), the
    values holding `text` are picked here and the entries matched by equality: the (list,
    rating, ...) index compares a column where ``UPPER(region) LIKE '%...%'`` computes one per
    entry, about six times slower for a small region's deep page (80 ms against 14 ms at
    417,000 entries). Python's and PostgreSQL's upper case agree for the letters of names."""
    known = list_filter_values(published=published).get(field) or []
    wanted = text.upper()
    matching = [value for value in known if wanted in value.upper()]
    if matching:
        return Q(**{f"{field}__in": matching})
    return Q(**{f"{field}__icontains": text})


def _filtered_count(
    published: PublishedList,
    params: Mapping[str, Any],
    filterset: ListEntryFilter,
    rows: QuerySet[ListEntry] | QuerySet[ListFilterRow] | None,
) -> int:
    """The number of entries the filters keep. Without a filter it is the list's entry_count;
    with one, the count the publication wrote (list_filter_count) when it has it, else counted
    once and cached for good (a published list never changes)."""
    sectioned = list_sectioned(published=published)
    section = list_section(published=published, params=params) if sectioned else "active"
    if not filterset.is_valid():
        if not sectioned:
            return published.entry_count
        stored = list_filter_count(published=published, section=section, used={})
        if stored is not None:
            return stored
        # The list's own section (list_entry_filter), counted once.
        key = f"list-count:{published.pk}:section-active"
        found = cache.get(key)
        if found is None:
            found = filterset.queryset.order_by().count()
            cache.set(key, found, None)
        return int(found)
    cleaned = filterset.form.cleaned_data
    used = {k: v for k, v in cleaned.items() if k != "sort" and v}
    if not used and not sectioned:
        return published.entry_count
    filters = {k: v for k, v in used.items() if k != "section"}
    if not filters and not sectioned:
        return published.entry_count
    if rows is not None or sectioned:
        # The page's rows are the entries' own filter columns (or the list has sections): what
        # the publication counted.
        stored = list_filter_count(published=published, section=section, used=filters)
        if stored is not None:
            return stored
    digest = hashlib.sha1(repr(sorted((k, str(v)) for k, v in used.items())).encode()).hexdigest()
    key = f"list-count:{published.pk}:{digest}"
    total = cache.get(key)
    if total is None:
        total = (rows if rows is not None else filterset.qs).order_by().count()
        cache.set(key, total, None)
    return int(total)


def list_entries_page(
    *,
    published: PublishedList,
    params: Mapping[str, Any],
    page: int = 1,
    per_page: int = PER_PAGE,
    filterset: ListEntryFilter | None = None,
) -> EntryPage:
    """One page of a list's entries (filters and sort from `params`). A page past the last
    gives the last page. `filterset`: the page's filters already built from the same `params`
    (list_entry_filter; the list page shows them), not built again."""
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    if filterset is None:
        filterset = list_entry_filter(published=published, params=params)
    rows = _filter_rows(published, filterset)
    total = _filtered_count(published, params, filterset, rows)
    num_pages = max(1, math.ceil(total / per_page))
    page = max(1, min(page, num_pages))
    start = (page - 1) * per_page
    # The page's players first (by rating, an index-only walk of the (list, rating, player)
    # index past the offset, no join for the skipped rows; filtered or sorted otherwise, a
    # range of an index of the list's filter rows), then their entries and players.
    ordered_qs = rows if rows is not None else _entries_sorted(filterset)
    ordered = list(ordered_qs.values_list("player_id", flat=True)[start : start + per_page])
    by_player = {e["player_id"]: e for e in _page_rows(published=published, player_ids=ordered)}
    entries = [by_player[pid] for pid in ordered if pid in by_player]
    layout = list_layout_page(published=published)
    return EntryPage(entries, total, page, per_page, start + 1, layout)


def _page_rows(*, published: PublishedList, player_ids: list[int]) -> list[dict[str, Any]]:
    """The entries of `player_ids` in `published` as plain rows (PAGE_FIELDS)."""
    statuses = dict(ListEntry._meta.get_field("status").flatchoices)
    published_fields = {
        f"published_{name}": Coalesce(name, f"player__{name}") for name in PUBLISHED_FIELDS
    }
    rows = ListEntry.objects.filter(published_list=published, player_id__in=player_ids).values(
        *PAGE_FIELDS, **published_fields
    )
    out = []
    for row in rows:
        entry = {
            key.removeprefix("player__").removeprefix("published_"): value
            for key, value in row.items()
        }
        entry["status_label"] = statuses.get(entry["status"], entry["status"])
        entry["games_at_k25"] = games_at_k25(k=entry["k"], total_games=entry["total_games"])
        out.append(entry)
    return out


def player_list_history(*, player_id: int, limit: int = 200) -> QuerySet[ListEntry]:
    """The player's entry in the current version of every published list, by system, newest
    first (a superseded version is not history: its correction replaced it).

    The entries have no index on the player alone (it would slow every publication); the
    unique (list, player) index answers this with one probe per published list."""
    list_ids = list_current_ids()
    return (
        ListEntry.objects.filter(published_list_id__in=list_ids, player_id=player_id)
        .select_related("published_list", "published_list__system")
        .order_by(
            "published_list__system__name", "-published_list__list_date", "-published_list__version"
        )[:limit]
    )


def list_latest_version(*, period: RatingPeriod) -> PublishedList | None:
    return period.lists.order_by("-version").first()


def list_diff(
    *, published: PublishedList, limit: int = 2000
) -> tuple[PublishedList | None, list[dict[str, Any]]]:
    """Version n against version n-1 of the same period: every player whose entry differs."""
    previous = PublishedList.objects.filter(
        period=published.period, version=published.version - 1
    ).first()
    if previous is None:
        return None, []
    sql = """
        SELECT COALESCE(n.player_id, o.player_id) AS player_id, o.rating, n.rating,
               o.status, n.status, o.change, n.change
        FROM (SELECT * FROM ratings_listentry WHERE published_list_id = %s) n
        FULL OUTER JOIN (SELECT * FROM ratings_listentry WHERE published_list_id = %s) o
          ON o.player_id = n.player_id
        WHERE n.player_id IS NULL OR o.player_id IS NULL
           OR n.rating IS DISTINCT FROM o.rating OR n.status <> o.status OR n.change <> o.change
        ORDER BY 1 LIMIT %s
    """
    params = [published.pk, previous.pk, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    players = Player.objects.in_bulk([r[0] for r in rows])
    out = [
        {
            "player": players.get(r[0]),
            "old_rating": r[1],
            "new_rating": r[2],
            "old_status": r[3],
            "new_status": r[4],
            "old_change": r[5],
            "new_change": r[6],
        }
        for r in rows
    ]
    return previous, out
