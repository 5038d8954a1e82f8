"""The demo's player registry: plausible Spanish, Catalan and Portuguese players (accents
included), their strength, and the ratings in force before the months the demo replays (as an
imported list would leave them)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from demo.names import (
    CATALAN_SURNAMES,
    GIVEN_NAMES,
    PORTUGUESE_DISTRICTS,
    PORTUGUESE_SURNAMES,
    SPANISH_REGIONS,
    SPANISH_SURNAMES,
)
from periods.models import RatingSystem
from players.models import Player, Sex, Title
from players.names import full_name_key
from rating_engine import ENGINE_VERSION
from ratings.models import Activity, PlayerRating, RatingKind


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


def registry_create(
    *, players: int, rng: random.Random, today: date
) -> tuple[list[Player], list[dict[str, Any]]]:
    """`players` registry players (COPY-free bulk insert, a few thousand rows) and, per player,
    which rating systems he plays in and his strength."""
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
    return people, meta


#: The lowest rating a demo player starts with: above every demo system's floor
#: (fide-2024 7.2.1: 1400), so a starting rating is never "below the floor" on day one.
START_MIN = 1450


def ratings_seed(
    *,
    systems: dict[str, RatingSystem],
    people: list[Player],
    meta: list[dict[str, Any]],
    rng: random.Random,
    today: date,
) -> dict[str, dict[int, int]]:
    """The ratings in force before the replayed months, one PlayerRating per player and system
    he plays in (5 % never rated: no row, the engine gives them a first rating once they have
    enough games). Returns, per system code, player id -> starting rating."""
    rows: list[PlayerRating] = []
    start: dict[str, dict[int, int]] = {code: {} for code in systems}
    for p, m in zip(people, meta):
        for code, key in (("std", "std"), ("fce-rapid", "fce"), ("cnxc", "cnxc")):
            if not m[key] or code not in systems or rng.random() < 0.05:
                continue
            base = (
                (p.iccf_rating or p.fpx_rating or m["strength"])
                if code == "cnxc"
                else m["strength"]
            )
            if code == "fce-rapid":
                base += (50 if base < 2000 else 0) + rng.randint(-60, 60)
            rating = max(START_MIN, min(2800, base))
            games = rng.randint(30, 900)
            rows.append(
                PlayerRating(
                    player=p,
                    system=systems[code],
                    rating=rating,
                    games=games,
                    kind=RatingKind.EFFECTIVE,
                    activity=Activity.ACTIVE,
                    reached_2400=rating >= 2400,
                    reached_2200=rating >= 2200,
                    last_game_date=today - timedelta(days=rng.randint(100, 300)),
                    ruleset=systems[code].ruleset,
                    engine_version=ENGINE_VERSION,
                )
            )
            start[code][p.pk] = rating
    PlayerRating.objects.bulk_create(rows, batch_size=1000)
    return start
