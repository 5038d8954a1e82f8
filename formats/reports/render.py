"""Write a :class:`ParsedReport` as TRF16 (export, and the round-trip property test)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from .records import ParsedReport, ReportGame, ReportPlayer

_BYE_CODE = {"bye_half": "H", "bye_full": "F", "bye_pab": "U", "bye_zero": "Z", "absent": "-"}
_MIRROR = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


def _d(d: date | None) -> str:
    return d.strftime("%Y/%m/%d") if d else ""


def _points(x: float | None) -> str:
    return "" if x is None else f"{x:4.1f}"


def _cell(opp: int | None, colour: str, result: str) -> str:
    return f"{opp or 0:4d} {colour} {result or ' '}"


def _player_line(p: ReportPlayer, cells: dict[int, str], rounds: int) -> str:
    birth = _d(p.birth_date) if p.birth_date else (str(p.birth_year) if p.birth_year else "")
    sex = p.sex if p.sex in ("m", "w") else " "
    line = (
        f"001 {p.start_rank:4d} {sex}{p.title[:3]:>3} {p.name[:33]:<33} "
        f"{p.rating or 0:4d} {p.federation[:3]:<3} {p.fide_id[:11]:>11} {birth:<10} "
        f"{_points(p.declared_points):>4} {p.rank or 0:4d}"
    )
    if p.rating is None:
        line = line[:48] + "    " + line[52:]
    for r in range(1, rounds + 1):
        line += "  " + cells.get(r, " " * 8)
    return line.rstrip()


def _cells(games: tuple[ReportGame, ...]) -> dict[int, dict[int, str]]:
    cells: dict[int, dict[int, str]] = defaultdict(dict)
    for g in games:
        if g.black_rank is None:
            code = _BYE_CODE[g.kind]
            cells[g.white_rank][g.round] = _cell(None, "-", code)
            continue
        wc, bc = ("w", "b") if g.colours_known else ("-", "-")
        black_result = (
            "-"
            if g.kind == "forfeit" and g.black_score == 0 and g.result == "-"
            else _MIRROR[g.result]
        )
        cells[g.white_rank][g.round] = _cell(g.black_rank, wc, g.result)
        cells[g.black_rank][g.round] = _cell(g.white_rank, bc, black_result)
    return cells


def render_trf(report: ParsedReport) -> str:
    h = report.header
    rounds = max(h.rounds or 0, report.rounds_in_file)
    out = [
        f"012 {h.name}",
        f"022 {h.city}",
        f"032 {h.federation}",
        f"042 {_d(h.start_date)}",
        f"052 {_d(h.end_date)}",
        f"062 {len(report.players)}",
        f"072 {sum(1 for p in report.players if p.rating)}",
        f"082 {len(report.teams)}",
        f"092 {h.tournament_type}",
        f"102 {h.chief_arbiter}",
    ]
    out += [f"112 {d}" for d in h.deputy_arbiters]
    out.append(f"122 {h.time_control}")
    if h.round_dates:
        line = "132" + " " * 88
        for d in h.round_dates:
            line += (d.strftime("%y/%m/%d") if d else "").ljust(8) + "  "
        out.append(line.rstrip())
    if rounds:
        out.append(f"XXR {rounds}")
    cells = _cells(report.games)
    for p in report.players:
        out.append(_player_line(p, cells.get(p.start_rank, {}), rounds))
    for t in report.teams:
        members = "".join(f"{m:4d} " for m in t.members)
        out.append(f"013 {t.name[:32]:<32}{members}".rstrip())
    return "\n".join(ln.rstrip() for ln in out) + "\n"
