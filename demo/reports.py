"""The arbiter's report of a demo tournament: a TRF16 file written by the report library's
own renderer (formats.reports.render), uploaded through tournaments.services like any
arbiter's file."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from demo.pairings import Entrant, Played
from formats.reports.records import ParsedReport, ReportGame, ReportHeader, ReportPlayer
from formats.reports.render import render_trf

_CODE = {(1, 0): "1", (0, 1): "0", (0.5, 0.5): "="}


def _result(game: Played) -> str:
    if game.black is None:
        return ""
    ws, bs = float(game.white_score), float(game.black_score or 0)
    if game.kind == "forfeit":
        return "+" if ws > bs else "-"
    return _CODE[(ws, bs)]


def report_trf(
    *,
    name: str,
    city: str,
    start: date,
    end: date,
    chief_arbiter: str,
    time_control: str,
    tournament_type: str,
    rounds: int,
    entrants: Sequence[Entrant],
    games: Sequence[Played],
) -> bytes:
    """The TRF16 bytes of a played tournament: the header, one `001` line per entrant (his
    FIDE ID when he has one, the rating he started with) and every round's cells."""
    players = tuple(
        ReportPlayer(
            start_rank=e.rank,
            name=f"{e.player.surname}, {e.player.given_name}",
            sex="w" if e.player.sex == "F" else "m",
            title=e.player.title or "",
            rating=e.rating or None,
            federation=e.player.federation,
            fide_id=str(e.player.fide_id or ""),
            birth_year=e.player.birth_year,
            declared_points=float(e.score),
            rank=rank,
        )
        for rank, e in enumerate(
            sorted(entrants, key=lambda e: (-e.score, -e.rating, e.rank)), start=1
        )
    )
    report = ParsedReport(
        header=ReportHeader(
            name=name,
            city=city,
            federation="ESP",
            start_date=start,
            end_date=end,
            chief_arbiter=chief_arbiter,
            time_control=time_control,
            rounds=rounds,
            tournament_type=tournament_type,
        ),
        players=tuple(sorted(players, key=lambda p: p.start_rank)),
        games=tuple(
            ReportGame(
                g.round,
                g.white,
                g.black,
                _result(g),
                float(g.white_score),
                None if g.black_score is None else float(g.black_score),
                g.kind,  # type: ignore[arg-type]
            )
            for g in games
        ),
    )
    return render_trf(report).encode("utf-8")
