"""Demo data: a plausible small federation to click through (``manage.py demo_federation``).

Spanish, Catalan and Portuguese players (demo.people), three rating systems (fide-2024
standard monthly, fce rapid monthly, cnxc-2000 correspondence semestral) and demo users.
The last months are replayed through the office's own services on their own dates
(demo.replay): tournaments registered, their TRF reports uploaded and matched, each period
closed, calculated by the engine and published, so every list, K and change is the engine's.
The open period then has tournaments at each step: validated, report received (a newcomer
waits for the matching), registered and still to be played.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from core.roles import ARBITER, PLAYER, RATING_OFFICER, roles_ensure
from demo.clock import replay_on
from demo.people import person_name, ratings_seed, registry_create
from demo.replay import TournamentSpec, period_complete, tournament_play
from periods import services as period_services
from periods.models import (
    ListCycle,
    RateOfPlay,
    RatingPeriod,
    RatingSystem,
    default_protest_days,
)
from players.models import Player
from rating_engine.registry import available_rulesets
from tournaments.models import PairingSystem

# --------------------------------------------------------------------------- constants

DEMO_SYSTEM_CODES = ("std", "fce-rapid", "cnxc")
DEMO_USERS = (  # username, password, group (None: superuser)
    ("arbiter", "arbiter", ARBITER),
    ("officer", "officer", RATING_OFFICER),
    ("player", "player", PLAYER),
    ("admin", "admin", None),
)


# --------------------------------------------------------------------------- people


def month_start(d: date, delta: int = 0) -> date:
    index = d.year * 12 + (d.month - 1) + delta
    return date(index // 12, index % 12 + 1, 1)


#: The tournaments of each replayed standard month, and of the open one (with their state).
MONTH_STANDARD = (
    TournamentSpec("Open Internacional Ciutat de Barcelona", "Barcelona", "Catalunya",
                   PairingSystem.SWISS, 7, 33, 0, 7, "international open", newcomers=2),
    TournamentSpec("Torneo Cerrado Ciudad de Linares", "Linares", "Andalucía",
                   PairingSystem.ROUND_ROBIN, 5, 6, 10, 5, "closed"),
)  # fmt: skip
MONTH_RAPID = (
    TournamentSpec("Ràpid de Sant Martí", "Barcelona", "Catalunya", PairingSystem.SWISS, 7, 24,
                   5, 1, "rapid open", base_minutes=15, increment_seconds=10),
)  # fmt: skip
OPEN_STANDARD = (
    *MONTH_STANDARD,
    TournamentSpec("Torneig Tancat Sant Martí", "Barcelona", "Catalunya",
                   PairingSystem.ROUND_ROBIN, 9, 10, 6, 9, "closed", newcomers=1, confirm=False),
    TournamentSpec("Campeonato Absoluto de Madrid", "Madrid", "Madrid", PairingSystem.SWISS, 7,
                   30, 10, 7, "regional open", newcomers=1, confirm=False),
    TournamentSpec("Open de Galicia", "Vigo", "Galicia", PairingSystem.SWISS, 7, 0, 20, 5,
                   "regional open"),
)  # fmt: skip
REPLAYED_MONTHS = 3  # standard and rapid; correspondence: the last two semesters
#: The day of the month from which the open standard month's played tournaments have all
#: ended and sent their reports (the last, Madrid's, ends on the 17th: days 10 to 16 after
#: the start). Before it the demo leaves the previous month open, past its closing date: the
#: first days of a month, when the officer has not closed the last one yet. So the open period
#: shows a tournament at each step whatever the day the demo is made.
OPEN_MONTH_READY_DAY = 18


def demo_open_month(today: date) -> date:
    """The first day of the standard system's open month in a demo made on ``today``."""
    return month_start(today, 0 if today.day >= OPEN_MONTH_READY_DAY else -1)


@dataclass
class DemoSummary:
    created: bool
    message: str
    counts: dict[str, int] = field(default_factory=dict)


def demo_federation_create(
    *,
    players: int = 2000,
    seed: int = 1,
    today: date | None = None,
    log: Callable[[str], None] | None = None,
) -> DemoSummary:
    """Create the demo federation unless its rating systems already exist."""
    say = log or (lambda _msg: None)
    existing = list(
        RatingSystem.objects.filter(code__in=DEMO_SYSTEM_CODES).values_list("code", flat=True)
    )
    if existing:
        return DemoSummary(
            created=False,
            message=(
                f"Demo data already present (rating systems {', '.join(sorted(existing))} exist); "
                "nothing created. Use a fresh database to start over."
            ),
        )
    if players < 100:
        raise ValueError("at least 100 players are needed for the demo federation")
    # The replayed calculations and publications log their step timings: not news in a demo.
    timings = logging.getLogger("ratings")
    level = timings.level
    timings.setLevel(logging.WARNING)
    try:
        with transaction.atomic():
            counts = _create(
                players=players,
                rng=random.Random(seed),
                today=today or timezone.localdate(),
                say=say,
            )
    finally:
        timings.setLevel(level)
    return DemoSummary(created=True, message="Demo federation created.", counts=counts)


