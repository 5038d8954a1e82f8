from __future__ import annotations

from formats.reports import decode_report, parse_report, sniff_format
from tests.formats.reports.helpers import sample_path, trf, trf_player

TRF = trf(trf_player(1, "A", ["   2 w 1"]), trf_player(2, "B", ["   1 b 0"]))
CSV = "No,Name,FIDE ID,Fed ID,Rating,1,2\n1,A,,,,x,1\n2,B,,,,0,x\n"
FEDA = "512,MONTECATINE RIOS Rdo,m,AND,06-03-59,7.0,9,2347\n"


def test_sniff() -> None:
    assert sniff_format(TRF) == "trf"
    assert sniff_format(CSV) == "csv"
    assert sniff_format(FEDA) == "feda"
    assert sniff_format("hello world") is None


def test_parse_report_dispatches() -> None:
    assert parse_report(TRF).header.format == "trf16"
    assert parse_report(CSV).header.format == "csv"
    assert parse_report(FEDA).header.format == "feda"
    assert len(parse_report(CSV, format="csv").games) == 1


def test_declared_format_mismatch() -> None:
    r = parse_report(CSV, format="trf")
    (p,) = r.problems
    assert (p.code, p.severity, p.line) == ("format_mismatch", "error", 1)
    assert p.message == "The file was declared as TRF but its content looks like CSV"
    assert r.players == ()
    assert parse_report(TRF, format=".csv").problems[0].code == "format_mismatch"


def test_unknown_format() -> None:
    assert [p.code for p in parse_report("hello\n").problems] == ["unknown_format"]


def test_real_sample_through_entry_point() -> None:
    path = sample_path("round-robin-6p-5r-fide-c07-tiebreak-exercise.trf")
    r = parse_report(decode_report(path.read_bytes()), format="trf")
    assert len(r.players) == 6 and r.problems == ()
