"""Reads for a tournament's team substitutions and norm winner (cnxc-2000 7.2, 7.1): what the
tournament's pages show and whether the regulation reads them (rating_engine's InputFacts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from formats.reports import decode_report, parse_report
from rating_engine.registry import get_regulation
from tournaments.kinds import tournament_ruleset_in_force
from tournaments.models import Game, Substitution, Tournament, TournamentPlayer
from tournaments.selectors import report_current


@dataclass(frozen=True)
class SubstitutionRow:
    substitution: Substitution
    replaced: str  # "rank. name" as reported, or the rank alone when no line has it
    substitute: str
    #: The game is in the current report (a later report may have renumbered its lines).
    has_game: bool


@dataclass(frozen=True)
class CompetitionRecords:
    """What the pages show: the articles that read them ("" when the regulation does not),
    the substitutions and the winner after tie-breaks."""

    substitutions_article: str
    winner_article: str
    rows: list[SubstitutionRow]
    winner: str
    players: list[tuple[int, str]]  # (start rank, "rank. name"), for the forms


def _label(rank: int, names: dict[int, str]) -> str:
    return f"{rank}. {names[rank]}" if rank in names else str(rank)


def games_held(*, tournament: Tournament) -> set[tuple[int | None, str, int]]:
    """(round, side, start rank) of each player's paired games: the tournament's games, or,
    before they are written (a report not yet validated: its arbiter records its
    substitutions then, tournaments.rules), the games of its current report as parsed."""
    held = {
        (rnd, "white", w)
        for rnd, w in Game.objects.filter(tournament=tournament, black__isnull=False).values_list(
            "round", "white__start_rank"
        )
    } | {
        (rnd, "black", b)
        for rnd, b in Game.objects.filter(tournament=tournament, black__isnull=False).values_list(
            "round", "black__start_rank"
        )
    }
    if held:
        return held
    report = report_current(tournament=tournament)
    if report is None:
        return held
    family = {"feda": "feda", "csv": "csv", "form": "csv"}.get(report.format, "trf")
    parsed = parse_report(
        decode_report(bytes(report.data), max_bytes=max(settings.REPORT_MAX_BYTES, report.size)),
        format=family,
    )
    for g in parsed.games:
        if g.black_rank is not None:
            held |= {(g.round, "white", g.white_rank), (g.round, "black", g.black_rank)}
    return held


def competition_records(*, tournament: Tournament) -> CompetitionRecords:
    facts = get_regulation(tournament_ruleset_in_force(tournament=tournament)).inputs
    if not (facts.substitutions or facts.norm_winner):
        return CompetitionRecords("", "", [], "", [])
    names = dict(
        TournamentPlayer.objects.filter(tournament=tournament)
        .order_by("start_rank")
        .values_list("start_rank", "name")
    )
    rows: list[SubstitutionRow] = []
    if facts.substitutions:
        subs = list(Substitution.objects.filter(tournament=tournament))
        held = games_held(tournament=tournament) if subs else set()
        taken = {(s.round, s.side, s.substitute_rank) for s in subs}
        rows = [
            SubstitutionRow(
                s,
                _label(s.replaced_rank, names),
                _label(s.substitute_rank, names),
                (s.round, s.side, s.replaced_rank) in held | taken,
            )
            for s in subs
        ]
    winner = (
        _label(tournament.norm_winner_rank, names)
        if facts.norm_winner and tournament.norm_winner_rank
        else ""
    )
    return CompetitionRecords(
        facts.substitutions,
        facts.norm_winner,
        rows,
        winner,
        [(rank, _label(rank, names)) for rank in names],
    )


def substitution_list(*, tournament: Tournament) -> Any:
    """The tournament's substitutions (the API), in the order of the games and their dates."""
    return Substitution.objects.filter(tournament=tournament).order_by(
        "round", "side", "date", "id"
    )
