"""Reads of tournaments, reports and players.

Who may manage which tournament is the rule ``tournaments.manage_tournament``
(tournaments/rules.py): the arbiter who registered it, or a rating officer.
``tournament_list_for_user`` lists the same tournaments as a query.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Coalesce, Length
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from core.messages import param_localized
from core.rules import is_officer
from periods.models import RatingSystem
from players.models import Player
from players.names import fold
from tournaments.filters import TournamentFilter
from tournaments.models import (
    Game,
    GameKind,
    Report,
    ReportStatus,
    Tournament,
    TournamentPlayer,
    TournamentStatus,
)


def tournament_list_public(*, query: str = "", limit: int = 200) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("rating_system").order_by("-end_date", "name")
    if query:
        qs = qs.filter(Q(name__icontains=query) | Q(city__icontains=query))
    return qs[:limit]


def tournament_list_for_user(*, user: Any, query: str = "") -> QuerySet[Tournament]:
    """The tournaments a user may manage (``tournaments.manage_tournament``, the same predicates
    as a query: a rule tests one object and cannot filter): their own, or all for an officer."""
    qs = Tournament.objects.select_related("rating_system", "arbiter").order_by("-end_date", "name")
    if not is_officer(user):
        qs = qs.filter(arbiter_id=user.pk) if user.is_authenticated else qs.none()
    if query:
        qs = qs.filter(Q(name__icontains=query) | Q(city__icontains=query))
    return qs


def tournament_get(*, pk: int) -> Tournament:
    """A tournament with what its management pages show (the caller has checked the permission)."""
    return Tournament.objects.select_related("rating_system", "period", "approved_by").get(pk=pk)


def tournament_get_public(*, pk: int) -> Tournament:
    return Tournament.objects.select_related(
        "rating_system", "period", "chief_arbiter_record", "organiser"
    ).get(pk=pk)


def tournaments_awaiting_approval() -> QuerySet[Tournament]:
    return Tournament.objects.filter(
        late_registration=True, approved_by__isnull=True
    ).select_related("rating_system", "arbiter")


def rating_systems_active() -> QuerySet[RatingSystem]:
    return RatingSystem.objects.filter(is_active=True).order_by("name")


def report_current(*, tournament: Tournament) -> Report | None:
    """The accepted report in force (not superseded, not the FEDA companion file)."""
    return (
        tournament.reports.filter(status=ReportStatus.ACCEPTED)
        .exclude(format="feda")
        .order_by("-submission")
        .first()
    ) or (
        tournament.reports.filter(status=ReportStatus.ACCEPTED, format="feda")
        .order_by("-submission")
        .first()
    )


def report_feda_companion(*, tournament: Tournament) -> Report | None:
    return (
        tournament.reports.filter(status=ReportStatus.ACCEPTED, format="feda")
        .order_by("-submission")
        .first()
    )


def report_list(*, tournament: Tournament) -> QuerySet[Report]:
    """Newest first, without the bytes; ``bytes_kept``: the size of the bytes still stored
    (0 for a rejected upload past the quota, or one refused before reading)."""
    return (
        tournament.reports.select_related("uploaded_by")
        .defer("data")
        .annotate(bytes_kept=Length("data"))
        .order_by("-submission")
    )


def tournament_players(*, tournament: Tournament) -> QuerySet[TournamentPlayer]:
    return tournament.players.select_related("player").order_by("start_rank")


# --------------------------------------------------------------------------- matching


@dataclass
class LineMatch:
    """How one report line matches the registry."""

    line: TournamentPlayer
    how: str = ""  # fed_id / fide_id / name_birth / confirmed
    candidates: list[Player] = field(default_factory=list)

    @property
    def state(self) -> str:
        if self.line.player_id:
            return "matched"
        return "ambiguous" if self.candidates else "new"


def _split_name(name: str) -> tuple[str, str]:
    if "," in name:
        surname, given = name.split(",", 1)
        return surname.strip(), given.strip()
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name.strip(), "")


def name_key_of(name: str) -> str:
    surname, given = _split_name(name)
    return fold(f"{surname} {given}")


@dataclass(frozen=True)
class ReportLine:
    """What matching reads of a report line (TournamentPlayer has the same attributes)."""

    start_rank: int
    name: str
    fide_id: str = ""
    fed_id: str = ""
    birth_year: int | None = None


SURE_MATCHES = frozenset({"fed_id", "fide_id", "name_birth"})
#: A FIDE ID that points to a registry player with another name or birth year: a candidate for
#: the arbiter's review, never an automatic match (issue 14: "Benitez Cadenas, Luis Miguel, 1959"
#: was matched to "Lorenzo Ávila, Álvaro", born 2013).
FIDE_ID_MISMATCH = "fide_id_mismatch"


def names_agree(reported: str, name_key: str) -> bool:
    """The reported name and a registry player's folded name share a word of three letters or
    more (surnames are written in full on both sides; given names get shortened to initials).
    Nothing to compare (a name of short words only) counts as agreeing."""
    ours = {w for w in fold(reported).split() if len(w) >= 3}
    theirs = {w for w in name_key.split() if len(w) >= 3}
    return not ours or not theirs or bool(ours & theirs)


def birth_years_agree(reported: int | None, registered: int | None) -> bool:
    """Unknown on either side agrees; otherwise a year apart at most (a birth date misread)."""
    return reported is None or registered is None or abs(reported - registered) <= 1


def fide_id_int(value: object) -> int | None:
    """A reported FIDE ID as the registry's bigint: ASCII digits only (``"²²".isdigit()`` is
    true but ``int("²²")`` raises) and at most 18 of them; else None (no match by FIDE ID)."""
    text = str(value or "")
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not digits or len(digits) > 18:
        return None
    return int(digits)


def player_candidates(*, lines: list[Any]) -> dict[int, tuple[str, list[int]]]:
    """Match lines (objects with start_rank, fed_id, fide_id, name, birth_year) to the registry.

    Order: federation ID, then FIDE ID, then accent- and case-insensitive name (Player.name_key)
    with the birth year. At most three queries whatever the number of lines. Returns
    rank → (how, candidate player ids); one candidate found by an ID, or by name and birth year
    (``SURE_MATCHES``), is a match; a name alone never is.
    """
    out: dict[int, tuple[str, list[int]]] = {}
    fed_ids = {ln.fed_id for ln in lines if ln.fed_id}
    # A record merged into another (desk.merges) answers with the kept one: its federation ID
    # still names the player; its FIDE ID went to the kept record, its name is left out.
    by_fed = (
        dict(
            Player.objects.filter(fed_id__in=fed_ids).values_list(
                "fed_id", Coalesce("merged_into_id", "id")
            )
        )
        if fed_ids
        else {}
    )
    rest = []
    for ln in lines:
        if ln.fed_id and ln.fed_id in by_fed:
            out[ln.start_rank] = ("fed_id", [by_fed[ln.fed_id]])
        else:
            rest.append(ln)
    fide_ids = {fide_id_int(ln.fide_id) for ln in rest} - {None}
    by_fide = (
        {
            fide_id: (pk, key, year)
            for fide_id, pk, key, year in Player.objects.filter(fide_id__in=fide_ids).values_list(
                "fide_id", "id", "name_key", "birth_year"
            )
        }
        if fide_ids
        else {}
    )
    remaining = []
    for ln in rest:
        fide_id = fide_id_int(ln.fide_id)
        if fide_id is not None and fide_id in by_fide:
            pk, key, year = by_fide[fide_id]
            same = names_agree(ln.name, key) and birth_years_agree(ln.birth_year, year)
            out[ln.start_rank] = ("fide_id" if same else FIDE_ID_MISMATCH, [pk])
        else:
            remaining.append(ln)
    keys = {name_key_of(ln.name) for ln in remaining if ln.name}
    by_key: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    if keys:
        for pk, key, year in (
            Player.objects.filter(name_key__in=keys, merged_into__isnull=True)
            .order_by("name_key", "id")
            .values_list("id", "name_key", "birth_year")
        ):
            by_key[key].append((pk, year))
    for ln in remaining:
        same_name = by_key.get(name_key_of(ln.name), [])
        if ln.birth_year:
            exact = [pk for pk, year in same_name if year == ln.birth_year]
            if len(exact) == 1:
                out[ln.start_rank] = ("name_birth", exact)
                continue
            # Same name without a known birth year stays a candidate, never an automatic match.
            out[ln.start_rank] = ("name", exact + [pk for pk, year in same_name if year is None])
        else:
            out[ln.start_rank] = ("name", [pk for pk, _year in same_name])
    return out


def tournament_matching(*, tournament: Tournament) -> list[LineMatch]:
    """The review screen: every line, matched, ambiguous (candidates) or new."""
    lines = list(tournament_players(tournament=tournament))
    unmatched = [ln for ln in lines if not ln.player_id]
    found = player_candidates(lines=unmatched) if unmatched else {}
    players = Player.objects.in_bulk([pk for _how, ids in found.values() for pk in ids])
    result = []
    for ln in lines:
        if ln.player_id:
            result.append(LineMatch(line=ln, how="confirmed"))
        else:
            how, ids = found.get(ln.start_rank, ("", []))
            result.append(
                LineMatch(line=ln, how=how, candidates=[players[pk] for pk in ids if pk in players])
            )
    return result


def today() -> dt.date:
    return timezone.localdate()


#: How the checks cite a rule of the office's own (tournaments/checks/report.py, periods.cycles).
OFFICE_RULE = gettext_noop("(office rule)")


def problems_display(*, problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored problems → translated messages (dates and numbers in the reader's format), errors
    first, then by line and column."""
    out = []
    for p in problems:
        params = {
            k: v if k == "article" else param_localized(v) for k, v in p.get("params", {}).items()
        }
        try:
            message = gettext(p["template"]) % {"field": p.get("field", ""), **params}
        except (KeyError, TypeError, ValueError):
            message = gettext(p["template"])
        article = str(p.get("article") or "")
        if article.endswith(OFFICE_RULE):  # "fide-2024 (office rule)": the words translated
            article = article[: -len(OFFICE_RULE)] + gettext(OFFICE_RULE)
        out.append({**p, "message": message, "article": article})
    return sorted(
        out,
        key=lambda p: (
            p["severity"] != "error",
            p.get("line") is None,
            p.get("line") or 0,
            p.get("column") or 0,
        ),
    )


