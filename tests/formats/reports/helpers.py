from __future__ import annotations

from pathlib import Path

import pytest

from formats.reports import ParsedReport, decode_report, parse_trf
from tests.shared_data import SHARED_DATA

DATA = SHARED_DATA / "trf"


def sample_path(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared sample {name} not available")
    return path


def load_sample(name: str) -> ParsedReport:
    return parse_trf(decode_report(sample_path(name).read_bytes()))


def trf_player(
    rank: int,
    name: str,
    cells: list[str],
    *,
    points: str = "",
    rating: str = "",
    fide_id: str = "",
    sex: str = "m",
    title: str = "",
    birth: str = "",
) -> str:
    """A `001` line written column by column (cells are 8 characters: `oooo c r`)."""
    line = (
        f"001 {rank:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {'':3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {'':4}"
    )
    assert len(line) == 89
    for c in cells:
        line += "  " + c
    return line


def trf(*players: str, header: str = "012 Test\n") -> str:
    return header + "\n".join(players) + "\n"
