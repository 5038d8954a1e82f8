"""Numbers within the database columns, bounded problem lists, and inputs that used to take
quadratic time (each would run for minutes if it still did)."""

from __future__ import annotations

import gc
import time

import pytest

from formats.numbers import NumberError, read_int, read_points
from formats.problems import MAX_PROBLEMS
from formats.reports import ReportGame, parse_trf
from formats.reports.crosstable_csv import parse_crosstable_csv
from formats.reports.feda import is_feda_line, parse_feda
from formats.reports.fields import Field, split_fields
from formats.reports.records import new_game
from formats.reports.trf import is_ruler
from tests.formats.reports.helpers import trf, trf_player


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None),
        ("  ", None),
        ("0", 0),
        ("0042", 42),
        (" 7 ", 7),
        ("32767", 32767),
        ("0" * 5000 + "1", 1),
    ],
)
def test_read_int(text: str, value: int | None) -> None:
    assert read_int(text) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("²", "malformed_number"),
        ("٣", "malformed_number"),
        ("-1", "malformed_number"),
        ("1e3", "malformed_number"),
        ("+5", "malformed_number"),
        ("32768", "number_out_of_range"),
        ("9" * 4301, "number_out_of_range"),
    ],
)
def test_read_int_refuses(text: str, code: str) -> None:
    with pytest.raises(NumberError) as exc:
        read_int(text)
    assert exc.value.code == code


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None),
        ("11.5", 11.5),
        ("4,5", 4.5),
        (".5", 0.5),
        ("4.50", 4.5),
        ("9999.9", 9999.9),
        ("0", 0.0),
        ("00012", 12.0),
    ],
)
def test_read_points(text: str, value: float | None) -> None:
    assert read_points(text) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("inf", "malformed_number"),
        ("nan", "malformed_number"),
        ("1e308", "malformed_number"),
        ("-99999", "malformed_number"),
        ("2.25", "malformed_number"),
        ("½", "malformed_number"),
        ("1..", "malformed_number"),
        (".", "malformed_number"),
        ("123456", "number_out_of_range"),
        ("10000", "number_out_of_range"),
        ("9" * 4301, "number_out_of_range"),
    ],
)
def test_read_points_refuses(text: str, code: str) -> None:
    with pytest.raises(NumberError) as exc:
        read_points(text)
    assert exc.value.code == code


def test_new_game_is_the_named_tuple() -> None:
    args = (3, 1, 2, "=", 0.5, 0.5, "played", 7, True)
    fast, slow = new_game(*args), ReportGame(*args)  # type: ignore[arg-type]
    assert type(fast) is ReportGame and fast == slow and repr(fast) == repr(slow)
    assert fast._asdict() == {
        "round": 3,
        "white_rank": 1,
        "black_rank": 2,
        "result": "=",
        "white_score": 0.5,
        "black_score": 0.5,
        "kind": "played",
        "line": 7,
        "colours_known": True,
    }
    assert (fast.is_bye, fast.is_rated) == (False, True)
    with pytest.raises(AttributeError):
        fast.round = 4  # type: ignore[misc]
    assert ReportGame(
        round=1,
        white_rank=1,
        black_rank=None,
        result="H",
        white_score=0.5,
        black_score=None,
        kind="bye_half",
    ) == (1, 1, None, "H", 0.5, None, "bye_half", None, True)


def test_problems_are_capped_errors_first() -> None:
    # 1,500 junk lines (warnings), then 600 players with a malformed rating (errors)
    text = "?? junk\n" * 1500 + "".join(
        trf_player(r, "A", [], rating="2l00") + "\n" for r in range(1, 601)
    )
    r = parse_trf(text)
    assert len(r.problems) == MAX_PROBLEMS + 1
    assert sum(p.code == "malformed_number" for p in r.problems) == 600
    assert sum(p.code == "unknown_line" for p in r.problems) == 400
    last = r.problems[-1]
    assert (last.code, last.severity, last.line, last.params) == (
        "too_many_problems",
        "warning",
        None,
        {"count": 1100},
    )
    assert last.message == "1100 more problems are not listed"
    # errors left out too: the summary is an error
    text = "".join(trf_player(r, "A", [], rating="2l00") + "\n" for r in range(1, 1201))
    last = parse_trf(text).problems[-1]
    assert (last.code, last.severity, last.params) == ("too_many_problems", "error", {"count": 200})


