"""Reads for the export to FIDE (fide-2024 9.1: the federation's rating officer uploads each
rated tournament's TRF to the FIDE Rating Server): the stored, matched and corrected
tournament gathered into the records of ``formats.reports`` and written by the pure
``formats.reports.trf_export``; a period's batch as a zip; the tournaments not yet sent.

What is written (docs/reports.md, "Export to FIDE"):
- the header from the tournament as registered (name, city, federation, dates, chief arbiter,
  rounds, system and time control), not from the arbiter's file;
- each line as stored, with the registry's FIDE ID, federation, title and birth date when the
  line is matched to a registry player (the reported ones otherwise);
- the games as stored: an officer's correction (ratings.office.services.game_correct) is what
  is written; games left out of the calculation (``Game.left_out_code``) are marked in TRF-2026;
- the points summed from those games, the rank by points (ties share it, as TRF-2026 allows).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, replace
from typing import cast

from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.errors import Refused
from formats.reports import ParsedReport, ReportGame, ReportHeader, ReportPlayer
from formats.reports.records import GameKind as TrfGameKind
from formats.reports.trf_export import TRF_VERSIONS, LeftOutGame, TrfVersion, trf_write
from periods.models import PeriodStatus, RatingPeriod
from tournaments.models import LEFT_OUT_REASONS, Game, Tournament
from tournaments.rules import RATED_STATUSES, VALIDATED_STATUSES

#: A stored result as TRF codes from White's side, by kind (FORMATS.md "Result codes").
_CODES: dict[tuple[str, str], str] = {
    ("played", "1-0"): "1",
    ("played", "0-1"): "0",
    ("played", "1/2-1/2"): "=",
    ("short", "1-0"): "W",
    ("short", "0-1"): "L",
    ("short", "1/2-1/2"): "D",
    ("forfeit", "+-"): "+",
    ("forfeit", "-+"): "-",
    ("forfeit", "--"): "-",
}
_SEX = {"M": "m", "F": "w"}


@dataclass(frozen=True)
class FideExport:
    filename: str
    text: str


def fide_export_version(value: str | None) -> TrfVersion:
    """The `format` asked for (trf16 by default); refused when it is neither."""
    value = (value or "trf16").lower()
    for version in TRF_VERSIONS:
        if version == value:
            return version
    raise Refused(_("Choose the format trf16 or trf26."))


def _time_control(t: Tournament) -> str:
    text = f"{t.base_minutes}'"
    if t.moves_per_control:
        text = f"{t.moves_per_control}/{t.base_minutes}' + {t.extra_minutes}'"
    if t.increment_seconds:
        text += f' + {t.increment_seconds}"'
    return text


def _players(t: Tournament) -> tuple[ReportPlayer, ...]:
    out = []
    for line in t.players.select_related("player").order_by("start_rank"):
        p = line.player
        fide_id = str(p.fide_id) if p is not None and p.fide_id else line.fide_id
        out.append(
            ReportPlayer(
                start_rank=line.start_rank,
                name=line.name,
                sex=_SEX.get(p.sex if p is not None else line.sex, ""),
                title=(p.title if p is not None and p.title else line.title),
                rating=line.rating_at_start,
                federation=(p.federation if p is not None and p.federation else line.federation),
                fide_id=fide_id,
                birth_date=p.birth_date if p is not None else None,
                birth_year=(p.birth_year if p is not None and p.birth_year else line.birth_year),
            )
        )
    return tuple(out)


def _games(t: Tournament) -> tuple[tuple[ReportGame, ...], tuple[LeftOutGame, ...]]:
    games: list[ReportGame] = []
    left_out: list[LeftOutGame] = []
    rows = Game.objects.filter(tournament=t).values_list(
        "round",
        "white__start_rank",
        "black__start_rank",
        "result",
        "kind",
        "white_score",
        "black_score",
        "colours_known",
        "left_out_code",
        "left_out_article",
    )
    for rnd, white, black, result, stored_kind, ws, bs, colours, code, article in rows.iterator():
        kind = cast(TrfGameKind, stored_kind)  # the stored kinds are the report's (less absent)
        if rnd is None:
            raise Refused(
                _(
                    "The report gives no rounds (a crosstable): a TRF file needs the round of "
                    "every game. Upload the tournament's TRF file first."
                )
            )
        if black is None:
            games.append(ReportGame(rnd, white, None, "", float(ws), None, kind))
            continue
        games.append(
            ReportGame(
                rnd,
                white,
                black,
                _CODES.get((kind, result), "="),
                float(ws),
                float(bs) if bs is not None else None,
                kind,
                colours_known=colours,
            )
        )
        if code:
            reason = LEFT_OUT_REASONS.get(code, code)
            left_out.append(LeftOutGame(rnd, white, black, article, reason))
    return tuple(games), tuple(left_out)


def _ranked(players: tuple[ReportPlayer, ...], report: ParsedReport) -> tuple[ReportPlayer, ...]:
    """Each line's rank by points: one more than the players with more points (ties share it)."""
    points = report.points()
    ordered = sorted((points[p.start_rank] for p in players), reverse=True)
    first: dict[float, int] = {}
    for i, value in enumerate(ordered, start=1):
        first.setdefault(value, i)
    return tuple(replace(p, rank=first[points[p.start_rank]]) for p in players)


