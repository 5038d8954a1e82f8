"""Write a tournament as FIDE TRF16 or TRF-2026 for the FIDE Rating Server (fide-2024 9.1:
the federation's rating officer uploads each rated tournament's report there).

Pure: the caller (tournaments/fide_export.py) gathers the stored, matched and corrected data
into the format-independent records of records.py; this module only lays them out. The
player lines and the round cells are those of render.py (the `001` layout is the same in both
versions, FORMATS.md "TRF16 and TRF26"); what differs:

- TRF16: header dates as written by the office (`YYYY/MM/DD`), the round count as the JaVaFo
  `XXR n` line every TRF16 reader knows.
- TRF-2026: dates `YYYY/MM/DD`, the round count as record `142`, and a `###` comment line per
  played game the office left out of the calculation (its round, players and article). TRF16
  has no comment record and no code for "played but not rated", so there such a game is
  written with its result as played: the Rating Server applies the rate-of-play rule itself.

Forfeits keep the real opponent and colour with `+`/`-` (a double forfeit is `-` on both
sides), games of less than one move are `W`/`D`/`L`, byes `0000 - H/F/U/Z` (FORMATS.md,
"Result codes").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from .records import ParsedReport
from .render import _cells, _player_line

TrfVersion = Literal["trf16", "trf26"]
TRF_VERSIONS: tuple[TrfVersion, ...] = ("trf16", "trf26")


@dataclass(frozen=True)
class LeftOutGame:
    """A played game the office left out of the calculation, and the article why."""

    round: int
    white_rank: int
    black_rank: int
    article: str
    reason: str = ""


def _d(d: date | None) -> str:
    return d.strftime("%Y/%m/%d") if d else ""


def _header(report: ParsedReport, *, version: TrfVersion, rounds: int) -> list[str]:
    h = report.header
    out = [
        f"012 {h.name}",
        f"022 {h.city}",
        f"032 {h.federation}",
        f"042 {_d(h.start_date)}",
        f"052 {_d(h.end_date)}",
        f"062 {len(report.players)}",
        f"072 {sum(1 for p in report.players if p.rating)}",
    ]
    if report.teams:
        out.append(f"082 {len(report.teams)}")
    out.append(f"092 {h.tournament_type}")
    out.append(f"102 {h.chief_arbiter}")
    out += [f"112 {d}" for d in h.deputy_arbiters]
    out.append(f"122 {h.time_control}")
    if h.round_dates:
        line = "132" + " " * 88
        for d in h.round_dates:
            line += (d.strftime("%y/%m/%d") if d else "").ljust(8) + "  "
        out.append(line)
    if rounds:
        out.append(f"142 {rounds}" if version == "trf26" else f"XXR {rounds}")
    return out


def trf_write(
    report: ParsedReport,
    *,
    version: TrfVersion = "trf16",
    left_out: tuple[LeftOutGame, ...] = (),
) -> str:
    """The tournament as a TRF file (LF line ends; the caller encodes it, UTF-8).

    The points column is the sum of each player's games as given (the corrected results, not
    the arbiter's declared points): ``declared_points`` of the players is replaced by it.
    """
    rounds = max(report.header.rounds or 0, report.rounds_in_file)
    points = report.points()
    out = _header(report, version=version, rounds=rounds)
    if version == "trf26":
        for g in left_out:
            reason = f" ({g.reason})" if g.reason else ""
            out.append(
                f"### not rated: round {g.round}, {g.white_rank} - {g.black_rank}, "
                f"{g.article}{reason}"
            )
    # byes are written `0000 - H/F/U/Z` (FORMATS.md, "Result codes"), not `   0`
    cells = {
        rank: {r: "0000" + c[4:] if c.startswith("   0 ") else c for r, c in row.items()}
        for rank, row in _cells(report.games).items()
    }
    for p in report.players:
        line = replace(p, declared_points=points.get(p.start_rank, 0.0))
        out.append(_player_line(line, cells.get(p.start_rank, {}), rounds))
    for t in report.teams:
        members = "".join(f"{m:4d} " for m in t.members)
        out.append(f"013 {t.name[:32]:<32}{members}")
    return "\n".join(ln.rstrip() for ln in out) + "\n"
