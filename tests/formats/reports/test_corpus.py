"""The regression corpus (tests/formats/reports/corpus/): every input that crashed a parser, was
misread or was accepted silently, with the exact problems it must give (code, severity,
line, column). Expected values were worked out by hand from the files' columns."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from formats.reports import ReportDecodeError, decode_report, parse_report

CORPUS = Path(__file__).resolve().parent / "corpus"

# file → every problem (code, severity, line, column)
EXPECTED: dict[str, set[tuple[str, str, int | None, int | None]]] = {
    # issue 14 item 12: a column ruler under the header is not a `012` record
    "trf_ruler.trf": {("column_ruler", "warning", 2, 1), ("column_ruler", "warning", 3, 1)},
    # YY.MM.DD header dates: read so the end is not before the start, with a warning each
    "trf_yymmdd.trf": {("ambiguous_date", "warning", 2, 5), ("ambiguous_date", "warning", 3, 5)},
    # 05.06.18 / 07.06.18 alone are ambiguous; the round dates (18/06/05…) settle them
    "trf_dates_round_dates.trf": set(),
    "trf_dates_reversed.trf": {("dates_reversed", "warning", 3, 5)},
    # `0000 - =` and `     - =`: a half-point bye (Irish files), at the result column
    "trf_bye_equals.trf": {
        ("bye_draw_sign", "warning", 2, 99),
        ("bye_draw_sign", "warning", 2, 109),
    },
    # `   2 by0`: y in column 98; `0000 - HA`: A in column 110 (before round 3)
    "trf_separators.trf": {
        ("separator_not_blank", "warning", 2, 98),
        ("separator_not_blank", "warning", 2, 110),
    },
    # FIDE ID ²² (crashed matching in tournaments/selectors.py) and a rating above 3500
    "trf_fide_superscript.trf": {
        ("malformed_number", "warning", 2, 58),
        ("invalid_rating", "warning", 2, 49),
    },
    # U+0001 in the name (column 17); the DOS end-of-file mark at the end is dropped
    "trf_control.trf": {("control_character", "error", 2, 17)},
    # Pts 123456, inf, 1e308, -99999, nan (float() took them; Decimal(5,1) did not)
    "csv_points.csv": {
        ("number_out_of_range", "error", 2, 19),
        ("malformed_number", "error", 3, 19),
        ("malformed_number", "error", 4, 19),
        ("malformed_number", "error", 5, 19),
        ("malformed_number", "error", 6, 19),
    },
    # ² as a round column, a rating and a rank ("²".isdigit() is true, int("²") raises);
    # a rank that is not an ASCII number is read as no rank (shared places such as 3-4)
    "csv_superscript.csv": {
        ("malformed_number", "error", 1, 25),
        ("malformed_number", "error", 2, 5),
    },
    # a 4,301-digit round column, rating and rank (int() refuses more than 4,300 digits)
    "csv_4301_digits.csv": {
        ("csv_not_square", "error", 1, 1),
        ("number_out_of_range", "error", 1, 25),
        ("number_out_of_range", "error", 2, 5),
        ("number_out_of_range", "warning", 2, 4307),
    },
    # Arabic-Indic ٣ as points (re's \d took it) and 1e3 as games
    "feda_numbers.txt": {
        ("malformed_number", "error", 1, 33),
        ("malformed_number", "error", 2, 41),
    },
}


def _parse(name: str):
    return parse_report(decode_report((CORPUS / name).read_bytes()))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_gives_its_problems(name: str) -> None:
    report = _parse(name)
    got = {(p.code, p.severity, p.line, p.column) for p in report.problems}
    assert got == EXPECTED[name], [str(p) for p in report.problems]


def test_every_corpus_file_is_listed() -> None:
    files = {p.name for p in CORPUS.iterdir()}
    assert files == set(EXPECTED) | {"trf_nul.trf"}


def test_nul_byte_is_refused_with_its_line_and_column() -> None:
    with pytest.raises(ReportDecodeError) as exc:
        decode_report((CORPUS / "trf_nul.trf").read_bytes())
    assert (exc.value.code, exc.value.line, exc.value.column) == ("binary", 3, 21)
    assert (
        str(exc.value) == "The file contains a NUL byte (line 3, column 21): it is not a text file"
    )
    with pytest.raises(ReportDecodeError) as exc:
        decode_report(b"012 T\r\r001 \xc3\xa9\x00")  # CR line ends, a 2-byte character
    assert (exc.value.line, exc.value.column) == (3, 6)


def test_ruler_line_is_not_a_name() -> None:
    r = _parse("trf_ruler.trf")
    assert r.header.name == "Ruler under the header"
    assert r.problems[0].message == "Line 2 looks like a column ruler; ignored"
    assert 2 in r.ignored_lines and 3 in r.ignored_lines


def test_yymmdd_dates_are_read_in_order() -> None:
    r = _parse("trf_yymmdd.trf")
    assert (r.header.start_date, r.header.end_date) == (date(2018, 11, 27), date(2018, 12, 2))
    start = r.problems[0]
    assert start.params == {"value": "18.11.27", "date": "2018-11-27", "reading": "YY.MM.DD"}
    assert start.message == (
        "start_date: 18.11.27 can be read more than one way; read as 2018-11-27 (YY.MM.DD)"
    )
    r = _parse("trf_dates_round_dates.trf")
    assert (r.header.start_date, r.header.end_date) == (date(2018, 6, 5), date(2018, 6, 7))


def test_reversed_dates_are_never_silent() -> None:
    r = _parse("trf_dates_reversed.trf")
    assert r.header.start_date is not None and r.header.end_date is not None
    assert r.header.end_date < r.header.start_date
    assert r.problems[0].params == {"start": "2020-05-05", "end": "2019-05-05"}


def test_equals_bye_is_a_half_point_bye() -> None:
    r = _parse("trf_bye_equals.trf")
    assert r.ok
    assert [(g.round, g.white_rank, g.black_rank, g.kind, g.white_score) for g in r.games] == [
        (1, 1, None, "bye_half", 0.5),
        (2, 1, None, "bye_half", 0.5),
    ]
    assert r.problems[0].params == {"round": 1, "rank": 1, "value": "0000 - ="}


def test_separator_junk_is_ignored_with_a_warning() -> None:
    r = _parse("trf_separators.trf")
    assert r.ok
    assert [(g.round, g.white_rank, g.black_rank, g.result, g.kind) for g in r.games] == [
        (1, 2, 1, "1", "played"),
        (2, 1, None, "H", "bye_half"),
    ]
    assert [p.params["value"] for p in r.problems] == ["y", "A"]


def test_bad_fide_id_never_reaches_matching() -> None:
    r = _parse("trf_fide_superscript.trf")
    assert (r.players[0].fide_id, r.players[0].rating) == ("", None)


def test_control_character_is_an_error_and_replaced() -> None:
    r = _parse("trf_control.trf")
    assert not r.ok
    assert r.problems[0].params == {"value": "U+0001"}
    assert r.players[0].name == "Al\ufffdpha, Ann"


def test_csv_crashers_give_records_within_the_columns() -> None:
    r = _parse("csv_points.csv")
    assert [p.declared_points for p in r.players] == [None] * 5
    assert len(r.games) == 10
    r = _parse("csv_superscript.csv")
    assert [(p.rating, p.rank) for p in r.players] == [(None, None), (1500, 2)]
    r = _parse("csv_4301_digits.csv")
    assert [(p.rating, p.rank) for p in r.players] == [(None, None), (1500, 2)]
    assert r.problems[1].params["value"] == "9" * 39 + "…"
