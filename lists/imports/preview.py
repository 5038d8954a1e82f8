"""A list file's first rows as the import would read them, before anything is written: the
officer sees which column the rating is read from (the FIDE rating column of the rating
system's rate: ``Mar11``, ``SRtng``, ``RRtng``…), which ratings it will be written to (the
players' FIDE standard/rapid/blitz field, or the rating system's ratings) and how the names
are split; and, reading the whole file as the import does (a dry run, rolled back), how many
players will be created, updated and skipped (issue 24 item 7)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from formats import lists as lf
from formats.problems import Problem
from lists.imports import sql
from lists.imports.importer import (
    ListImportError,
    ListImportResult,
    decode_list,
    default_players,
    default_target,
    list_import,
)
from lists.imports.source import ByteSource
from periods.models import RatingSystem

#: The players' FIDE fields as the player's page names them (players.models.Player).
FIDE_FIELD_NAMES = {
    "fide_standard": _("FIDE standard"),
    "fide_rapid": _("FIDE rapid"),
    "fide_blitz": _("FIDE blitz"),
}

#: Bytes read for a preview: the first rows of any list, without reading a 100 MB file.
PREVIEW_BYTES = 256 * 1024


@dataclass(frozen=True)
class PreviewRow:
    row: int
    fide_id: str
    surname: str
    given_name: str
    fed: str
    title: str
    rating: str
    birth_year: str
    flag: str


@dataclass(frozen=True)
class ListPreview:
    rows: list[PreviewRow]
    #: The file's label of the column the rating is read from ("" when none was found).
    rating_label: str = ""
    problems: list[Problem] = field(default_factory=list)
    #: "fide" (the players' FIDE ratings) or "system" (the rating system's ratings).
    target: str = sql.TARGET_SYSTEM
    #: Target "fide": (the player's field, its verbose name, the file's column) written.
    fide_columns: list[tuple[str, str, str]] = field(default_factory=list)
    #: Which players not in the registry are created (result.PLAYER_CHOICES).
    players: str = ""
    #: The whole file's counts, as the import will write them (None when not counted or
    #: when the file has problems: nothing would be written).
    counts: ListImportResult | None = None


def list_preview(
    *,
    data: bytes,
    format: str,
    system: RatingSystem,
    target: str | None = None,
    players: str | None = None,
    source: ByteSource | None = None,
    limit: int = 20,
) -> ListPreview:
    """The first `limit` rows of the file as the import reads them (lists.imports.importer:
    the same readers, the same name split) and where their ratings will be written. With
    ``source`` (the whole file), the counts of the import: list_import's dry run."""
    target = target or default_target(format)
    players = players or default_players(target)
    fide = target == sql.TARGET_FIDE
    head = data[:PREVIEW_BYTES]
    if len(data) > PREVIEW_BYTES and format in ("txt", "csv"):
        head = head[: head.rfind(b"\n") + 1] or head
    text = decode_list(head)
    rate = system.rate_of_play if system.rate_of_play in ("rapid", "blitz") else "standard"
    read_rate = lf.ALL_RATES if fide else rate
    if format == "txt":
        problems, rows = lf.read_txt(text, rate=read_rate)
    elif format == "csv":
        problems, rows = lf.read_csv(text)
    else:
        problems, rows = lf.read_xml(text, rate=read_rate)
    out: list[PreviewRow] = []
    labels: dict[str, str] = {}
    try:
        for raw in itertools.islice(rows, limit):
            v = raw.values
            labels = labels or dict(raw.labels)
            surname, given = lf.split_name(v.get("name", ""))
            out.append(
                PreviewRow(
                    row=raw.row,
                    fide_id=v.get("fide_id", ""),
                    surname=surname,
                    given_name=given,
                    fed=v.get("fed", ""),
                    title=lf.normal_title(v.get("title", "")),
                    rating=" / ".join(v[f] or "—" for f in _rating_fields(v)) if v else "",
                    birth_year=v.get("birth_year", ""),
                    flag=v.get("flag", ""),
                )
            )
    except lf.ListReadError as exc:  # a malformed XML piece: the rows read so far
        problems = [*problems, *exc.problems]
    fide_columns = []
    if fide:
        for f in _rating_fields(labels):
            column = sql.FIDE_COLUMNS[sql.fide_field(rate) if f == "rating" else f]
            name = str(FIDE_FIELD_NAMES[column])
            fide_columns.append((column, name, labels[f]))
    counts = None
    if source is not None:
        try:
            counts = list_import(
                system=system,
                data=source,
                format=format,
                target=target,
                players=players,
                dry_run=True,
            )
        except ListImportError as exc:
            problems = [*problems, *(p for p in exc.problems if p not in problems)]
    return ListPreview(
        players=players,
        counts=counts,
        rows=out,
        rating_label=", ".join(labels[f] for f in _rating_fields(labels)),
        problems=list(problems),
        target=target,
        fide_columns=fide_columns,
    )


def _rating_fields(found: Mapping[str, object]) -> list[str]:
    """The rating fields read, in the order standard, rapid, blitz."""
    return [f for f in ("rating", *sql.FIDE_COLUMNS) if f in found]
