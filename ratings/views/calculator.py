"""The calculator page (public): a player's rating, his opponents and results in one rating
system, rated by the same engine call as ``POST /api/v1/calculator/``
(ratings.calculation.calculator). The form is GET, so the address is the calculation to share;
the games are plain inputs (opp<n>, id<n>, res<n>) that static/js/site.js completes with the
registry search (``calculator_players``)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.permissions import permission_required
from periods.models import RatingSystem
from players.models import Player
from players.selectors import player_search
from rating_engine.errors import EngineInputError
from ratings.calculation.calculator import (
    ME,
    TOURNAMENT,
    CalculatorLine,
    CalculatorMe,
    calculator_error_message,
    calculator_input,
    calculator_rate,
    calculator_states,
)
from ratings.forms import (
    CALCULATOR_MAX_LINES,
    CALCULATOR_MIN_ROWS,
    CALCULATOR_SCORES,
    CalculatorForm,
    CalculatorRow,
    calculator_lines,
)
from ratings.models import EntryStatus

#: Blank lines offered after the last one filled in (more come with the next calculation).
SPARE_ROWS = 3


@dataclass(frozen=True)
class GameLine:
    """A line of the games table (templates/players/_calculation_games.html)."""

    number: int
    label: str
    opponent: Player | None
    opponent_rating: int | None
    score: float
    expected: float
    change: float
    k: int | None


def _systems() -> Any:
    return RatingSystem.objects.filter(is_active=True).order_by("name")


def _rows_shown(rows: list[CalculatorRow]) -> list[CalculatorRow]:
    """The lines the form shows: what was typed, in place, then SPARE_ROWS blank ones."""
    typed = {r.number: r for r in rows if 1 <= r.number <= CALCULATOR_MAX_LINES}
    last = max(typed, default=0)
    count = min(CALCULATOR_MAX_LINES, max(CALCULATOR_MIN_ROWS, last + SPARE_ROWS))
    return [typed.get(n, CalculatorRow(n)) for n in range(1, count + 1)]


def _engine_error(err: EngineInputError) -> str:
    """The engine's complaint, its players[n] read as the page's line n (players[0] is you)."""
    message = calculator_error_message(error=err)
    found = re.match(r"players\[(\d+)\]", err.location)
    if found and int(found[1]) > 0:
        return _("Line %(line)s: %(problem)s") % {"line": found[1], "problem": message}
    return f"{err.location}: {message}" if err.location else message


def _calculate(form: CalculatorForm, rows: list[CalculatorRow]) -> dict[str, Any]:
    """Resolve the registry players named, rate, and shape the result as the player
    calculation page shows it; {"errors": [...]} when something is missing or refused."""
    system = form.cleaned_data["system"]
    own = (form.cleaned_data.get("player") or "").strip()
    fed_ids = [r.fed_id for r in rows if r.fed_id] + ([own] if own else [])
    states = calculator_states(system=system, fed_ids=fed_ids)
    errors: list[str] = []
    rating, games = form.cleaned_data.get("rating"), form.cleaned_data.get("games")
    reached_2400 = reached_2200 = False
    if own:
        if own not in states:
            errors.append(_("No player with federation ID %(id)s.") % {"id": own})
        else:
            state = states[own][1]
            if state is not None:
                rating = rating if rating is not None else state.rating
                games = games if games is not None else state.games
                reached_2400, reached_2200 = state.reached_2400, state.reached_2200
    lines = []
    for row in rows:
        opponent, opponent_rating = None, int(row.rating) if row.rating else None
        if row.fed_id:
            if row.fed_id not in states:
                errors.append(
                    _("Line %(line)s: no player with federation ID %(id)s.")
                    % {"line": row.number, "id": row.fed_id}
                )
                continue
            opponent, state = states[row.fed_id]
            if opponent_rating is None:
                opponent_rating = state.rating if state is not None else None
        if opponent_rating is None:
            errors.append(
                _("Line %(line)s: %(player)s has no rating in %(system)s: type one.")
                % {"line": row.number, "player": opponent, "system": system.name}
            )
            continue
        lines.append(CalculatorLine(opponent_rating, CALCULATOR_SCORES[row.result], opponent))
    if not lines and not errors:
        errors.append(_("Type at least one game: the opponent's rating and the result."))
    if errors:
        return {"errors": errors}
    me = CalculatorMe(
        rating=rating,
        games=games or 0,
        birth_date=form.cleaned_data.get("birth_date"),
        reached_2400=reached_2400,
        reached_2200=reached_2200,
    )
    on = form.cleaned_data.get("date") or timezone.localdate()
    data = calculator_input(system=system, me=me, lines=lines, on=on)
    try:
        result = calculator_rate(period=data)
    except EngineInputError as err:
        return {"errors": [_engine_error(err)]}
    return _shape(result, lines, system, on)


def _shape(
    result: dict[str, Any], lines: list[CalculatorLine], system: RatingSystem, on: dt.date
) -> dict[str, Any]:
    mine = next(p for p in result["players"] if p["id"] == ME)
    game_lines = []
    for g in result["games"]:
        if g["player"] != ME:
            continue
        n = int(g["opponent"])
        line = lines[n - 1]
        game_lines.append(
            GameLine(
                number=n,
                label=_("Line %(line)s") % {"line": n},
                opponent=line.opponent,
                opponent_rating=g["opponent_rating"],
                score=g["score"],
                expected=g["expected"],
                change=g["change"],
                k=g["k"],
            )
        )
    excluded = [
        {**e, "tournament_id": TOURNAMENT}
        for e in result["excluded"]
        if ME in (e["white"], e["black"])
    ]
    labels = dict(EntryStatus.choices)
    entry = {
        "change": mine["change"],
        "rating": mine["rating_after"],
        "get_status_display": labels.get(mine["status"], mine["status"]),
    }
    return {
        "calc": {
            "result": mine,
            "entry": entry,
            "lines": game_lines,
            "excluded": excluded,
            "tournaments": {TOURNAMENT: _("Your games")},
        },
        "regulation_version": result["regulation_version"],
        # What made it, as the list pages name it ("fide-2024 version 2": regulation_label).
        "made_under": SimpleNamespace(
            ruleset=result.get("ruleset") or result["regulation_version"].split("/")[0],
            regulation_version=result["regulation_version"],
            engine_version=result.get("engine_version", ""),
        ),
        "system": system,
        "on": on,
    }


@require_GET
@permission_required("ratings.browse_lists")
def calculator(request: HttpRequest) -> HttpResponse:
    """The calculator page; with a system chosen in the address, its calculation."""
    systems = _systems()
    rows, line_errors = calculator_lines(request.GET)
    bound = "system" in request.GET
    form = CalculatorForm(request.GET if bound else None, systems=systems)
    context: dict[str, Any] = {"form": form, "line_errors": line_errors}
    if bound and form.is_valid() and not line_errors:
        context.update(_calculate(form, rows))
    context["rows"] = _rows_shown(rows)
    context["max_lines"] = CALCULATOR_MAX_LINES
    return render(request, "ratings/calculator.html", context, status=200)


@require_GET
@permission_required("players.browse_players")
def calculator_players(request: HttpRequest) -> JsonResponse:
    """The calculator's autocomplete: the registry search (players.selectors.player_search),
    each player with his rating in the system chosen (?system=code)."""
    query = request.GET.get("q", "")[:100].strip()
    system = _systems().filter(code=request.GET.get("system", "")).first()
    found = player_search(query=query, per_page=10).players if len(query) >= 2 else []
    states = calculator_states(system=system, fed_ids=[p.fed_id for p in found]) if system else {}
    return JsonResponse(
        {
            "results": [
                {
                    "fed_id": p.fed_id,
                    "name": str(p),
                    "rating": (
                        states[p.fed_id][1].rating
                        if p.fed_id in states and states[p.fed_id][1] is not None
                        else None
                    ),
                }
                for p in found
            ]
        }
    )