# --------------------------------------------------------------------------- public pages


@dataclass
class CrosstableCell:
    """One round of one player: opponent's start rank (None for a bye), colour, points."""

    round: int | None  # None: the report does not say (a crosstable)
    opponent: int | None
    colour: str  # "w", "b" or "" (a bye, or not known)
    result: str  # "1", "½", "0", "+", "-" (forfeits), or the bye's points
    points: Decimal


@dataclass
class CrosstableRow:
    line: TournamentPlayer
    cells: list[CrosstableCell | None]
    points: Decimal = Decimal(0)
    place: int = 0


@dataclass
class Crosstable:
    rounds: int
    rows: list[CrosstableRow]  # by start rank
    # False before the report is validated: no games are stored yet, so every player would
    # stand first with 0 points (issue 23); the page says the standings come with validation.
    standings_shown: bool = True
    # False when the report gives no rounds (a crosstable, the crosstable form): the columns are
    # each player's games, with no round and no colour.
    rounds_known: bool = True

    @property
    def standings(self) -> list[CrosstableRow]:
        """By points, then start rank (no tie-break: the report's own order is not stored)."""
        return sorted(self.rows, key=lambda r: (-r.points, r.line.start_rank))


def _mark(points: Decimal | None, kind: str) -> str:
    if points is None:
        return ""
    text = {Decimal("1"): "1", Decimal("0.5"): "½", Decimal("0"): "0"}.get(points, str(points))
    if kind == GameKind.FORFEIT:
        return "+" if points > 0 else "-"
    return text


