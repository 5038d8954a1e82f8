"""A list file read as a stream: bytes in pieces, decoded incrementally, cut into lines.

Nothing here holds the whole file. A ``ByteSource`` is a function that opens the file again
each time it is called (an import may read it twice: a restart as Latin-1, or the line numbers
of XML problems): bytes in memory (``bytes_source``) or a file on disk (``file_source``, what the
worker uses once it has copied the uploaded pieces out of the database).

Decoding follows ``decode_list`` (UTF-8 with or without BOM, else the whole file as Latin-1)
without reading the file first: the UTF-8 incremental decoder runs until a byte sequence is
not UTF-8. If everything decoded before it was ASCII, Latin-1 and UTF-8 agree on it and the
rest is decoded as Latin-1 on the spot; otherwise ``NotUtf8`` tells the import to start again
with Latin-1 (the import's savepoint is rolled back; such files are rare).
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from formats import lists as lf

T = TypeVar("T")

#: Bytes read at a time (the pieces of an upload are 1 MiB too).
READ_BYTES = 1 << 20

#: A function that opens the file and yields its bytes in pieces.
ByteSource = Callable[[], Iterator[bytes]]

_BOM = codecs.BOM_UTF8
# Characters str.splitlines() breaks at: a piece ending in one of them ends a line.
_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


class NotUtf8(Exception):
    """The file is not UTF-8, and non-ASCII text was already decoded as UTF-8."""


def bytes_source(data: bytes) -> ByteSource:
    def open_bytes() -> Iterator[bytes]:
        view = memoryview(data)
        for start in range(0, len(view), READ_BYTES):
            yield bytes(view[start : start + READ_BYTES])

    return open_bytes


def file_source(path: Path | str) -> ByteSource:
    def open_file() -> Iterator[bytes]:
        with open(path, "rb") as f:
            while piece := f.read(READ_BYTES):
                yield piece

    return open_file


def decode_pieces(pieces: Iterable[bytes], *, latin1: bool = False) -> Iterator[str]:
    """The text of ``pieces``, decoded as ``decode_list`` decodes the whole file (see the
    module's docstring); ``latin1`` forces Latin-1 from the start."""
    if latin1:
        for piece in pieces:
            yield piece.decode("latin-1")
        return
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    ascii_so_far = True
    pieces = iter(pieces)
    for piece in pieces:
        try:
            text = decoder.decode(piece)
        except UnicodeDecodeError:
            pending = decoder.getstate()[0]
            if not ascii_so_far or pending:
                raise NotUtf8 from None
            yield piece.decode("latin-1")
            yield from (p.decode("latin-1") for p in pieces)
            return
        if ascii_so_far and (not text.isascii() or piece.startswith(_BOM)):
            ascii_so_far = False  # a BOM counts: Latin-1 would keep it as text
        if text:
            yield text
    try:
        tail = decoder.decode(b"", True)
    except UnicodeDecodeError:
        raise NotUtf8 from None  # a truncated sequence at the end follows non-ASCII text
    if tail:
        yield tail


def _too_long(row: int) -> lf.ListReadError:
    return lf.ListReadError([lf.problem("line_too_long", row=row, max=lf.MAX_LINE_CHARS)])


def _check_lengths(parts: list[str], rest: str, row: int) -> None:
    """Refuse a line longer than lf.MAX_LINE_CHARS (row: the number of the line before
    ``parts``): a batch of lines must stay small whatever the file holds."""
    most = lf.MAX_LINE_CHARS
    if parts and max(map(len, parts)) > most:
        raise _too_long(row + 1 + next(i for i, p in enumerate(parts) if len(p) > most))
    if len(rest) > most:
        raise _too_long(row + len(parts) + 1)


def text_lines(chunks: Iterable[str]) -> Iterator[str]:
    """The lines of the text (without their ends), as ``"".join(chunks).splitlines()`` gives
    them: a line cut between two chunks is joined, and a CR ending one chunk followed by an LF
    starting the next is one line end. Raises ListReadError for a line longer than
    lf.MAX_LINE_CHARS."""
    rest = ""
    after_cr = False
    row = 0
    for chunk in chunks:
        if after_cr and chunk.startswith("\n"):
            chunk = chunk[1:]
        after_cr = False
        if not chunk:
            continue
        text = rest + chunk if rest else chunk
        parts = text.splitlines()
        if text[-1] in _BREAKS:
            rest = ""
            after_cr = text[-1] == "\r"
        else:
            rest = parts.pop()
        _check_lengths(parts, rest, row)
        row += len(parts)
        yield from parts
    if rest:
        yield rest


def newline_lines(chunks: Iterable[str]) -> Iterator[str]:
    """The lines of the text split at LF only, each with its end, as iterating an
    ``io.StringIO`` of the whole text gives them (what the csv module reads). Raises
    ListReadError for a line longer than lf.MAX_LINE_CHARS."""
    rest = ""
    row = 0
    for chunk in chunks:
        text = rest + chunk if rest else chunk
        parts = text.split("\n")
        rest = parts.pop()
        _check_lengths(parts, rest, row)
        row += len(parts)
        for part in parts:
            yield part + "\n"
    if rest:
        yield rest


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while batch := list(itertools.islice(it, size)):
        yield batch
