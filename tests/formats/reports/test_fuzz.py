"""Hypothesis fuzzing of every entry point: any text (or bytes) gives a report or a
documented refusal, never an exception, and every problem is well formed.

Inputs are built from the formats' own pieces (header records, `001` lines, crosstable
rows, FEDA lines) with junk mixed in — the numbers that used to crash (``²``, 4,301 digits,
``inf``, ``1e308``, ``-99999``), control characters, junk separators — so the parsers get
past their first checks, plus plain random text and bytes.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formats.numbers import FIDE_ID_DIGITS, POINTS_MAX, RATING_MAX, SMALLINT_MAX
from formats.problems import (
    MAX_PROBLEMS,
    SHOWN_CHARS,
    TEMPLATES,
    WHOLE_FILE_CODES,
)
from formats.reports import ParsedReport, ReportDecodeError, decode_report, parse_report
from formats.reports.crosstable_csv import parse_crosstable_csv
from formats.reports.feda import parse_feda
from formats.reports.sniff import sniff_format
from formats.reports.trf import parse_trf
from tests.formats.reports.helpers import trf_player
from tests.fuzzing import JUNK_CONTROLS, JUNK_NUMBERS, JUNK_QUOTES

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
DECODE_CODES = {"too_large", "empty", "utf16", "binary"}
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

JUNK = [
    *JUNK_NUMBERS,
    "-1",
    "0",
    "",
    " ",
    *JUNK_CONTROLS,
    "\ud800",
    "\t",
    *JUNK_QUOTES,
    "½",
    "x",
    "=",
    "+",
    "-",
    "H",
    "HA",
    "by0",
    "0000 - =",
    "     - =",
    "½½",
]
junk = st.sampled_from(JUNK) | st.text(max_size=12)
numberish = (
    st.sampled_from(JUNK)
    | st.integers(-10, 10**20).map(str)
    | st.from_regex(r"[0-9]{1,6}([.,][0-9]{1,3})?", fullmatch=True)
)
dates = (
    st.sampled_from(
        [
            "18.11.27",
            "18.12.02",
            "05.06.18",
            "2020/05/05",
            "08/04/2018",
            "28. 07. 2005",
            "Jun 26, 2020",
            "31/02/2020",
            "99.99.99",
            "1.1.1",
            "2024-08-01",
            "11.25.02",
        ]
    )
    | junk
)
cells = (
    st.sampled_from(
        [
            "   2 w 1",
            "   1 b 0",
            "   3 w =",
            "0000 - H",
            "0000 - =",
            "     - =",
            "0000 - U",
            "   2 - +",
            "  16 by0",
            "0000 - HA",
            "   2 x 1",
            "   9 w ?",
            "        ",
            "0000 - ",
            "9999 b +",
        ]
    )
    | junk
)


def _check(report: ParsedReport, text: str) -> None:
    """What every report must hold, whatever the input."""
    assert isinstance(report, ParsedReport)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert len(report.problems) <= MAX_PROBLEMS + 1
    for p in report.problems:
        assert p.code in TEMPLATES, p
        assert p.template == TEMPLATES[p.code]
        assert p.severity in ("error", "warning")
        if p.line is None:
            assert p.code in WHOLE_FILE_CODES, p
        else:
            assert 1 <= p.line <= lines, p
        assert p.column is None or p.column >= 1, p
        assert isinstance(p.message, str)
        for v in p.params.values():
            if isinstance(v, str):
                assert len(v) <= SHOWN_CHARS and not CONTROL.search(v), p
    for pl in report.players:
        assert 1 <= pl.start_rank <= SMALLINT_MAX
        assert pl.rating is None or 1 <= pl.rating <= RATING_MAX
        assert pl.declared_points is None or (
            0 <= pl.declared_points <= POINTS_MAX
            and abs(pl.declared_points * 10 - round(pl.declared_points * 10)) < 1e-9
        )
        assert pl.fide_id == "" or (
            pl.fide_id.isascii()
            and pl.fide_id.isdigit()
            and len(pl.fide_id.lstrip("0")) <= FIDE_ID_DIGITS
        )
        assert pl.rank is None or 1 <= pl.rank <= SMALLINT_MAX
        assert not CONTROL.search(pl.name + pl.national_id + pl.federation)
    for g in report.games:
        assert 0 <= g.round <= SMALLINT_MAX
        assert 0 <= g.white_score <= 1 and (g.black_score is None or 0 <= g.black_score <= 1)
    rounds = report.header.rounds
    assert rounds is None or 0 <= rounds <= SMALLINT_MAX
    assert len(report.header.round_dates) <= SMALLINT_MAX


@st.composite
def trf_texts(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(
            st.sampled_from(
                ["player", "player", "header", "date", "ruler", "junk", "xxr", "132", "team"]
            )
        )
        if kind == "player":
            line = trf_player(
                draw(st.integers(0, 12)),
                draw(st.sampled_from(["A", "B, C", "spielfrei", ""])),
                draw(st.lists(cells, max_size=5)),
                points=draw(numberish)[:4],
                rating=draw(numberish)[:4],
                fide_id=draw(numberish)[:11],
                sex=draw(st.sampled_from(["m", "w", "f", " ", "²"])),
                birth=draw(dates)[:10],
            )
        elif kind == "header":
            line = (
                draw(st.sampled_from(["012", "022", "062", "072", "102", "112"])) + " " + draw(junk)
            )
        elif kind == "date":
            line = draw(st.sampled_from(["042", "052"])) + " " + draw(dates)
        elif kind == "ruler":
            line = draw(
                st.sampled_from(
                    ["0123456789" * 4, "1234567890" * 3, "         1         2         3", "012345"]
                )
            )
        elif kind == "xxr":
            line = draw(st.sampled_from(["XXR ", "142 "])) + draw(numberish)
        elif kind == "132":
            line = "132" + " " * 88 + "  ".join(draw(st.lists(dates, max_size=4)))
        elif kind == "team":
            line = (
                draw(st.sampled_from(["013 Team", "310   1 Team"]))
                + " " * 30
                + " ".join(draw(st.lists(numberish, max_size=4)))
            )
        else:
            line = draw(st.text(max_size=120))
        if line and draw(st.booleans()):  # one character replaced by junk
            i = draw(st.integers(0, len(line) - 1))
            line = line[:i] + draw(st.sampled_from(JUNK))[:3] + line[i + 1 :]
        lines.append(line)
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


@st.composite
def csv_texts(draw: st.DrawFn) -> str:
    d = draw(st.sampled_from([",", ";", "\t"]))
    n = draw(st.integers(0, 5))
    head = ["No", "Name", "FIDE ID", "Fed ID", "Rating"]
    head = draw(st.permutations(head))[: draw(st.integers(0, 5))]
    numbers = [str(k) for k in range(1, n + 1)]
    spoil: bool = draw(st.booleans())
    if numbers and spoil:
        numbers[draw(st.integers(0, n - 1))] = draw(numberish)
    head += numbers + draw(st.lists(st.sampled_from(["Pts", "Rank", "Club", "²"]), max_size=2))
    rows = [d.join(head)]
    for _ in range(draw(st.integers(0, n + 1))):
        rows.append(
            d.join(
                draw(
                    st.lists(
                        st.sampled_from(["1", "0", "=", "½", "+", "-", "x", "", "1 = 0", '"A, B"'])
                        | junk
                        | numberish,
                        min_size=0,
                        max_size=len(head) + 1,
                    )
                )
            )
        )
    return "\n".join(rows) + draw(st.sampled_from(["", "\n"]))


@st.composite
def feda_texts(draw: st.DrawFn) -> str:
    d = draw(st.sampled_from([",", ";"]))
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        fields = [
            draw(st.sampled_from(["00000000", "12345678", "1²"]) | numberish),
            draw(st.sampled_from(["Uno Dos", "", '"Tres, Cuatro"']) | junk),
            draw(st.sampled_from(["M", "F", "x"]) | junk),
            draw(st.sampled_from(["ESP", "es", "E"]) | junk),
            draw(dates),
            draw(numberish),
            draw(numberish),
            draw(numberish | st.just("7.1988")),
        ]
        lines.append(d.join(fields[: draw(st.integers(6, 8))]))
    return "\n".join(lines)


@FUZZ
@given(trf_texts() | st.text())
def test_fuzz_trf(text: str) -> None:
    _check(parse_trf(text), text)


@FUZZ
@given(csv_texts() | st.text())
def test_fuzz_csv_crosstable(text: str) -> None:
    _check(parse_crosstable_csv(text), text)


@FUZZ
@given(feda_texts() | st.text())
def test_fuzz_feda(text: str) -> None:
    _check(parse_feda(text, reference_year=2026), text)


@FUZZ
@given(
    st.one_of(trf_texts(), csv_texts(), feda_texts(), st.text()).map(
        lambda t: t.encode("utf-8", "surrogatepass")
    )
    | st.binary(max_size=300),
    st.sampled_from([None, "trf", "trf26", "csv", "feda"]),
)
def test_fuzz_decode_and_sniff(data: bytes, declared: str | None) -> None:
    """Bytes → decode_report → parse_report: a report, or ReportDecodeError (documented,
    with a known code and, for a NUL byte, its line and column)."""
    try:
        text = decode_report(data)
    except ReportDecodeError as exc:
        assert exc.code in DECODE_CODES
        assert (exc.line is None) == (exc.code != "binary" or b"\x00" not in data)
        assert exc.line is None or (exc.line >= 1 and exc.column is not None and exc.column >= 1)
        return
    assert sniff_format(text) in (None, "trf", "csv", "feda")
    _check(parse_report(text, format=declared), text)
