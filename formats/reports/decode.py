"""Bytes → str for uploaded reports. Parsers take ``str``; callers decode with this first."""

from __future__ import annotations

from ..problems import _

DEFAULT_MAX_BYTES = 5 * 1024 * 1024

_UTF8_BOM = b"\xef\xbb\xbf"
_TEXT_CONTROLS = {0x09, 0x0A, 0x0C, 0x0D, 0x1A}  # tab, LF, FF, CR, DOS end-of-file


class ReportDecodeError(ValueError):
    """The upload cannot be read as text. ``code`` is stable, ``message`` is a template;
    ``line`` and ``column`` (1-based) say where, when it is one place (a NUL byte)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.template = message
        self.line = line
        self.column = column
        if line is not None:
            params = {"line": line, "column": column, **params}
        self.params = params
        super().__init__(message % params if params else message)

    @property
    def message(self) -> str:
        return str(self)


def _looks_utf16(data: bytes) -> bool:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    sample = data[:4096]
    if len(sample) < 4:
        return False
    even_zero = sample[0::2].count(0)
    odd_zero = sample[1::2].count(0)
    half = len(sample) // 2
    # Mostly-ASCII UTF-16 has a zero in every other byte.
    return max(even_zero, odd_zero) > 0.6 * half and min(even_zero, odd_zero) < 0.1 * half


def _position(data: bytes, pos: int) -> tuple[int, int]:
    """Line and column (1-based, in characters) of byte ``pos``; CR, LF or CRLF end lines."""
    line = data.count(b"\n", 0, pos) + data.count(b"\r", 0, pos) - data.count(b"\r\n", 0, pos)
    start = max(data.rfind(b"\n", 0, pos), data.rfind(b"\r", 0, pos)) + 1
    return line + 1, len(data[start:pos].decode("utf-8", "replace")) + 1


def decode_report(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Decode an uploaded report; newlines are normalised to ``\\n``.

    UTF-8 (with or without BOM) is tried first, then cp1252, then ISO-8859-1.
    """
    if len(data) > max_bytes:
        raise ReportDecodeError(
            "too_large",
            _("The file is %(size)s bytes; the limit is %(limit)s bytes"),
            size=len(data),
            limit=max_bytes,
        )
    if not data or not data.strip():
        raise ReportDecodeError("empty", _("The file is empty"))
    if _looks_utf16(data):
        raise ReportDecodeError(
            "utf16",
            _("The file is UTF-16 encoded; save it as UTF-8 or ISO-8859-1 (Latin-1) text"),
        )
    if b"\x00" in data:
        line, column = _position(data, data.index(b"\x00"))
        raise ReportDecodeError(
            "binary",
            _(
                "The file contains a NUL byte (line %(line)s, column %(column)s): "
                "it is not a text file"
            ),
            line=line,
            column=column,
        )
    sample = data[:65536]
    controls = sum(1 for b in sample if b < 0x20 and b not in _TEXT_CONTROLS)
    if controls > max(8, len(sample) // 100):
        raise ReportDecodeError("binary", _("The file looks binary: it is not a text file"))
    data = data.removeprefix(_UTF8_BOM)
    text: str
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.removeprefix("\ufeff")
    return text