def _systems(today: date, say: Callable[[str], None]) -> dict[str, RatingSystem]:
    # ---- rating systems, validated by their regulation where the engine has it.
    year = str(today.year)
    systems_spec = [
        RatingSystem(
            code="std",
            name="Elo FIDE estándar (lista nacional)",
            ruleset="fide-2024",
            rate_of_play=RateOfPlay.STANDARD,
            cycle=ListCycle.MONTHLY,
            parameters={},
        ),
        # fce 9.5: the FIDE→FCE differential, by bands of the FIDE rating being converted.
        RatingSystem(
            code="fce-rapid",
            name="Elo català ràpid (FCE)",
            ruleset="fce",
            rate_of_play=RateOfPlay.RAPID,
            cycle=ListCycle.MONTHLY,
            parameters={
                "list": "rapid",
                "differential": {year: [{"from": 0, "value": 50}, {"from": 2000, "value": 0}]},
            },
        ),
        RatingSystem(
            code="cnxc",
            name="Rating de xadrez por correspondência (CNXC)",
            ruleset="cnxc-2000",
            rate_of_play=RateOfPlay.CORRESPONDENCE,
            cycle=ListCycle.SEMESTRAL,
            parameters={},
        ),
    ]
    known = set(available_rulesets())
    systems: dict[str, RatingSystem] = {}
    for system in systems_spec:
        if system.ruleset in known:
            # fce 9.3: 25 days; cnxc-2000 4.3: 30; the others, the office's 30 days.
            system.protest_days = default_protest_days(system.ruleset)
            system.full_clean()
        else:
            # The regulation is not in the engine yet: check the fields, parameters later.
            system.clean_fields()
            system.validate_unique()
            say(
                f"  note: regulation {system.ruleset} not in the engine yet; parameters not "
                "validated"
            )
        system.save()
        systems[system.code] = system
    return systems


def _users(people: list[Player]) -> dict[str, Any]:
    roles_ensure()
    user_model = get_user_model()
    users: dict[str, Any] = {}
    for username, password, group in DEMO_USERS:
        user = user_model.objects.filter(username=username).first()
        if user is None:
            if group is None:
                user = user_model.objects.create_superuser(
                    username, f"{username}@example.org", password
                )
            else:
                user = user_model.objects.create_user(username, f"{username}@example.org", password)
        if group is not None:
            user.groups.add(Group.objects.get(name=group))
        users[username] = user
    linked = people[1]  # Núria Puig i Vilaró
    linked.user = users["player"]
    linked.save(update_fields=["user"])
    return users


def _create(
    *, players: int, rng: random.Random, today: date, say: Callable[[str], None]
) -> dict[str, int]:
    systems = _systems(today, say)
    people, meta = registry_create(players=players, rng=rng, today=today)
    first = {
        "std": month_start(today, -REPLAYED_MONTHS),
        "fce-rapid": month_start(today, -REPLAYED_MONTHS),
        "cnxc": month_start(date(today.year, 1 if today.month <= 6 else 7, 1), -12),
    }
    start_ratings = ratings_seed(
        systems=systems, people=people, meta=meta, rng=rng, today=min(first.values())
    )
    users = _users(people)
    by_region: dict[str, list[Player]] = {}
    for p in people:
        if p.pk in start_ratings["std"] and p.federation != "POR":
            by_region.setdefault(p.region, []).append(p)
    rapid_pool = [p for p in people if p.pk in start_ratings["fce-rapid"]]
    newcomer_ids = list(range(3_900_000 + players, 3_900_000, -1))
    n_tournaments = 0
    for code, system in systems.items():
        with replay_on(first[code] - timedelta(days=30)):
            period = period_services.period_open_next(system=system, today=first[code])
        replayed_until = demo_open_month(today) if code == "std" else today
        while period.end < replayed_until:
            say(f"  {system.code}: {period.start:%Y-%m} replayed")
            specs = {"std": MONTH_STANDARD, "fce-rapid": MONTH_RAPID}.get(code, ())
            for spec in specs:
                pool = by_region.get(spec.region) if code == "std" else rapid_pool
                tournament_play(
                    period=period,
                    spec=spec,
                    arbiter=users["arbiter"],
                    pool=pool or [p for ps in by_region.values() for p in ps],
                    ratings=start_ratings[code],
                    rng=rng,
                    today=today,
                    newcomer_ids=newcomer_ids,
                )
                n_tournaments += 1
            period = period_complete(period=period, officer=users["officer"])
        if code == "std":
            for spec in OPEN_STANDARD:
                tournament_play(
                    period=period,
                    spec=spec,
                    arbiter=users["arbiter"],
                    pool=by_region.get(spec.region) or [p for ps in by_region.values() for p in ps],
                    ratings=start_ratings[code],
                    rng=rng,
                    today=today,
                    newcomer_ids=newcomer_ids,
                )
                n_tournaments += 1
    return {
        "rating systems": len(systems),
        "players": Player.objects.count(),
        "users": len(users),
        "periods": RatingPeriod.objects.filter(system__in=systems.values()).count(),
        "tournaments": n_tournaments,
    }


__all__ = ["DemoSummary", "demo_federation_create", "month_start", "person_name"]
