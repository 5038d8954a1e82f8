"""Read side of list downloads: the rows of one published list version, rendered and cached.

A published list never changes (ratings/models/published.py), so a download is identified by the
list id and version: a strong ETag, a long public Cache-Control, and for small lists the rendered
bytes kept in Django's cache. Large lists are streamed from the database with
``.iterator(chunk_size=…)`` (a server-side cursor on PostgreSQL), never built in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.core.cache import cache
from django.db.models import F

from formats import lists as lf
from formats.lists.render import CONTENT_TYPES
from ratings.models import ListEntry, PublishedList

#: Format -> content type (formats.lists.render.CONTENT_TYPES).
FORMATS = CONTENT_TYPES
# Bump when the rendering changes, so cached bytes and ETags change with it.
RENDER_VERSION = 1
CHUNK_SIZE = 2000
CACHE_MAX_ENTRIES = 5000  # lists up to this size are kept rendered in the cache
CACHE_SECONDS = 60 * 60 * 24 * 30
FLUSH_BYTES = 64 * 1024

FIDE_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"})

_ENTRY_FIELDS = (
    "player__fide_id",
    "player__fed_id",
    "player__surname",
    "player__given_name",
    "player__federation",
    "player__sex",
    "player__title",
    "rating",
    "change",
    "games",
    "k",
    "player__birth_year",
    "inactive",
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
    ) = values
    flag = ("w" if sex == "F" else "") + ("i" if inactive else "")
    return lf.ListRow(
        fide_id=fide_id,
        fed_id=fed_id,
        name=f"{surname}, {given}" if given else surname,
        fed=fed,
        sex=sex,
        title=title if title in FIDE_TITLES else "",
        w_title=title if title in FIDE_TITLES and title.startswith("W") else "",
        o_title="" if title in FIDE_TITLES else title,
        rating=rating,
        change=change,
        games=games,
        k=k,
        birth_year=birth,
        flag=flag,
    )


def list_rows(*, published_list: PublishedList) -> Iterator[lf.ListRow]:
    """Entries by rating (unrated last), then name; read in chunks from the database."""
    queryset = (
        ListEntry.objects.filter(published_list_id=published_list.pk)
        .order_by(F("rating").desc(nulls_last=True), "player__surname", "player__given_name", "pk")
        .values_list(*_ENTRY_FIELDS)
    )
    for values in queryset.iterator(chunk_size=CHUNK_SIZE):
        yield _row(values)


def _pieces(*, published_list: PublishedList, fmt: str) -> Iterator[str]:
    rows = list_rows(published_list=published_list)
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
        }
        return lf.render_json(rows, meta=meta)
    if fmt == "txt":
        return lf.render_txt(rows, rating_label=published_list.list_date.strftime("%b%y").upper())
    if fmt == "xml":
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