#: A tournament's standings and crosstable are shown once its report is validated (its games
#: are written then): before, there is nothing to stand on.
STANDINGS_STATUSES = ("validated", "rated", "published")


def tournament_crosstable(*, tournament: Tournament) -> Crosstable:
    """The crosstable from the stored games: one row per player by start rank, one cell per
    round, and the places by points (two queries). Empty, with `standings_shown` False,
    until the report is validated (`STANDINGS_STATUSES`)."""
    if tournament.status not in STANDINGS_STATUSES:
        return Crosstable(0, [], standings_shown=False)
    lines = list(tournament_players(tournament=tournament))
    by_id = {line.pk: line for line in lines}
    games = list(
        Game.objects.filter(tournament=tournament)
        .order_by("round", "id")
        .values(
            "round", "white_id", "black_id", "kind", "white_score", "black_score", "colours_known"
        )
    )
    known = all(g["round"] is not None for g in games)
    # Games of unknown round (a crosstable): each player's games in the order stored, one column
    # per game, with no round number and no colour.
    played: dict[int, int] = {}

    def column(line_id: int, rnd: int | None) -> int:
        if rnd is not None:
            return rnd - 1
        played[line_id] = played.get(line_id, 0) + 1
        return played[line_id] - 1

    placed: list[tuple[int, int, CrosstableCell]] = []
    for g in games:
        white, black = by_id.get(g["white_id"]), by_id.get(g["black_id"])
        colours = g["colours_known"] and g["round"] is not None
        if white is not None:
            placed.append(
                (
                    white.pk,
                    column(white.pk, g["round"]),
                    CrosstableCell(
                        g["round"],
                        black.start_rank if black else None,
                        "w" if black and colours else "",
                        _mark(g["white_score"], g["kind"]),
                        g["white_score"] or Decimal(0),
                    ),
                )
            )
        if black is not None and white is not None:
            placed.append(
                (
                    black.pk,
                    column(black.pk, g["round"]),
                    CrosstableCell(
                        g["round"],
                        white.start_rank,
                        "b" if colours else "",
                        _mark(g["black_score"], g["kind"]),
                        g["black_score"] or Decimal(0),
                    ),
                )
            )
    rounds = max([i + 1 for _line, i, _cell in placed] + [tournament.rounds or 0])
    rows = {line.pk: CrosstableRow(line, [None] * rounds) for line in lines}
    for line_id, i, cell in placed:
        rows[line_id].cells[i] = cell
    for row in rows.values():
        row.points = sum((c.points for c in row.cells if c), Decimal(0))
    table = Crosstable(rounds, [rows[line.pk] for line in lines], rounds_known=known)
    previous: tuple[Decimal, int] | None = None
    for i, row in enumerate(table.standings, start=1):
        row.place = i if previous is None or previous[0] != row.points else previous[1]
        previous = (row.points, row.place)
    return table


