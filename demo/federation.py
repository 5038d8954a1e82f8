"""Demo data: a plausible small federation to click through (``manage.py demo_federation``).

Spanish, Catalan and Portuguese players (accents included), territorial federations and
Portuguese districts, three rating systems (fide-2024 standard monthly, fce rapid monthly,
cnxc-2000 correspondence semestral), a few published lists per system, one open period per
system, a handful of tournaments with games in the open standard period, and demo users.

Everything is written with ``bulk_create`` in one transaction; published lists are written
once and never touched again (they are immutable).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from core.roles import ARBITER, PLAYER, RATING_OFFICER, roles_ensure
from demo.names import (
    CATALAN_SURNAMES,
    GIVEN_NAMES,
    PORTUGUESE_DISTRICTS,
    PORTUGUESE_SURNAMES,
    SPANISH_REGIONS,
    SPANISH_SURNAMES,
)
from periods.cycles import period_dates
from periods.models import (
    ListCycle,
    PeriodStatus,
    RateOfPlay,
    RatingPeriod,
    RatingSystem,
    Ruleset,
    default_protest_days,
)
from periods.selectors import period_for_tournament
from players.models import Player, Sex, Title
from players.names import full_name_key
from ratings.engine import ENGINE_VERSION
from ratings.engine.registry import available_rulesets
from ratings.models import Activity, EntryStatus, ListEntry, PlayerRating, PublishedList, RatingKind
from tournaments.models import (
    Game,
    GameKind,
    PairingSystem,
    Tournament,
    TournamentPlayer,
    TournamentStatus,
)

# --------------------------------------------------------------------------- name pools

DEMO_SYSTEM_CODES = ("std", "fce-rapid", "cnxc")
DEMO_USERS = (  # username, password, group (None: superuser)
    ("arbiter", "arbiter", ARBITER),
    ("officer", "officer", RATING_OFFICER),
    ("player", "player", PLAYER),
    ("admin", "admin", None),
)


# --------------------------------------------------------------------------- people


def person_name(rng: random.Random, lang: str, sex: str) -> tuple[str, str]:
    """A plausible (surname, given name) in Spanish, Catalan or Portuguese style."""
    given = rng.choice(GIVEN_NAMES[lang][sex])
    if lang == "pt":
        first, second = rng.choice(PORTUGUESE_SURNAMES), rng.choice(PORTUGUESE_SURNAMES)
        roll = rng.random()
        if roll < 0.2:
            return f"{first} da {second}" if first != second else first, given
        return (f"{first} {second}" if first != second else first), given
    pool = CATALAN_SURNAMES if lang == "ca" else SPANISH_SURNAMES
    first = rng.choice(pool)
    # Second surname: in Catalonia often Spanish, and vice versa.
    second = rng.choice(pool if rng.random() < 0.6 else SPANISH_SURNAMES + CATALAN_SURNAMES)
    roll = rng.random()
    if roll < 0.06:
        return f"{first}-{second}", given  # compound, e.g. Pérez-Gómez
    if lang == "ca" and roll < 0.12:
        return f"{first} i {second}", given
    return f"{first} {second}", given


def birth_date(rng: random.Random, today: date) -> date:
    """Juniors (8-18) ~30 %, adults ~45 %, veterans (50-88) ~25 %."""
    roll = rng.random()
    age = (
        rng.randint(8, 18)
        if roll < 0.3
        else rng.randint(19, 49)
        if roll < 0.75
        else rng.randint(50, 88)
    )
    return today - timedelta(days=age * 365 + rng.randint(0, 364))


def rating_sample(rng: random.Random, mean: float = 1700, sd: float = 250) -> int:
    return int(min(2750, max(1000, round(rng.gauss(mean, sd)))))


def title_for(rating: int, sex: str, rng: random.Random) -> str:
    if rating >= 2500:
        return Title.GM
    if rating >= 2400:
        return Title.IM if sex == "M" or rng.random() < 0.5 else Title.WGM
    if rating >= 2300:
        return Title.FM if sex == "M" else rng.choice((Title.WIM, Title.FM))
    if rating >= 2200:
        return (
            rng.choice((Title.CM, Title.MN, ""))
            if sex == "M"
            else rng.choice((Title.WFM, Title.WIM))
        )
    if rating >= 2100 and sex == "F" and rng.random() < 0.5:
        return Title.WCM
    return ""


def month_start(d: date, delta: int = 0) -> date:
    index = d.year * 12 + (d.month - 1) + delta
    return date(index // 12, index % 12 + 1, 1)


# --------------------------------------------------------------------------- games


@dataclass
class _Entrant:
    rank: int
    player: Player | None
    rating: int
    score: Decimal = Decimal(0)
    opponents: set[int] = field(default_factory=set)
    had_bye: bool = False


def game_result(rng: random.Random, white: int, black: int) -> tuple[str, Decimal, Decimal]:
    """A played game's result drawn from the Elo expectation, with draws."""
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.32 * (1 - abs(expected - 0.5) * 1.4)
    roll = rng.random()
    if roll < draw:
        return "1/2-1/2", Decimal("0.5"), Decimal("0.5")
    if roll < draw + (1 - draw) * expected:
        return "1-0", Decimal(1), Decimal(0)
    return "0-1", Decimal(0), Decimal(1)


