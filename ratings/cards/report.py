"""The rating report of a tournament, as fide-2000 11.31 describes the computer table a
federation may send as its report: "Debe mostrar Rar, n y W. Para los jugadores no rankeados
con n menor a 3, se ingresará cero en la columna Rar. [...] También deberá ser incluída una
columna para W-We [...]. Para un jugador no rankeado que enfrenta al menos a 3 jugadores
rankeados, se debería dar su Ru aunque esté por debajo de 1801."

Shown where the regulation declares it (``facts.reporting.rating_report``), read from the
calculation the current published list of the tournament's period carries (the notes each
player's result keeps per tournament: Rc, n, W, We of a rated player; Rc, n, W, Ru of an
unrated one). Before a list rates the tournament there is nothing to show: drafts are the
officers' review pages, not public."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rating_engine.registry import get_regulation
from ratings.models import CalculationRun, DraftResult, PublishedList
from tournaments.kinds import tournament_ruleset_in_force

#: The notes of a player's result that the report reads (rating_engine fide_2000
#: rated_change: ``tournament_change`` of a rated player, ``performance`` of an unrated one
#: with a performance, ``too_few_rated_opponents`` and ``no_performance`` without one).
RATED_NOTE = "tournament_change"
PERFORMANCE_NOTE = "performance"
TOO_FEW_NOTE = "too_few_rated_opponents"
NO_PERFORMANCE_NOTE = "no_performance"


@dataclass(frozen=True)
class ReportRow:
    start_rank: int | None
    fed_id: str
    name: str
    #: True: rated (Rc, n, W, W - We); False: unrated (Rc, n, W, Ru).
    rated: bool
    #: Rar (Rc, the opponents' average as the calculation used it); 0 for an unrated player
    #: with fewer rated opponents than the report asks (11.31: "se ingresará cero").
    rc: float
    n: int
    #: None: not in the calculation's note (an unrated player with too few rated opponents).
    w: float | None
    w_we: float | None = None
    ru: float | None = None
    #: False: Ru below the floor, given all the same (11.31) and marked "not published".
    published: bool | None = None
    #: Why an unrated player has no Ru: "too_few" (fewer rated opponents than asked) or
    #: "undefined" (0 or 100%: no dp, fide-2000 10.1).
    no_ru: str = ""


@dataclass(frozen=True)
class RatingReport:
    article: str
    #: Rated opponents an unrated player needs for his Ru to be given.
    min_rated_opponents: int
    #: The lowest rating published (fide-2000 9.21: 1801); None: every Ru is published.
    floor: int | None
    #: The list whose calculation the report reads; None: not yet calculated and published.
    published_list: PublishedList | None
    rows: tuple[ReportRow, ...]


def tournament_rating_report(*, tournament: Any) -> RatingReport | None:
    """The tournament's rating report (fide-2000 11.31), or None when its regulation asks for
    none. Rows: every registry player of the tournament with a note of it in the calculation
    the current list of its period carries, by starting rank."""
    published = (
        PublishedList.objects.filter(period_id=tournament.period_id).order_by("-version").first()
        if tournament.period_id is not None
        else None
    )
    run = CalculationRun.objects.filter(published_list=published).first() if published else None
    ruleset = run.ruleset if run is not None else tournament_ruleset_in_force(tournament=tournament)
    regulation = get_regulation(ruleset)
    rule = regulation.facts.reporting.rating_report
    if rule is None:
        return None
    floor_rule = regulation.facts.lists.publication_floor
    floor = floor_rule.value if floor_rule is not None else None
    if run is None:
        return RatingReport(rule.article, rule.value, floor, None, ())
    entrants = {
        tp.player_id: tp
        for tp in tournament.players.filter(player__isnull=False).select_related("player")
    }
    key = str(tournament.pk)
    rows: list[ReportRow] = []
    for player_id, notes in DraftResult.objects.filter(
        run=run, player_id__in=list(entrants)
    ).values_list("player_id", "notes"):
        tp = entrants[player_id]
        row = _row(
            notes=[n for n in notes or () if (n.get("params") or {}).get("tournament") == key],
            start_rank=tp.start_rank,
            fed_id=tp.player.fed_id,
            name=str(tp.player),
            floor=floor,
        )
        if row is not None:
            rows.append(row)
    rows.sort(key=lambda r: (r.start_rank is None, r.start_rank or 0, r.name))
    return RatingReport(rule.article, rule.value, floor, published, tuple(rows))


def _row(
    *,
    notes: list[dict[str, Any]],
    start_rank: int | None,
    fed_id: str,
    name: str,
    floor: int | None,
) -> ReportRow | None:
    by_code = {n["code"]: n["params"] for n in notes}
    if RATED_NOTE in by_code:
        p = by_code[RATED_NOTE]
        w, we = float(p["w"]), float(p["we"])
        # 11.31: W - We, "el incremento de rating antes de la aplicación de K".
        return ReportRow(
            start_rank,
            fed_id,
            name,
            rated=True,
            rc=float(p["rc"]),
            n=int(p["n"]),
            w=w,
            w_we=round(w - we, 2),
        )
    if PERFORMANCE_NOTE in by_code:
        p = by_code[PERFORMANCE_NOTE]
        ru = float(p["ru"])
        return ReportRow(
            start_rank,
            fed_id,
            name,
            rated=False,
            rc=float(p["rc"]),
            n=int(p["games"]),
            w=float(p["score"]),
            ru=ru,
            published=floor is None or ru >= floor,
        )
    if TOO_FEW_NOTE in by_code:
        # 11.31: "Para los jugadores no rankeados con n menor a 3, se ingresará cero en la
        # columna Rar."
        p = by_code[TOO_FEW_NOTE]
        return ReportRow(
            start_rank, fed_id, name, rated=False, rc=0, n=int(p["count"]), w=None, no_ru="too_few"
        )
    if NO_PERFORMANCE_NOTE in by_code:
        p = by_code[NO_PERFORMANCE_NOTE]
        return ReportRow(
            start_rank,
            fed_id,
            name,
            rated=False,
            rc=0,
            n=int(p["games"]),
            w=float(p["score"]),
            no_ru="undefined",
        )
    return None
