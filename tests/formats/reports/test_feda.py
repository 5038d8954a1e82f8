from __future__ import annotations

from datetime import date

from formats.reports.feda import parse_feda

# The example of article 10.31 of the FEDA 1996 rules, as printed (including its typo
# "7.1988" where a comma is missing).
ARTICLE = """PARA JUGADORES CLASIFICADOS

 Codigo   Apellidos y Nombre   Sx Fed FechaNac Pto Jg Rival

-------- -------------------- -- --- -------- --- -- -----

512      ,MONTECATINE RIOS Rdo,m,AND,06-03-59,7.0, 9,2347

1149    ,MEDINA CARRASCO Ant.,m,CAT,26-03-74,4.5, 8,2064
PARA BLOQUES DE ELO FEDA

00000000,ESPINOSA SANCHEZ a   ,f,AND,15-10-75,3.5, 6,2025

00000000,ALBA HUESCAR Pedro   ,m,EUS,10-10-78,4.0, 7.1988
"""


def test_article_example() -> None:
    r = parse_feda(ARTICLE, reference_year=1996)
    assert [p.name for p in r.players] == [
        "MONTECATINE RIOS Rdo",
        "MEDINA CARRASCO Ant.",
        "ESPINOSA SANCHEZ a",
        "ALBA HUESCAR Pedro",
    ]
    a, b, c, d = r.players
    assert b.national_id == "1149"
    assert (a.national_id, a.sex, a.federation, a.birth_date) == (
        "512",
        "m",
        "AND",
        date(1959, 3, 6),
    )
    assert (a.declared_points, a.declared_games, a.opponents_average) == (7.0, 9, 2347)
    assert (c.national_id, c.sex, c.birth_date) == ("", "w", date(1975, 10, 15))
    assert (d.declared_games, d.opponents_average) == (7, 1988)
    (p,) = r.problems
    assert (p.code, p.severity, p.line, p.column) == ("fields_joined", "warning", 14, 52)
    assert r.header.format == "feda"


def test_semicolons_quotes_and_four_digit_years() -> None:
    text = (
        '"2345";"NOGUE FAJULA, Juan";m;MAD;04/12/1967;3,5;5;1987\n'
        "00000000 ; Young Player ; f ; CAT ; 01-02-10 ; 1 ; 4 ; 0\n"
    )
    r = parse_feda(text, reference_year=2026)
    a, b = r.players
    assert (a.name, a.birth_date, a.declared_points) == (
        "NOGUE FAJULA, Juan",
        date(1967, 12, 4),
        3.5,
    )
    assert (b.birth_date, b.opponents_average) == (date(2010, 2, 1), 0)
    assert r.problems == ()


def test_each_field_validated_with_column() -> None:
    line = "12a4,X Y,q,A1,31-02-80,4.3,x,99999"
    r = parse_feda(line + "\n")
    got = {(p.code, p.field, p.column) for p in r.problems}
    assert got == {
        ("malformed_number", "code", 1),
        ("invalid_sex", "sex", 10),
        ("invalid_federation", "federation", 12),
        ("invalid_date", "birth_date", 15),
        ("malformed_number", "points", 24),
        ("malformed_number", "games", 28),
        ("malformed_number", "opponents_average", 30),
    }
    assert all(p.line == 1 and p.severity == "error" for p in r.problems)


def test_field_count_points_exceed_and_duplicates() -> None:
    text = (
        "1,A B,m,MAD,01-01-80,5.0,4,2000\n"
        "1,C D,m,MAD,01-01-80,1.0,4,2000\n"
        "2,E F,m,MAD,01-01-80,1.0,4\n"
    )
    r = parse_feda(text)
    got = {(p.code, p.line, p.column) for p in r.problems}
    assert got == {("points_exceed_games", 1, 22), ("duplicate_id", 2, 1), ("field_count", 3, 1)}


def test_nothing_usable() -> None:
    assert [p.code for p in parse_feda("hello\nworld\n").problems] == ["no_players"]
