from __future__ import annotations

import pytest

from formats.reports import ReportDecodeError, decode_report


def code_of(data: bytes, **kw: int) -> str:
    with pytest.raises(ReportDecodeError) as exc:
        decode_report(data, **kw)
    return exc.value.code


def test_empty() -> None:
    assert code_of(b"") == "empty"
    assert code_of(b"  \r\n") == "empty"


def test_over_size_is_checked_first() -> None:
    assert code_of(b"\x00" * 11, max_bytes=10) == "too_large"
    assert code_of(b"012 x\n" * 2, max_bytes=10) == "too_large"
    assert decode_report(b"012 x\n", max_bytes=6) == "012 x\n"


def test_nul_and_binary() -> None:
    assert code_of(b"012 Test\x00\n001 1") == "binary"
    assert code_of(bytes(range(1, 32)) * 20) == "binary"
    assert (
        code_of(b"\x89PNG\r\n\x1a\n" + bytes([1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16]) * 4) == "binary"
    )


def test_utf16_refused_with_clear_message() -> None:
    for data in (
        "012 Tést\n".encode("utf-16"),
        "012 Test\n".encode("utf-16-le"),
        "012 Test\n".encode("utf-16-be"),
    ):
        with pytest.raises(ReportDecodeError) as exc:
            decode_report(data)
        assert exc.value.code == "utf16"
        assert "UTF-16" in exc.value.message


def test_utf8_with_and_without_bom() -> None:
    assert decode_report("012 Mícheál\n".encode()) == "012 Mícheál\n"
    assert decode_report(b"\xef\xbb\xbf012 M\xc3\xadche\xc3\xa1l\r\n") == "012 Mícheál\n"


def test_cp1252_and_latin1() -> None:
    assert decode_report("012 Ó Muireagáin – €\n".encode("cp1252")) == "012 Ó Muireagáin – €\n"
    # 0x81 is undefined in cp1252: falls back to ISO-8859-1
    assert decode_report(b"012 \x81\xe1\n") == "012 \x81á\n"


def test_line_endings() -> None:
    assert decode_report(b"a\rb\r\nc\nd") == "a\nb\nc\nd"
