"""The COPY text encoder: PostgreSQL's text format, written by hand from its documentation."""

import datetime as dt

from core.pg.copy import copy_text


def test_null_and_booleans() -> None:
    assert [copy_text(None), copy_text(True), copy_text(False)] == [r"\N", "t", "f"]


def test_separators_and_backslashes_are_escaped() -> None:
    assert copy_text("a\tb\nc\rd\\e") == r"a\tb\nc\rd\\e"
    assert copy_text("Núñez, José") == "Núñez, José"


def test_json_numbers_and_dates() -> None:
    assert copy_text({"k": "a\tb"}) == r'{"k": "a\\tb"}'
    assert copy_text([1, 2]) == "[1, 2]"
    assert copy_text(0) == "0" and copy_text(2.5) == "2.5"
    assert copy_text(dt.date(2026, 11, 1)) == "2026-11-01"