#: Tournaments whose games count: their page shows the report, rated or published.
PUBLIC_REPORT_STATUSES = ("rated", "published")


def report_public(*, tournament: Tournament) -> Report | None:
    """The report in force of a rated tournament (None before it is rated): the public may
    download it as it was sent."""
    if tournament.status not in PUBLIC_REPORT_STATUSES:
        return None
    return report_current(tournament=tournament)


def tournament_list_filtered(*, params: Any) -> tuple[TournamentFilter, QuerySet[Tournament]]:
    """The public tournament list filtered by `params` (rating system, period, status, region,
    dates, name): the filter set (for its form) and the tournaments, newest first."""
    qs = Tournament.objects.select_related("rating_system", "period").order_by("-end_date", "name")
    filterset = TournamentFilter(params, queryset=qs)
    return filterset, (filterset.qs if filterset.is_valid() else qs)


# --------------------------------------------------------------------------- the arbiter's desk


@dataclass(frozen=True)
class DeskEntry:
    """A tournament on the arbiter's desk and what comes next for it (``action``: a code the
    page words as a sentence)."""

    tournament: Tournament
    action: str
    unmatched: int = 0
    errors: int = 0


#: Tournaments of a status on the arbiter's desk at most (the latest), and published ones.
DESK_SHOWN = 100
DESK_PUBLISHED_SHOWN = 20

#: The desk's groups, in the order of the tournament's life.
DESK_ORDER = ("registered", "report_received", "validated", "rated", "published")


def tournament_desk(
    *, user: Any, today: dt.date | None = None
) -> list[tuple[str, list[DeskEntry]]]:
    """The tournaments a user manages (``tournament_list_for_user``), grouped by status, each
    with its next action: wait for the approval of a late registration, send the report once
    the tournament is over, correct the report's errors, match the players, wait for the
    rating, nothing (published)."""
    today = today or timezone.localdate()
    mine = tournament_list_for_user(user=user).select_related(
        "period__system", "moved_from_period__system", "rating_system"
    )
    # The latest of each status (the rest: "Search my tournaments", paginated): an arbiter
    # of years has thousands published, an organiser of opens hundreds waiting for a month.
    tournaments = [
        t
        for status in DESK_ORDER
        for t in mine.filter(status=status)[
            : DESK_PUBLISHED_SHOWN if status == TournamentStatus.PUBLISHED else DESK_SHOWN
        ]
    ]
    received = [t.pk for t in tournaments if t.status == "report_received"]
    unmatched_counts = dict(
        TournamentPlayer.objects.filter(tournament_id__in=received, player__isnull=True)
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    reports = {
        r.tournament_id: r
        for r in Report.objects.filter(
            tournament__in=received,
            status=ReportStatus.ACCEPTED,
        )
        .exclude(format="feda")
        .only("tournament_id", "problems", "submission")
        .order_by("tournament_id", "submission")
    }
    groups: dict[str, list[DeskEntry]] = {status: [] for status in DESK_ORDER}
    for t in tournaments:
        unmatched = unmatched_counts.get(t.pk, 0)
        errors = 0
        if t.status == "registered":
            if t.late_registration and t.approved_by_id is None:
                action = "await_approval"
            elif t.end_date >= today:
                action = "play"
            else:
                action = "upload"
        elif t.status == "report_received":
            report = reports.get(t.pk)
            errors = sum(1 for p in (report.problems if report else []) if p["severity"] == "error")
            action = "fix_errors" if errors else "match_players" if unmatched else "revalidate"
        elif t.status == "validated":
            action = "await_rating"
        elif t.status == "rated":
            action = "await_publication"
        else:
            action = "none"
        groups.setdefault(t.status, []).append(
            DeskEntry(tournament=t, action=action, unmatched=unmatched, errors=errors)
        )
    return [(status, groups[status]) for status in DESK_ORDER if groups.get(status)]
