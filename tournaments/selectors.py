"""Reads of tournaments, reports and players.

Who may manage which tournament is the rule ``tournaments.manage_tournament``
(tournaments/rules.py): the arbiter who registered it, or a rating officer.
``tournament_list_for_user`` lists the same tournaments as a query.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from core.rules import is_officer
from periods.models import RatingSystem
from players.models import Player
from players.names import fold
from tournaments.models import Report, ReportStatus, Tournament, TournamentPlayer


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
    return Tournament.objects.select_related("rating_system", "period").get(pk=pk)


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
    return tournament.reports.select_related("uploaded_by").defer("data").order_by("-submission")


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
    by_fed = (
        dict(Player.objects.filter(fed_id__in=fed_ids).values_list("fed_id", "id"))
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
        dict(Player.objects.filter(fide_id__in=fide_ids).values_list("fide_id", "id"))
        if fide_ids
        else {}
    )
    remaining = []
    for ln in rest:
        fide_id = fide_id_int(ln.fide_id)
        if fide_id is not None and fide_id in by_fide:
            out[ln.start_rank] = ("fide_id", [by_fide[fide_id]])
        else:
            remaining.append(ln)
    keys = {name_key_of(ln.name) for ln in remaining if ln.name}
    by_key: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    if keys:
        for pk, key, year in (
            Player.objects.filter(name_key__in=keys)
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


def problems_display(*, problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored problems → translated messages, errors first, then by line and column."""
    out = []
    for p in problems:
        try:
            message = gettext(p["template"]) % {"field": p.get("field", ""), **p.get("params", {})}
        except (KeyError, TypeError, ValueError):
            message = gettext(p["template"])
        out.append({**p, "message": message})
    return sorted(
        out,
        key=lambda p: (
            p["severity"] != "error",
            p.get("line") is None,
            p.get("line") or 0,
            p.get("column") or 0,
        ),
    )
