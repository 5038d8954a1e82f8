"""Reads of the rating officer's decisions on a tournament (tournaments.services.decisions):
which decisions its regulation provides for (facts.decisions, with their articles and days),
a tournament's decisions, and the officer's desk's queues of them. docs/arbiters.md."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from rating_engine.registry import get_regulation
from rating_engine.regulations.base import DecisionFacts
from tournaments.kinds import tournament_ruleset_in_force
from tournaments.models import (
    DecisionKind,
    DecisionState,
    Game,
    GameKind,
    Tournament,
    TournamentDecision,
)

#: The codes of the problems the decisions add (services.decision_effects); an override
#: cannot name them.
DECISION_CODES = frozenset(
    {"returned_for_correction", "not_reported", "registration_rejected", "rating_refused"}
)
#: The states in which a refusal to rate keeps the tournament out of the rating (fide-2024
#: 0.4): until an appeal is upheld.
REFUSAL_STANDS = (DecisionState.IN_FORCE, DecisionState.APPEALED, DecisionState.APPEAL_DISMISSED)


@dataclass(frozen=True)
class Offered:
    """A decision the tournament's regulation provides for: its article, and its days (the
    correction's deadline, the appeal's window) where the text counts them."""

    kind: str
    label: str
    article: str
    days: int | None = None


def decision_facts(*, tournament: Tournament) -> DecisionFacts:
    return get_regulation(tournament_ruleset_in_force(tournament=tournament)).facts.decisions


def decisions_offered(*, tournament: Tournament) -> dict[str, Offered]:
    """The decisions the tournament's regulation provides for, by kind (none elsewhere)."""
    facts = decision_facts(tournament=tournament)
    rules = {
        DecisionKind.RETURN_FOR_CORRECTION: facts.correction_days,
        DecisionKind.REJECT_REGISTRATION: facts.reject_registration,
        DecisionKind.REFUSE_RATING: facts.refusal_appeal_days,
        DecisionKind.OVERRIDE_CHECK: facts.rate_despite_conditions,
        DecisionKind.AUTHORISE_LONG_EVENT: facts.authorise_long_event,
        DecisionKind.EXCLUDE_GAME: facts.exclude_game,
        DecisionKind.EXEMPT_WITHDRAWAL: facts.exempt_withdrawal,
    }
    out = {}
    for kind, rule in rules.items():
        if rule is None:
            continue
        days = rule.value if not isinstance(rule.value, bool) else None
        out[kind.value] = Offered(kind.value, str(kind.label), rule.article, days)
    return out


def decision_list(*, tournament: Tournament) -> QuerySet[TournamentDecision]:
    """The tournament's decisions, newest first, with who took them."""
    return TournamentDecision.objects.filter(tournament=tournament).select_related(
        "decided_by", "appealed_by", "resolved_by"
    )


def decision_in_force(*, tournament: Tournament, kind: str) -> QuerySet[TournamentDecision]:
    return decision_list(tournament=tournament).filter(kind=kind, state=DecisionState.IN_FORCE)


def long_event_authorised(*, tournament: Tournament) -> bool:
    """feda-1996 5.11: the officer authorised this event's length."""
    return decision_in_force(tournament=tournament, kind=DecisionKind.AUTHORISE_LONG_EVENT).exists()


def corrections_lapsing(*, today: dt.date) -> QuerySet[TournamentDecision]:
    """Returns for correction whose deadline passed with no corrected report (the nightly
    lapse, tournaments.services.decisions.corrections_lapse)."""
    return TournamentDecision.objects.filter(
        kind=DecisionKind.RETURN_FOR_CORRECTION, state=DecisionState.IN_FORCE, deadline__lt=today
    ).select_related("tournament")


def decisions_waiting() -> QuerySet[TournamentDecision]:
    """The officer's desk: decisions waiting on someone — reports returned for correction
    (until they come back or lapse) and appeals to decide (fide-2024 0.4)."""
    return (
        TournamentDecision.objects.filter(
            kind__in=[DecisionKind.RETURN_FOR_CORRECTION, DecisionKind.REFUSE_RATING],
            state__in=[DecisionState.IN_FORCE, DecisionState.APPEALED],
        )
        .exclude(kind=DecisionKind.REFUSE_RATING, state=DecisionState.IN_FORCE)
        .select_related("tournament", "decided_by")
        .order_by("deadline", "decided_at", "id")
    )


@dataclass(frozen=True)
class DecisionPage:
    """The decisions part of a tournament's management page: its decisions, those its
    regulation offers, and what the forms pick from."""

    decisions: list[TournamentDecision]
    offered: list[Offered]
    blocking: list[tuple[str, str]]
    games: list[tuple[int, str]]
    players: list[tuple[int, str]]


def decision_page(
    *, tournament: Tournament, problems: list[dict[str, Any]], officer: bool
) -> DecisionPage:
    """``problems``: the current report's, as shown (translated); ``officer``: the forms too."""
    decisions = list(decision_list(tournament=tournament))
    if not officer:
        return DecisionPage(decisions, [], [], [], [])
    offered = list(decisions_offered(tournament=tournament).values())
    kinds = {o.kind for o in offered}
    blocking = []
    if DecisionKind.OVERRIDE_CHECK in kinds:
        seen: dict[str, str] = {}
        for p in problems:
            if p.get("severity") == "error" and p["code"] not in DECISION_CODES:
                seen.setdefault(p["code"], f"{p['code']}: {p['message'][:80]}")
        blocking = list(seen.items())
    games: list[tuple[int, str]] = []
    if DecisionKind.EXCLUDE_GAME in kinds:
        for g in (
            Game.objects.filter(tournament=tournament, kind=GameKind.PLAYED, black__isnull=False)
            .select_related("white", "black")
            .order_by("round", "id")[:2000]
        ):
            rnd = g.round if g.round is not None else "?"
            games.append((g.pk, f"R{rnd}: {g.white} – {g.black} {g.result}"))
    players: list[tuple[int, str]] = []
    if DecisionKind.EXEMPT_WITHDRAWAL in kinds:
        players = [
            (rank, f"{rank}. {name}")
            for rank, name in tournament.players.order_by("start_rank").values_list(
                "start_rank", "name"
            )
        ]
    return DecisionPage(decisions, offered, blocking, games, players)