def round_robin_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Berger tables by the circle method: indexes 0..n-1 (n even), colours alternating."""
    idx = list(range(n))
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = idx[i], idx[n - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        idx = [idx[0], idx[-1], *idx[1:-1]]
    return rounds


def swiss_round(
    rng: random.Random, entrants: list[_Entrant]
) -> tuple[list[tuple[_Entrant, _Entrant]], _Entrant | None]:
    """A simple Swiss pairing: by score then rating, greedy, no rematches when avoidable."""
    ordered = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.rank))
    bye = None
    if len(ordered) % 2:
        for candidate in reversed(ordered):
            if not candidate.had_bye:
                bye = candidate
                break
        bye = bye or ordered[-1]
        ordered.remove(bye)
    pairs: list[tuple[_Entrant, _Entrant]] = []
    free = ordered[:]
    while free:
        top = free.pop(0)
        partner = next((e for e in free if e.rank not in top.opponents), free[0])
        free.remove(partner)
        pairs.append((top, partner) if rng.random() < 0.5 else (partner, top))
    return pairs, bye


# --------------------------------------------------------------------------- the command


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
    with transaction.atomic():
        counts = _create(
            players=players, rng=random.Random(seed), today=today or timezone.localdate(), say=say
        )
    return DemoSummary(created=True, message="Demo federation created.", counts=counts)


def _aware(d: date, hour: int = 12) -> datetime:
    return timezone.make_aware(datetime.combine(d, time(hour)))


def _create(
    *, players: int, rng: random.Random, today: date, say: Callable[[str], None]
) -> dict[str, int]:
    counts: dict[str, int] = {}

    # ---- rating systems, validated by their regulation where the engine has it.
    year = str(today.year)
    systems_spec = [
        RatingSystem(
            code="std",
            name="Elo FIDE estándar (lista nacional)",
            ruleset=Ruleset.FIDE_2024,
            rate_of_play=RateOfPlay.STANDARD,
            cycle=ListCycle.MONTHLY,
            parameters={},
        ),
        # fce 9.5: the FIDE→FCE differential, by bands of the FIDE rating being converted.
        RatingSystem(
            code="fce-rapid",
            name="Elo català ràpid (FCE)",
            ruleset=Ruleset.FCE,
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
            ruleset=Ruleset.CNXC_2000,
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
    counts["rating systems"] = len(systems)

    # ---- players
    spanish_weights = [r[1] for r in SPANISH_REGIONS]
    fide_es = iter(rng.sample(range(2200000, 2299999), players))
    fide_pt = iter(rng.sample(range(1900000, 1999999), players))
    people: list[Player] = []
    meta: list[dict[str, Any]] = []  # per player: which systems, strength
    for i in range(players):
        correspondence_pt = rng.random() < 0.12
        sex = Sex.FEMALE if rng.random() < 0.15 else Sex.MALE
        born = birth_date(rng, today)
        strength = rating_sample(rng)
        if 4 <= i < 12:  # a few strong, titled players
            strength, correspondence_pt = rng.randint(2380, 2680), False
        if correspondence_pt:
            region, clubs = rng.choice(PORTUGUESE_DISTRICTS)
            lang, federation = "pt", "POR"
        else:
            region, _w, lang_mix, clubs = rng.choices(SPANISH_REGIONS, weights=spanish_weights)[0]
            lang = "ca" if lang_mix == "ca" and rng.random() < 0.7 else "es"
            federation = "ESP" if rng.random() > 0.02 else rng.choice(("FRA", "AND", "ARG", "POR"))
        surname, given = person_name(rng, lang, sex)
        has_fide = strength >= 2300 or rng.random() < (0.5 if correspondence_pt else 0.7)
        title = title_for(strength, sex, rng) if has_fide else ""
        p = Player(
            fed_id=f"{3000001 + i}",
            surname=surname,
            given_name=given,
            sex=sex,
            birth_date=born,
            birth_year=born.year,
            club=rng.choice(clubs),
            region=region,
            federation=federation,
            title=title,
            fide_id=(next(fide_pt) if federation == "POR" else next(fide_es)) if has_fide else None,
            fide_standard=strength if has_fide else None,
            fide_rapid=max(1000, strength + rng.randint(-120, 80))
            if has_fide and rng.random() < 0.7
            else None,
            fide_blitz=max(1000, strength + rng.randint(-150, 80))
            if has_fide and rng.random() < 0.5
            else None,
            affiliated=federation in ("ESP", "POR") or rng.random() < 0.5,
            name_key=full_name_key(surname, given),
        )
        correspondence = correspondence_pt or rng.random() < 0.05
        if correspondence:
            p.iccf_rating = (
                max(1000, min(2650, strength + rng.randint(-100, 150)))
                if rng.random() < 0.8
                else None
            )
            p.fpx_rating = (
                max(1000, min(2600, strength + rng.randint(-80, 80))) if correspondence_pt else None
            )
        people.append(p)
        meta.append(
            {
                "strength": strength,
                "std": not correspondence_pt and rng.random() < 0.9,
                "fce": region in ("Catalunya", "Illes Balears")
                and not correspondence_pt
                and rng.random() < 0.85,
                "cnxc": correspondence,
            }
        )
    # A guaranteed Catalan, Spanish and Portuguese accented name at the top of the registry.
    anchors = [
        ("Núñez Martínez", "José Mª", "es"),
        ("Puig i Vilaró", "Núria", "ca"),
        ("Gonçalves da Conceição", "João", "pt"),
        ("Pérez-Gómez", "Àngel", "ca"),
    ]
    for (surname, given, _lang), p in zip(anchors, people):
        p.surname, p.given_name = surname, given
        p.sex = Sex.FEMALE if given == "Núria" else Sex.MALE
        p.name_key = full_name_key(surname, given)
    Player.objects.bulk_create(people, batch_size=1000)
    people = list(Player.objects.filter(fed_id__in=[p.fed_id for p in people]).order_by("fed_id"))
    counts["players"] = len(people)

    # ---- current ratings (PlayerRating) and their history for the published lists
    open_start = {
        "std": month_start(today),
        "fce-rapid": month_start(today),
        "cnxc": date(today.year, 1 if today.month <= 6 else 7, 1),
    }
    published_starts = {
        "std": [month_start(today, -k) for k in (3, 2, 1)],
        "fce-rapid": [month_start(today, -k) for k in (3, 2, 1)],
        "cnxc": [month_start(open_start["cnxc"], -k) for k in (12, 6)],
    }
    ratings: list[PlayerRating] = []
    history: dict[str, list[tuple[Player, list[int | None], PlayerRating]]] = {
        c: [] for c in systems
    }
    for p, m in zip(people, meta):
        for code, key in (("std", "std"), ("fce-rapid", "fce"), ("cnxc", "cnxc")):
            if not m[key]:
                continue
            system = systems[code]
            base = (
                (p.iccf_rating or p.fpx_rating or m["strength"])
                if code == "cnxc"
                else m["strength"]
            )
            if code == "fce-rapid":
                base = max(1000, base + (50 if base < 2000 else 0) + rng.randint(-60, 60))
            n_lists = len(published_starts[code])
            roll = rng.random()
            if roll < 0.05:  # never rated yet
                values: list[int | None] = [None] * n_lists
                kind, games = RatingKind.UNRATED, rng.randint(0, 4)
            elif roll < 0.12:  # got a first rating in the last list
                values = [None] * (n_lists - 1) + [base]
                kind, games = (
                    RatingKind.PROVISIONAL if code != "std" else RatingKind.EFFECTIVE,
                    rng.randint(5, 12),
                )
            else:
                values = [base]
                for _ in range(n_lists - 1):
                    values.insert(
                        0, max(1000, min(2800, cast(int, values[0]) - rng.randint(-25, 25)))
                    )
                kind, games = RatingKind.EFFECTIVE, rng.randint(10, 900)
            current = values[-1]
            pr = PlayerRating(
                player=p,
                system=system,
                rating=current,
                games=games,
                kind=kind,
                activity=Activity.ACTIVE if rng.random() < 0.8 else Activity.INACTIVE,
                reached_2400=bool(current and current >= 2400),
                reached_2200=bool(current and current >= 2200),
                last_game_date=today - timedelta(days=rng.randint(15, 700)) if games else None,
                ruleset=system.ruleset,
                engine_version=ENGINE_VERSION,
            )
            ratings.append(pr)
            history[code].append((p, values, pr))
    PlayerRating.objects.bulk_create(ratings, batch_size=1000)
    counts["player ratings"] = len(ratings)

    # ---- users
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
    counts["users"] = len(users)

    # ---- periods and published lists (immutable: written once)
    periods: dict[str, RatingPeriod] = {}
    lists = entries = 0
    for code, system in systems.items():
        months = 6 if system.cycle == ListCycle.SEMESTRAL else 1
        for index, start in enumerate(published_starts[code]):
            end = month_start(start, months) - timedelta(days=1)
            list_date = end + timedelta(days=1)
            published_at = _aware(list_date, 10)
            # The closing date of the system's cycle (fide-2024 7.1.3: 3 days before the list).
            closing = period_dates(
                ruleset=system.ruleset, cycle=system.cycle, day=start
            ).closing_date
            period = RatingPeriod.objects.create(
                system=system,
                start=start,
                end=end,
                closing_date=closing,
                list_date=list_date,
                status=PeriodStatus.PUBLISHED,
                closed_at=_aware(end + timedelta(days=4)),
                calculated_at=_aware(end + timedelta(days=5)),
                published_at=published_at,
            )
            rows = []
            for p, values, pr in history[code]:
                value = values[index]
                if value is None:
                    continue
                before = values[index - 1] if index else None
                new = before is None and (index > 0 or pr.games < 30)
                provisional = code != "std" and pr.kind == RatingKind.PROVISIONAL
                rows.append(
                    ListEntry(
                        player=p,
                        rating=value,
                        change=0 if before is None else value - before,
                        k=(10 if pr.reached_2400 else 20 if value >= 2000 else 40)
                        if code != "cnxc"
                        else None,
                        games=rng.randint(0, 9) if before is not None else rng.randint(5, 12),
                        total_games=pr.games,
                        inactive=pr.activity == Activity.INACTIVE,
                        provisional=provisional,
                        status=(
                            EntryStatus.NEW
                            if new
                            else EntryStatus.PROVISIONAL
                            if provisional
                            else EntryStatus.INACTIVE
                            if pr.activity == Activity.INACTIVE
                            else EntryStatus.RATED
                        ),
                        ruleset=system.ruleset,
                        engine_version=ENGINE_VERSION,
                    )
                )
            published = PublishedList.objects.create(
                system=system,
                period=period,
                version=1,
                list_date=list_date,
                published_at=published_at,
                published_by=users["officer"],
                ruleset=system.ruleset,
                engine_version=ENGINE_VERSION,
                note="Demo list.",
                entry_count=len(rows),
            )
            for row in rows:
                row.published_list = published
            ListEntry.objects.bulk_create(rows, batch_size=1000)
            lists += 1
            entries += len(rows)
        start = open_start[code]
        end = month_start(start, months) - timedelta(days=1)
        periods[code] = RatingPeriod.objects.create(
            system=system,
            start=start,
            end=end,
            closing_date=period_dates(
                ruleset=system.ruleset, cycle=system.cycle, day=start
            ).closing_date,
            list_date=end + timedelta(days=1),
            status=PeriodStatus.OPEN,
        )
    counts["published lists"] = lists
    counts["list entries"] = entries
    counts["periods"] = RatingPeriod.objects.filter(system__in=systems.values()).count()

    # ---- tournaments in the open standard period
    t_counts = _tournaments(
        rng=rng,
        system=systems["std"],
        period=periods["std"],
        users=users,
        people=people,
        meta=meta,
        history=history["std"],
        today=today,
    )
    counts.update(t_counts)
    return counts


def _tournaments(
    *,
    rng: random.Random,
    system: Any,
    period: Any,
    users: dict[str, Any],
    people: list[Player],
    meta: list[dict[str, Any]],
    history: list[tuple[Player, list[int | None], Any]],
    today: date,
) -> dict[str, int]:
    """The open period's tournaments, each put where the assignment rules put it
    (ratings.selectors.period_for_tournament, as a registration or a report does): every one
    ends by the period's closing date (fide-2024 7.1.3: 3 days before the list; a tournament
    ending later belongs to the next list), and the reports arrive by that date too."""
    rated = {p.pk: pr.rating for p, _values, pr in history}
    by_region: dict[str, list[Player]] = {}
    for p in people:
        if p.pk in rated and p.federation != "POR":
            by_region.setdefault(p.region, []).append(p)
    start = period.start
    specs = [
        # name, city, region, pairing, rounds, players, status, day offset, days, category
        (
            "Open Internacional Ciutat de Barcelona",
            "Barcelona",
            "Catalunya",
            PairingSystem.SWISS,
            9,
            41,
            TournamentStatus.VALIDATED,
            0,
            9,
            "international open",
        ),
        (
            "Torneig Tancat Sant Martí",
            "Barcelona",
            "Catalunya",
            PairingSystem.ROUND_ROBIN,
            9,
            10,
            TournamentStatus.REPORT_RECEIVED,
            6,
            9,
            "closed",
        ),
        (
            "Campeonato Absoluto de Madrid",
            "Madrid",
            "Madrid",
            PairingSystem.SWISS,
            7,
            30,
            TournamentStatus.REPORT_RECEIVED,
            10,
            7,
            "regional open",
        ),
        (
            "Torneo Cerrado Ciudad de Linares",
            "Linares",
            "Andalucía",
            PairingSystem.ROUND_ROBIN,
            5,
            6,
            TournamentStatus.VALIDATED,
            3,
            5,
            "closed",
        ),
        (
            "Open de Galicia",
            "Vigo",
            "Galicia",
            PairingSystem.SWISS,
            7,
            0,
            TournamentStatus.REGISTERED,
            20,
            5,
            "regional open",
        ),
    ]
    # Reports (and the registration of the last one) arrive today, or on the closing date when
    # the demo is created after it: later, they would go to the next period, not open yet.
    received_on = min(today, period.closing_date)
    received_at = timezone.now() if received_on == timezone.localdate() else _aware(received_on, 18)
    n_t = n_tp = n_g = 0
    for name, city, region, pairing, rounds, size, status, offset, days, category in specs:
        t_end = min(period.closing_date, start + timedelta(days=offset + days - 1))
        t_start = min(start + timedelta(days=offset), t_end)
        tournament = Tournament(
            name=name,
            city=city,
            start_date=t_start,
            end_date=t_end,
            system=pairing,
            category=category,
            rounds=rounds,
            base_minutes=90,
            increment_seconds=30,
            moves_per_control=40,
            extra_minutes=30,
            chief_arbiter=rng.choice(
                ("Josep Mª Serra Puig", "Ana Belén Fernández Ruiz", "Íñigo Etxeberria Goñi")
            ),
            arbiter=users["arbiter"],
            rating_system=system,
            status=status,
            report_received_at=received_at if status != TournamentStatus.REGISTERED else None,
            validated_at=received_at if status == TournamentStatus.VALIDATED else None,
        )
        # The dates above fit the open period; should the rules change, the tournament goes
        # where they say (None: no open period takes it yet), as in the real flow.
        tournament.period = period_for_tournament(
            tournament=tournament, received_on=received_on
        ).period
        tournament.save()
        n_t += 1
        if not size:
            continue  # registered only: the report (players, games) has not arrived yet
        pool = by_region.get(region) or [p for ps in by_region.values() for p in ps]
        chosen = rng.sample(pool, min(size, len(pool)))
        chosen.sort(key=lambda p: (-(rated[p.pk] or 0), p.surname))
        tps = [
            TournamentPlayer(
                tournament=tournament,
                player=p,
                start_rank=rank,
                name=f"{p.surname}, {p.given_name}",
                sex=p.sex,
                title=p.title,
                fide_id=str(p.fide_id or ""),
                fed_id=p.fed_id,
                federation=p.federation,
                birth_year=p.birth_year,
                rating_at_start=rated[p.pk],
            )
            for rank, p in enumerate(chosen, start=1)
        ]
        n_tp += len(tps)
        entrants = [
            _Entrant(rank=tp.start_rank, player=tp.player, rating=tp.rating_at_start or 1400)
            for tp in tps
        ]
        by_rank = {tp.start_rank: tp for tp in tps}
        games: list[Game] = []
        forfeits_left = 2 if pairing == PairingSystem.SWISS else 0
        for rnd in range(1, rounds + 1):
            if pairing == PairingSystem.ROUND_ROBIN:
                table = round_robin_rounds(len(entrants))
                pairs = [(entrants[a], entrants[b]) for a, b in table[rnd - 1]]
                bye = None
            else:
                playing = entrants
                if rnd == rounds and len(entrants) % 2:
                    # A requested half-point bye in the last round evens the numbers.
                    resting = entrants[len(entrants) // 2]
                    playing = [e for e in entrants if e is not resting]
                    games.append(
                        Game(
                            tournament=tournament,
                            round=rnd,
                            white=by_rank[resting.rank],
                            black=None,
                            result="bye",
                            kind=GameKind.BYE_HALF,
                            white_score=Decimal("0.5"),
                        )
                    )
                    resting.score += Decimal("0.5")
                pairs, bye = swiss_round(rng, playing)
            if bye is not None:
                bye.had_bye = True
                games.append(
                    Game(
                        tournament=tournament,
                        round=rnd,
                        white=by_rank[bye.rank],
                        black=None,
                        result="bye",
                        kind=GameKind.BYE_PAB,
                        white_score=Decimal(1),
                    )
                )
                bye.score += 1
            for white, black in pairs:
                white.opponents.add(black.rank)
                black.opponents.add(white.rank)
                if forfeits_left and rnd in (2, 5) and (white, black) == pairs[len(pairs) // 2]:
                    forfeits_left -= 1
                    result, ws, bs = (
                        ("+-", Decimal(1), Decimal(0))
                        if rng.random() < 0.5
                        else ("-+", Decimal(0), Decimal(1))
                    )
                    kind = GameKind.FORFEIT
                else:
                    result, ws, bs = game_result(rng, white.rating, black.rating)
                    kind = GameKind.PLAYED
                games.append(
                    Game(
                        tournament=tournament,
                        round=rnd,
                        white=by_rank[white.rank],
                        black=by_rank[black.rank],
                        result=result,
                        kind=kind,
                        white_score=ws,
                        black_score=bs,
                    )
                )
                white.score += ws
                black.score += bs
        for tp, e in zip(tps, entrants):
            tp.declared_points = e.score  # as the report declares them, consistent with the games
        TournamentPlayer.objects.bulk_create(tps)  # sets the pks the games refer to
        Game.objects.bulk_create(games)
        n_g += len(games)
    return {"tournaments": n_t, "tournament players": n_tp, "games": n_g}


__all__ = [
    "DemoSummary",
    "demo_federation_create",
    "game_result",
    "month_start",
    "person_name",
    "rating_sample",
    "round_robin_rounds",
]
