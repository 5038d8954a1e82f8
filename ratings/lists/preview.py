"""A list file's first rows as the import would read them, before anything is written: the
officer sees which column the rating is read from (the FIDE rating column of the rating
system's rate: ``Mar11``, ``SRtng``, ``RRtng``…) and how the names are split."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from periods.models import RatingSystem
from ratings.lists import formats as lf
from ratings.lists.imports import decode_list
from tournaments.reports.problems import Problem

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


def list_preview(*, data: bytes, format: str, system: RatingSystem, limit: int = 20) -> ListPreview:
    """The first `limit` rows of the file as the import reads them (ratings.lists.imports:
    the same readers, the same name split)."""
    head = data[:PREVIEW_BYTES]
    if len(data) > PREVIEW_BYTES and format in ("txt", "csv"):
        head = head[: head.rfind(b"\n") + 1] or head
    text = decode_list(head)
    rate = system.rate_of_play if system.rate_of_play in ("rapid", "blitz") else "standard"
    if format == "txt":
        problems, rows = lf.read_txt(text, rate=rate)
    elif format == "csv":
        problems, rows = lf.read_csv(text)
    else:
        problems, rows = lf.read_xml(text, rate=rate)
    out: list[PreviewRow] = []
    label = ""
    try:
        for raw in itertools.islice(rows, limit):
            v = raw.values
            surname, given = lf.split_name(v.get("name", ""))
            label = label or raw.labels.get("rating", "")
            out.append(
                PreviewRow(
                    row=raw.row,
                    fide_id=v.get("fide_id", ""),
                    surname=surname,
                    given_name=given,
                    fed=v.get("fed", ""),
                    title=v.get("title", ""),
                    rating=v.get("rating", ""),
                    birth_year=v.get("birth_year", ""),
                    flag=v.get("flag", ""),
                )
            )
    except lf.ListReadError as exc:  # a malformed XML piece: the rows read so far
        problems = [*problems, *exc.problems]
    return ListPreview(rows=out, rating_label=label, problems=list(problems))
