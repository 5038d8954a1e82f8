"""Read side of list downloads: the rows of one published list version, rendered and cached.

A published list never changes (ratings/models/published.py), so a download is identified by the
list id and version: a strong ETag, a long public Cache-Control, and for small lists the rendered
bytes kept in Django's cache. Large lists are streamed from the database with
``.iterator(chunk_size=…)`` (a server-side cursor on PostgreSQL), never built in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.core.cache import cache
from django.db.models import Case, F, IntegerField, Value, When

from formats import lists as lf
from formats.lists.render import CONTENT_TYPES
from rating_engine.list_layout import FIDE_TITLES, ListLayout, list_layout_of
from ratings.lists.layouts import list_published_fields
from ratings.models import ListEntry, PublishedList

#: Format -> content type. ``csv``, ``json``, ``txt`` and ``xml`` are the federation's list in
#: its regulation's layout (issue 24: TXT and XML with the regulation's columns, the
#: federation ID next to the FIDE ID; CSV and JSON every column); ``fide.txt`` and
#: ``fide.xml`` are FIDE's own layout, FIDE's columns only, for tools that read FIDE's files.
FORMATS = {**CONTENT_TYPES, "fide.txt": CONTENT_TYPES["txt"], "fide.xml": CONTENT_TYPES["xml"]}
# Bump when the rendering changes, so cached bytes and ETags change with it.
# 2: issue 24, the regulations' layouts and the sections.
RENDER_VERSION = 2
CHUNK_SIZE = 2000
CACHE_MAX_ENTRIES = 5000  # lists up to this size are kept rendered in the cache
CACHE_SECONDS = 60 * 60 * 24 * 30
FLUSH_BYTES = 64 * 1024

#: Sections in the order they are written (rating_engine.list_layout.SECTION_KEYS); ""
#: (lists published before issue 24) is the list itself.
_SECTION_ORDER = Case(
    When(section="inactive", then=Value(1)),
    When(section="titled_unrated", then=Value(2)),
    default=Value(0),
    output_field=IntegerField(),
)

_ENTRY_FIELDS = (
    "player__fide_id",
    "player__fed_id",
    "player__surname",
    "player__given_name",
    "published_federation",
    "player__sex",
    "published_title",
    "rating",
    "change",
    "games",
    "k",
    "published_birth_year",
    "inactive",
    "published_region",
    "published_club",
    "published_birth_date",
    "total_games",
    "provisional",
    "section",
)


def _identity(published_list: PublishedList) -> str:
    """List id + version, plus the publication instant (immutable too), so a database rebuilt
    from scratch that reuses an id never meets a stale cached body or ETag."""
    stamp = int(published_list.published_at.timestamp() * 1_000_000)
    return f"{published_list.pk}-v{published_list.version}-{stamp:x}"


def list_etag(*, published_list: PublishedList, fmt: str) -> str:
    return f'"list-{_identity(published_list)}-{fmt}-r{RENDER_VERSION}"'


def list_filename(*, published_list: PublishedList, fmt: str) -> str:
    return (
        f"{published_list.system.code}-{published_list.list_date:%Y-%m-%d}"
        f"-v{published_list.version}.{fmt}"
    )


def _row(values: tuple) -> lf.ListRow:
    (
        fide_id,
        fed_id,
        surname,
        given,
        fed,
        sex,
        title,
        rating,
        change,
        games,
        k,
        birth,
        inactive,
        region,
        club,
        birth_date,
        total_games,
        provisional,
        section,
    ) = values
    title = title or ""
    flag = ("w" if sex == "F" else "") + ("i" if inactive else "")
    fide_title = title if title in FIDE_TITLES else ""
    return lf.ListRow(
        fide_id=fide_id,
        fed_id=fed_id,
        name=f"{surname}, {given}" if given else surname,
        fed=fed or "",
        sex=sex,
        title=fide_title,
        w_title=title if fide_title and title.startswith("W") else "",
        o_title="" if fide_title else title,
        rating=rating,
        change=change,
        games=games,
        k=k,
        birth_year=birth,
        flag=flag,
        region=region or "",
        club=club or "",
        birth_date=birth_date.isoformat() if birth_date else "",
        total_games=total_games,
        # cnxc-2000 4.2: "com uma marca distintiva, no caso de ser provisória".
        provisional="*" if provisional and rating is not None else "",
        # fide-2000 9.12c: the games accumulated, "si k=25".
        games_k25=total_games if k == 25 else None,
        section=section or "active",
        fide_title=fide_title,
        any_title=title,
        activity="inactive" if inactive else "active",
    )


def list_rows(
    *, published_list: PublishedList, sections: tuple[str, ...] | None = None
) -> Iterator[lf.ListRow]:
    """The published entries by section (the list, then inactive players, then titled
    unrated ones), each by rating (unrated last), then name; read in chunks from the database.
    Entries left out (cnxc-2000 5.2, fide-2000 9.23b) are not published. ``sections``: only
    those (``active`` includes the lists published before issue 24)."""
    queryset = ListEntry.objects.filter(published_list_id=published_list.pk).exclude(
        section="left_out"
    )
    if sections is not None:
        wanted = [*sections, *([""] if "active" in sections else [])]
        queryset = queryset.filter(section__in=wanted)
    queryset = (
        queryset.annotate(section_order=_SECTION_ORDER, **list_published_fields())
        .order_by(
            "section_order",
            F("rating").desc(nulls_last=True),
            "player__surname",
            "player__given_name",
            "pk",
        )
        .values_list(*_ENTRY_FIELDS)
    )
    for values in queryset.iterator(chunk_size=CHUNK_SIZE):
        yield _row(values)


def list_layout(*, published_list: PublishedList) -> ListLayout:
    """The layout of the list's regulation (its facts, through the registry)."""
    return list_layout_of(published_list.ruleset)


