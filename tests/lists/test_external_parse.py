"""formats.lists.external: the ICCF list as ICCF publishes it (its rating list's columns
ICCF-id, Country, Title, Name, Games, Rating, saved as tab-separated text) and the FPX CSV with
the documented columns. Sample lines written by hand from those layouts."""

from __future__ import annotations

from formats.lists.external import ExternalRow, read_external

ICCF_TXT = (
    "ICCF-id\tCountry\tTitle\tName\tGames\tRating\n"
    "910123\tPOR\tSIM\tSilva, João\t312\t2451\n"
    "910456\tPOR\t\tCosta, Ana\t45\t2188\n"
    "920001\tESP\tGM\tPérez, Luis\t801\t2590\n"
)


def _rows(text: str, source: str) -> tuple[list[str], list[ExternalRow]]:
    header, rows = read_external(text, source=source)
    return [p.code for p in header], list(rows)


def test_iccf_published_columns_tab_separated() -> None:
    header, rows = _rows(ICCF_TXT, "iccf")
    assert header == []
    assert [(r.row, r.ext_id, r.name, r.federation, r.title, r.games, r.rating) for r in rows] == [
        (2, 910123, "Silva, João", "POR", "SIM", 312, 2451),
        (3, 910456, "Costa, Ana", "POR", "", 45, 2188),
        (4, 920001, "Pérez, Luis", "ESP", "GM", 801, 2590),
    ]
    assert all(not r.problems for r in rows)


def test_iccf_our_csv_layout_and_semicolons() -> None:
    text = "iccf_id;name;federation;title;games;rating\n910123;Silva, João;POR;;12;0\n"
    header, rows = _rows(text, "iccf")
    # A rating of 0 is "no rating": the row is kept without one.
    assert header == [] and rows[0].ext_id == 910123 and rows[0].rating is None


def test_iccf_problems_by_row_and_column() -> None:
    text = (
        "ICCF ID,Name,Rating\n"
        "91012x,A, B,2000\n"  # the comma in the name is not quoted: "B" is the rating column
        "910123,Silva,99\n"
        "910123,Costa,2100\n"
        ",Nobody,2000\n"
    )
    _header, rows = _rows(text, "iccf")
    found = [(p.code, p.line, p.field) for r in rows for p in r.problems]
    assert found == [
        ("external_bad_id", 2, "ICCF ID"),
        ("external_bad_number", 2, "Rating"),
        ("external_rating_out_of_range", 3, "Rating"),
        ("external_duplicate_id", 4, "ICCF ID"),
        ("external_bad_id", 5, "ICCF ID"),
    ]


def test_missing_columns_are_named() -> None:
    header, rows = _rows("Name;Games\nSilva;3\n", "iccf")
    assert header == ["external_missing_column", "external_missing_column"]
    assert rows == []
    header, _rows_ = _rows("", "fpx")
    assert header == ["external_empty_file"]


def test_fpx_documented_csv() -> None:
    text = (
        "fpx_id,name,rating,fide_id,federation,games\n"
        '1234,"Santos, Rui",1987,1901234,POR,20\n'
        "1235,Lopes,,,POR,\n"
    )
    header, rows = _rows(text, "fpx")
    assert header == []
    assert [(r.ext_id, r.name, r.rating, r.fide_id, r.games) for r in rows] == [
        (1234, "Santos, Rui", 1987, 1901234, 20),
        (1235, "Lopes", None, None, None),
    ]


def test_fpx_portuguese_labels() -> None:
    header, rows = _rows("Licença;Nome;Elo;ID FIDE\n77;Moura, Eva;2010;\n", "fpx")
    assert header == [] and (rows[0].ext_id, rows[0].name, rows[0].rating) == (
        77,
        "Moura, Eva",
        2010,
    )
