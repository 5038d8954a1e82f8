"""The office's months replayed through its services, on their own dates (demo.clock): the
arbiter registers each tournament and uploads its TRF report, confirms the players the
matching could not be sure of (a newcomer becomes a registry player), the officer closes the
period on its closing date, calculates it (in this process) and publishes its list, which
opens the next period. Nothing here writes a tournament, game, draft or list row itself."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from demo.clock import replay_on
from demo.pairings import Entrant, play
from demo.reports import report_trf
from periods import services as period_services
from periods.models import RatingPeriod
from players.models import Player
from ratings.calculation import runs
from ratings.publication import services as publication
from tournaments import services as tournament_services
from tournaments.models import Tournament, TournamentStatus


class DemoFlowError(RuntimeError):
    """A step the demo expects to succeed was refused: the message says which and why."""


@dataclass(frozen=True)
class TournamentSpec:
    name: str
    city: str
    region: str
    pairing: str  # PairingSystem value
    rounds: int
    size: int  # 0: registered only, no report yet
    offset: int  # first day, days after the period's start
    days: int
    category: str
    newcomers: int = 0  # players not in the registry yet
    confirm: bool = True  # the arbiter confirms the matching (False: it waits)
    base_minutes: int = 90
    increment_seconds: int = 30


CHIEF_ARBITERS = ("Josep Mª Serra Puig", "Ana Belén Fernández Ruiz", "Íñigo Etxeberria Goñi")


def tournament_dates(period: RatingPeriod, spec: TournamentSpec, today: date) -> tuple[date, date]:
    """Within the period, ending by its closing date (fide-2024 7.1.3); a registered-only
    tournament may still be ahead of today."""
    end = min(period.closing_date, period.start + timedelta(days=spec.offset + spec.days - 1))
    start = min(period.start + timedelta(days=spec.offset), end)
    return start, end


def tournament_play(
    *,
    period: RatingPeriod,
    spec: TournamentSpec,
    arbiter: Any,
    pool: list[Player],
    ratings: dict[int, int],
    rng: random.Random,
    today: date,
    newcomer_ids: list[int],
) -> Tournament:
    """Register a tournament 20 days before it starts; unless it is registered only, play it
    and upload its report the day after it ends (by the closing date and by `today`)."""
    start, end = tournament_dates(period, spec, today)
    system = period.system
    with replay_on(min(today, start - timedelta(days=20))):
        tournament = tournament_services.tournament_register(
            arbiter=arbiter,
            data={
                "name": spec.name,
                "city": spec.city,
                "federation": "ESP",
                "start_date": start,
                "end_date": end,
                "system": spec.pairing,
                "category": spec.category,
                "rounds": spec.rounds,
                "base_minutes": spec.base_minutes,
                "increment_seconds": spec.increment_seconds,
                "moves_per_control": 40 if spec.base_minutes >= 60 else None,
                "extra_minutes": 30 if spec.base_minutes >= 60 else 0,
                "chief_arbiter": rng.choice(CHIEF_ARBITERS),
                "rating_system": system,
            },
        )
    if not spec.size or today < end:
        # Registered only, or still running today: no report before its last day (the
        # office refuses one, tournaments.checks.report.received_checks).
        return tournament
    chosen = rng.sample(pool, min(spec.size - spec.newcomers, len(pool)))
    chosen.sort(key=lambda p: (-(ratings.get(p.pk) or 0), p.surname))
    entrants = [
        Entrant(rank=rank, player=p, rating=ratings.get(p.pk) or 0)
        for rank, p in enumerate(chosen, start=1)
    ]
    for i in range(spec.newcomers):
        # A player the registry does not know yet: a name and a birth year only.
        newcomer = Player(
            surname=rng.choice(("Ferreira Costa", "Sanz Iglesias", "Roig Mas", "Lobo Prieto")),
            given_name=rng.choice(("Iria", "Bruno", "Pol", "Lucía")) + f" {chr(65 + i)}.",
            sex="M",
            birth_year=2010 + i,
            federation="ESP",
        )
        entrants.append(Entrant(rank=len(entrants) + 1, player=newcomer, rating=0))
    if spec.pairing == "round_robin" and len(entrants) % 2:
        raise DemoFlowError(f"{spec.name}: a round robin of the demo needs an even field")
    games = play(rng, entrants, pairing=spec.pairing, rounds=spec.rounds)
    data = report_trf(
        name=spec.name,
        city=spec.city,
        start=start,
        end=end,
        chief_arbiter=tournament.chief_arbiter,
        time_control=f"{spec.base_minutes}'+{spec.increment_seconds}\"",
        tournament_type="Round robin" if spec.pairing == "round_robin" else "Swiss",
        rounds=spec.rounds,
        entrants=entrants,
        games=games,
    )
    with replay_on(min(today, end + timedelta(days=1), period.closing_date), 18):
        report = tournament_services.report_upload(
            tournament=tournament, user=arbiter, data=data, filename=f"demo-{tournament.pk}.trf"
        )
        errors = [p for p in report.problems if p.get("severity") == "error"]
        if report.status != "accepted" or errors:
            raise DemoFlowError(f"{spec.name}: report refused: {report.problems}")
        if spec.confirm:
            by_rank = {e.rank: e.player for e in entrants}
            picks: dict[int, str] = {}
            for line in tournament.players.filter(player__isnull=True):
                known = by_rank[line.start_rank]
                picks[line.start_rank] = str(known.pk) if known.pk else "new"
            fed_ids = {
                rank: f"{newcomer_ids.pop()}" for rank, pick in picks.items() if pick == "new"
            }
            if picks:
                tournament_services.players_confirm(
                    tournament=tournament, user=arbiter, picks=picks, new_fed_ids=fed_ids
                )
        tournament.refresh_from_db()
    if spec.confirm and tournament.status != TournamentStatus.VALIDATED:
        raise DemoFlowError(f"{spec.name}: not validated: {report.problems}")
    return tournament


def period_complete(*, period: RatingPeriod, officer: Any) -> RatingPeriod:
    """Close on the closing date, calculate in this process, publish on the list date; the
    publication opens the next period, which is returned."""
    with replay_on(period.closing_date, 20):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period, user=officer, enqueue=False)
        run = runs.calculation_run(run_id=run.pk) or run
    if run.status != "succeeded":
        raise DemoFlowError(f"{period}: calculation {run.status}: {run.error}")
    with replay_on(period.list_date, 9):
        publication.list_publish(period=period, user=officer, note="")
    return RatingPeriod.objects.get(system=period.system, start=period.end + timedelta(days=1))