def layout_description(*, published_list: PublishedList) -> dict[str, object]:
    """The list's columns and sections with their articles (the JSON download, the API)."""
    layout = list_layout(published_list=published_list)
    articles = layout.section_articles()
    return {
        "columns": list(lf.layout_keys(layout.columns.value)),
        "article": layout.columns.article,
        "sections": [{"key": key, "article": articles[key]} for key in layout.sections()],
        "left_out": articles.get("left_out", ""),
    }


def _pieces(*, published_list: PublishedList, fmt: str) -> Iterator[str]:
    rows = list_rows(published_list=published_list)
    rating_label = published_list.list_date.strftime("%b%y").upper()
    columns = list_layout(published_list=published_list).columns.value
    if fmt == "csv":
        return lf.render_csv(rows)
    if fmt == "json":
        meta = {
            "id": published_list.pk,
            "system": published_list.system.code,
            "system_name": published_list.system.name,
            "list_date": published_list.list_date.isoformat(),
            "version": published_list.version,
            "ruleset": published_list.ruleset,
            "engine_version": published_list.engine_version,
            "regulation_version": published_list.regulation_version,
            "entries": published_list.entry_count,
            "layout": layout_description(published_list=published_list),
        }
        return lf.render_json(rows, meta=meta)
    if fmt == "txt":
        return lf.render_layout_txt(rows, columns=columns, rating_label=rating_label)
    if fmt == "xml":
        return lf.render_layout_xml(rows, columns=columns)
    if fmt == "fide.txt":
        return lf.render_txt(rows, rating_label=rating_label)
    if fmt == "fide.xml":
        return lf.render_xml(rows)
    raise ValueError(f"unknown list format {fmt!r}")


def _encode(pieces: Iterable[str]) -> Iterator[bytes]:
    """UTF-8 bytes in blocks of about FLUSH_BYTES."""
    buf: list[str] = []
    size = 0
    for piece in pieces:
        buf.append(piece)
        size += len(piece)
        if size >= FLUSH_BYTES:
            yield "".join(buf).encode("utf-8")
            buf.clear()
            size = 0
    if buf:
        yield "".join(buf).encode("utf-8")


def _cache_key(published_list: PublishedList, fmt: str) -> str:
    return f"list-download:{_identity(published_list)}:{fmt}:r{RENDER_VERSION}"


def list_download(*, published_list: PublishedList, fmt: str) -> bytes | Iterator[bytes]:
    """The rendered list: cached ``bytes`` for small lists, a byte iterator for large ones."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown list format {fmt!r}")
    size = (
        published_list.entry_count
        or ListEntry.objects.filter(published_list_id=published_list.pk).count()
    )
    if size > CACHE_MAX_ENTRIES:
        return _encode(_pieces(published_list=published_list, fmt=fmt))
    key = _cache_key(published_list, fmt)
    body = cache.get(key)
    if body is None:
        body = b"".join(_encode(_pieces(published_list=published_list, fmt=fmt)))
        cache.set(key, body, CACHE_SECONDS)
    return body
