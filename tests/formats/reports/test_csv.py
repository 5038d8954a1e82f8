from __future__ import annotations

from formats.reports.crosstable_csv import parse_crosstable_csv

GOOD = """No,Name,FIDE ID,Fed ID,Rating,1,2,3,4,Pts
1,Alpha,1503014,,2100,x,1,½,+,2.5
2,Beta,,00123,,0,*,=,1,1.5
3,Gamma,,,1950,½,0.5,,1,2
4,Delta,,,,-,0,0,X,0
"""


def test_good_crosstable() -> None:
    r = parse_crosstable_csv(GOOD)
    assert r.problems == ()
    assert [p.name for p in r.players] == ["Alpha", "Beta", "Gamma", "Delta"]
    assert r.players[0].fide_id == "1503014"
    assert r.players[1].national_id == "123" and r.players[1].rating is None
    assert len(r.games) == 6
    kinds = sorted(g.kind for g in r.games)
    assert kinds == ["forfeit"] + ["played"] * 5
    g = next(g for g in r.games if (g.white_rank, g.black_rank) == (1, 3))
    assert (g.white_score, g.black_score, g.colours_known, g.round) == (0.5, 0.5, False, 0)


def test_semicolon_delimiter_and_match_cells() -> None:
    r = parse_crosstable_csv("No;Name;FIDE ID;Fed ID;Rating;1;2\n1;A;;;;;1 = 0\n2;B;;;;0 = 1;\n")
    assert r.problems == ()
    assert [(g.white_score, g.black_score) for g in r.games] == [(1, 0), (0.5, 0.5), (0, 1)]


def test_mirror_errors_with_columns() -> None:
    text = "No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,A,,,,x,1,1\n2,B,,,,1,x,\n3,C,,,,0,?,x\n"
    r = parse_crosstable_csv(text)
    got = {(p.code, p.line, p.column) for p in r.problems}
    assert got == {
        ("result_mismatch", 3, 8),  # B's 1 against A's 1
        ("invalid_result", 4, 10),
    }


def test_asymmetric_self_and_square() -> None:
    text = "No,Name,FIDE ID,Fed ID,Rating,1,2,3\n1,A,,,,1,1,\n2,B,,,,0,x,\n"
    r = parse_crosstable_csv(text)
    got = {(p.code, p.line, p.column) for p in r.problems}
    assert got == {("csv_not_square", 1, 1), ("self_paired", 2, 8)}


def test_points_mismatch_and_row_number() -> None:
    text = "No,Name,FIDE ID,Fed ID,Rating,1,2,Pts\n1,A,,,,x,1,0\n3,B,,,,0,x,0\n"
    r = parse_crosstable_csv(text)
    got = {(p.code, p.severity, p.line, p.column) for p in r.problems}
    assert got == {("points_mismatch", "warning", 2, 12), ("csv_row_number", "error", 3, 1)}


def test_asymmetric_cell() -> None:
    r = parse_crosstable_csv("No,Name,FIDE ID,Fed ID,Rating,1,2\n1,A,,,,x,1\n2,B,,,,,x\n")
    (p,) = r.problems
    assert (p.code, p.line, p.column) == ("asymmetric_pairing", 2, 10)


def test_bad_header() -> None:
    r = parse_crosstable_csv("Foo,Bar\n1,2\n")
    assert [p.code for p in r.problems] == ["csv_header"]