def test_long_values_are_cut_in_messages() -> None:
    r = parse_trf(trf(header="012 T\n062 " + "x" * 5000 + "\n"))
    (p,) = [p for p in r.problems if p.code == "malformed_number"]
    assert p.params["value"] == "x" * 39 + "…"


def test_more_rounds_than_a_smallint_holds() -> None:
    line = trf_player(1, "A", ["0000 - H"] * 32768)
    r = parse_trf(trf(line))
    (p,) = [p for p in r.problems if p.code == "number_out_of_range"]
    assert (p.line, p.column, p.field) == (2, 92 + 10 * 32767, "round")
    assert r.header.rounds == 32767 and len(r.games) == 32767


def test_more_rows_than_a_smallint_holds() -> None:
    r = parse_crosstable_csv("No,Name,1\n" + "1,A,x\n" * 32768)
    p = next(p for p in r.problems if p.code == "number_out_of_range")
    assert (p.line, p.field, p.params["value"]) == (32769, "start_rank", 32768)
    assert len(r.players) == 32767


def test_feda_stops_at_the_last_start_rank() -> None:
    r = parse_feda("".join(f"{i},A,M,ESP,,0,0,0\n" for i in range(1, 32770)))
    (p,) = r.problems
    assert (p.code, p.line, p.field, p.params["value"]) == (
        "number_out_of_range",
        32768,
        "start_rank",
        32768,
    )
    assert len(r.players) == 32767


@pytest.mark.parametrize(
    ("line", "ruler"),
    [
        ("0123456789012345678901234", True),
        ("1234567890123", True),
        ("         1         2         3", True),
        ("    5    6", False),
        ("0123456780", False),
        ("012 3456789012", False),
        ("0000000000000", False),
        ("         1         3", False),
    ],
)
def test_is_ruler(line: str, ruler: bool) -> None:
    assert is_ruler(line) is ruler


def test_record_code_needs_a_blank_fourth_column() -> None:
    r = parse_trf(trf(trf_player(1, "A", []), header="012 T\n0012 not a player\n"))
    assert len(r.players) == 1
    (p,) = r.problems
    assert (p.code, p.line, p.params) == ("unknown_line", 2, {"record": "0012"})


def test_split_fields_tab_and_quotes() -> None:
    assert split_fields('a\t\t"b\tc"\t d', "\t") == [
        Field("a", 1),
        Field("", 3),
        Field("b\tc", 4),
        Field("d", 11),
    ]
    assert split_fields(' x , "y" ,', ",") == [Field("x", 2), Field("y", 6), Field("", 11)]


def _seconds(fn: object, *args: object) -> float:
    t0 = time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.process_time() - t0


@pytest.mark.parametrize(
    ("fn", "text"),
    [
        (is_feda_line, "a" + " " * 200_000 + "x,,,,,,"),  # \s*"?\s* backtracked
        (split_fields, "a" + '"' * 200_000 + ",b"),  # "".join(buf) on every quote
        (split_fields, '"a"' + "\t" * 200_000),  # column search ran over the next fields
        (parse_trf, "001    1" + " " * 84 + "   2 w 1  " * 40_000 + "x"),  # a row of cells
        (parse_crosstable_csv, "No,Name," + ",".join(map(str, range(1, 30_000))) + "\n1,A"),
        (parse_feda, ("1," * 7 + "\n") * 30_000),
    ],
)
def test_linear_time(fn: object, text: str) -> None:
    assert (
        _seconds(
            fn,
            text,
            *(
                [","]
                if fn is split_fields and "\t" not in text
                else ["\t"]
                if fn is split_fields
                else []
            ),
        )
        < 5
    )


def test_the_collector_is_left_as_found() -> None:
    """The parsers pause the cyclic garbage collector (collector.py) and restore it."""
    text = trf(trf_player(1, "A", []))
    assert gc.isenabled()
    parse_trf(text)
    assert gc.isenabled()
    gc.disable()
    try:
        parse_crosstable_csv("No,Name,1\n1,A,x\n")
        parse_feda("1,A,M,ESP,,0,0,0\n")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_csv_header_wider_than_the_start_ranks_is_one_problem() -> None:
    """40,000 numbered result columns: the columns past 32,767 give one problem, not one each
    (issue 17: a 1 MiB header cost seconds building 130,000 problems)."""
    header = "No,Name," + ",".join(map(str, range(1, 40_001))) + "\n"
    r = parse_crosstable_csv(header + "1,A\n")
    out_of_range = [p for p in r.problems if p.code == "number_out_of_range"]
    assert len(out_of_range) == 1
    assert out_of_range[0].params["value"] == "32768"