def tournament_fide_export(*, tournament: Tournament, version: TrfVersion) -> FideExport:
    """The tournament as a TRF file for the FIDE Rating Server (validated, rated or published
    tournaments only: before that the games are not the record)."""
    if tournament.status not in VALIDATED_STATUSES:
        raise Refused(_("Only a validated or rated tournament can be exported to FIDE."))
    t = tournament
    header = ReportHeader(
        name=t.name,
        city=t.city,
        federation=t.federation,
        start_date=t.start_date,
        end_date=t.end_date,
        chief_arbiter=t.chief_arbiter,
        time_control=_time_control(t),
        rounds=t.rounds,
        tournament_type=t.get_system_display(),
        format=version,
    )
    games, left_out = _games(t)
    report = ParsedReport(header=header, players=_players(t), games=games)
    report = ParsedReport(header=header, players=_ranked(report.players, report), games=games)
    text = trf_write(report, version=version, left_out=left_out)
    name = slugify(t.name)[:60] or "tournament"
    return FideExport(filename=f"{t.pk}-{name}.{version}.trf", text=text)


def period_fide_tournaments(*, period: RatingPeriod) -> QuerySet[Tournament]:
    """The period's rated tournaments, the batch sent to FIDE."""
    return period.tournaments.filter(status__in=RATED_STATUSES).order_by("start_date", "pk")


def period_fide_batch(*, period: RatingPeriod, version: TrfVersion) -> bytes:
    """One TRF per rated tournament of the period in a zip (the FIDE Rating Server's batch);
    a tournament that cannot be written (no rounds) is named in SKIPPED.txt with the reason."""
    buffer = io.BytesIO()
    skipped: list[str] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for t in period_fide_tournaments(period=period).select_related("rating_system"):
            try:
                export = tournament_fide_export(tournament=t, version=version)
            except Refused as exc:
                skipped.append(f"{t.pk} {t.name}: {exc}")
                continue
            archive.writestr(export.filename, export.text.encode("utf-8"))
        if skipped:
            archive.writestr("SKIPPED.txt", ("\n".join(skipped) + "\n").encode("utf-8"))
    return buffer.getvalue()


def tournaments_fide_unsent() -> QuerySet[Tournament]:
    """For the officer's desk: rated tournaments of published periods not yet sent to FIDE."""
    return (
        Tournament.objects.filter(
            status__in=RATED_STATUSES,
            period__status=PeriodStatus.PUBLISHED,
            fide_sent_on__isnull=True,
        )
        .select_related("period", "period__system", "rating_system")
        .order_by("period__end", "start_date", "pk")
    )
