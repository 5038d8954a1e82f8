"""The FIDE export's writer (formats/reports/trf_export.py), pure: the result codes of
FORMATS.md ("Result codes") from White's side, read back by the project's parser."""

from __future__ import annotations

from datetime import date

from formats.reports import ParsedReport, ReportGame, ReportHeader, ReportPlayer, parse_trf
from formats.reports.trf_export import LeftOutGame, trf_write

PLAYERS = tuple(ReportPlayer(start_rank=n, name=f"Player, {n}") for n in (1, 2, 3, 4))
GAMES = (
    ReportGame(1, 1, 2, "-", 0.0, 0.0, "forfeit"),  # double forfeit
    ReportGame(1, 3, 4, "W", 1.0, 0.0, "short"),  # won in less than one move
    ReportGame(2, 4, 1, "-", 0.0, 1.0, "forfeit"),  # black wins by forfeit
    ReportGame(2, 2, None, "", 0.0, None, "bye_zero"),
    ReportGame(2, 3, None, "", 1.0, None, "bye_pab"),
)
REPORT = ParsedReport(
    header=ReportHeader(name="Open", start_date=date(2026, 1, 2), rounds=2),
    players=PLAYERS,
    games=GAMES,
)


def _cells(text: str, rank: int) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(f"001 {rank:4d}"))
    return [line[91:99], line[101:109]]


def test_codes_from_each_side() -> None:
    text = trf_write(REPORT, version="trf16")
    assert _cells(text, 1) == ["   2 w -", "   4 b +"]
    assert _cells(text, 2) == ["   1 b -", "0000 - Z"]
    assert _cells(text, 3) == ["   4 w W", "0000 - U"]
    assert _cells(text, 4) == ["   3 b L", "   1 w -"]
    assert "042 2026/01/02" in text.splitlines() and "XXR 2" in text.splitlines()


def test_read_back_to_the_same_games_in_both_versions() -> None:
    for version in ("trf16", "trf26"):
        left_out = (LeftOutGame(1, 3, 4, "fide-2024 1.1"),)
        back = parse_trf(trf_write(REPORT, version=version, left_out=left_out))
        assert back.header.format == version
        assert {
            (g.round, g.white_rank, g.black_rank, g.kind, g.white_score, g.black_score)
            for g in back.games
        } == {
            (g.round, g.white_rank, g.black_rank, g.kind, g.white_score, g.black_score)
            for g in GAMES
        }
        # points written are the games' (1: 0 + 1 by forfeit; 3: 1 + PAB)
        assert {p.start_rank: p.declared_points for p in back.players} == {
            1: 1.0,
            2: 0.0,
            3: 2.0,
            4: 0.0,
        }
