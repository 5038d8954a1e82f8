"""A large synthetic federation for benchmarks (``manage.py generate_federation``).

One fide-2024 rating system, ``players`` players each with a PlayerRating row, and in the
system's period(s) 9-round Swiss tournaments of 60 players holding exactly ``games`` played
games plus a few forfeits (about 1 % of the boards, and a handful to square the last event).

The rows go in with COPY (pre-formatted text written in big chunks, core.pg.copy), with ids
reserved from each table's sequence under a table lock.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from demo.federation import month_start
from demo.names import PORTUGUESE_DISTRICTS, SPANISH_REGIONS
from demo.people import person_name
from demo.synthetic_rows import CopyWriter, circle_rounds, elo_result
from periods.cycles import period_dates
from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from players.models import PUBLIC_FIELDS, Player
from players.names import full_name_key
from rating_engine import ENGINE_VERSION
from rating_engine.common import add_months, one_year_before
from ratings.models import PlayerRating
from tournaments.models import DESCRIPTION_FIELDS, Game, Tournament, TournamentPlayer
from tournaments.services.validation import GAME_COLUMNS, PLAYER_COLUMNS

ROUNDS = 9
TABLE_SIZE = 60  # players per tournament
BOARDS = TABLE_SIZE // 2
ARBITER_USERNAME = "synthetic-arbiter"


@dataclass
class GenerateResult:
    counts: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    method: str = ""

    @property
    def seconds(self) -> float:
        return sum(self.timings.values())


def federation_generate(
    *,
    players: int,
    games: int,
    seed: int = 1,
    periods: int = 1,
    system_code: str = "synth",
    forfeit_rate: float = 0.01,
    today: date | None = None,
    log: Callable[[str], None] | None = None,
) -> GenerateResult:
    """Create the synthetic federation; see the module docstring. Returns counts and timings."""
    say = log or (lambda _msg: None)
    if players < TABLE_SIZE:
        raise ValueError(f"at least {TABLE_SIZE} players are needed")
    if games < 0 or periods < 1:
        raise ValueError("games must be >= 0 and periods >= 1")
    if RatingSystem.objects.filter(code=system_code).exists():
        raise ValueError(
            f"a rating system with code {system_code!r} already exists; pick another --system-code"
        )
    rng = random.Random(seed)
    today = today or timezone.localdate()
    now = timezone.now()
    result = GenerateResult(method="COPY")
    prefix = (re.sub(r"[^0-9A-Za-z]", "", system_code).upper() or "SYNTH")[:8]

    def timed(label: str, started: float) -> None:
        result.timings[label] = time.perf_counter() - started
        rows = result.counts.get(label)
        say(
            f"  {label}: "
            + (f"{rows} rows in " if rows is not None else "")
            + f"{result.timings[label]:.1f} s"
        )

    with transaction.atomic():
        started = time.perf_counter()
        user_model = get_user_model()
        arbiter = user_model.objects.filter(username=ARBITER_USERNAME).first()
        if arbiter is None:
            arbiter = user_model(username=ARBITER_USERNAME)
            arbiter.set_unusable_password()
            arbiter.save()
        system = RatingSystem(
            code=system_code,
            name=f"Synthetic federation ({system_code})",
            ruleset="fide-2024",
            rate_of_play="standard",
            cycle="monthly",
        )
        system.full_clean()
        system.save()
        period_rows = []
        for k in range(periods):
            start = month_start(today, k - periods + 1)
            end = month_start(start, 1) - timedelta(days=1)
            is_open = k == periods - 1
            period_rows.append(
                RatingPeriod(
                    system=system,
                    start=start,
                    end=end,
                    closing_date=period_dates(
                        ruleset=system.ruleset, cycle=system.cycle, day=start
                    ).closing_date,
                    list_date=end + timedelta(days=1),
                    status=PeriodStatus.OPEN if is_open else PeriodStatus.CLOSED,
                    closed_at=None if is_open else now,
                )
            )
        RatingPeriod.objects.bulk_create(period_rows)
        period_list = list(RatingPeriod.objects.filter(system=system).order_by("start"))
        result.counts["periods"] = len(period_list)

        # ---- players and their ratings
        started = time.perf_counter()
        w_player = CopyWriter(
            Player,
            [
                "id",
                *PUBLIC_FIELDS,
                "birth_date",
                "iccf_rating",
                "fpx_rating",
                "iccf_id",
                "affiliated",
                # docs/privacy.md: hidden unless the player chooses to show it.
                "birth_year_public",
                "user_id",
                # desk.merges: no record of the synthetic federation is a merged duplicate.
                "merged_into_id",
                # fide-2024 10.2: no one of the synthetic federation is recorded as deceased.
                "deceased_on",
                "name_key",
                "created_at",
                "updated_at",
            ],
        )
        first_player = w_player.reserve_ids(players)
        ratings: list[int | None] = []
        labels: list[tuple[str, str, str, str, int]] = []  # name, sex, fed_id, title, birth year
        key_cache: dict[tuple[str, str], str] = {}
        regions = [(r[0], r[2], r[3]) for r in SPANISH_REGIONS]
        weights = [r[1] for r in SPANISH_REGIONS]
        region_choices = rng.choices(regions, weights=weights, k=players)

        def player_rows() -> Iterator[tuple[Any, ...]]:
            for i in range(players):
                pid = first_player + i
                portuguese = rng.random() < 0.05
                sex = "F" if rng.random() < 0.15 else "M"
                if portuguese:
                    region, clubs = PORTUGUESE_DISTRICTS[i % len(PORTUGUESE_DISTRICTS)]
                    lang, federation = "pt", "POR"
                else:
                    region, lang_mix, clubs = region_choices[i]
                    lang = "ca" if lang_mix == "ca" and rng.random() < 0.7 else "es"
                    federation = "ESP"
                surname, given = person_name(rng, lang, sex)
                key = key_cache.get((surname, given))
                if key is None:
                    key = key_cache[(surname, given)] = full_name_key(surname, given)
                year = today.year - rng.randint(8, 85)
                born = date(year, rng.randint(1, 12), rng.randint(1, 28))
                rating = min(2750, max(1000, round(rng.gauss(1700, 250))))
                rated = rng.random() >= 0.08
                title = (
                    "GM"
                    if rating >= 2500
                    else "IM"
                    if rating >= 2400
                    else "FM"
                    if rating >= 2300
                    else ""
                )
                fed_id = f"{prefix}-{i + 1:07d}"
                ratings.append(rating if rated else None)
                labels.append((f"{surname}, {given}", sex, fed_id, title, year))
                has_fide = rated and rng.random() < 0.6
                yield (
                    pid,
                    fed_id,
                    surname,
                    given,
                    sex,
                    year,
                    clubs[i % len(clubs)],
                    region,
                    federation,
                    title,
                    800_000_000 + pid if has_fide else None,
                    rating if has_fide else None,
                    None,
                    None,
                    born,
                    None,
                    None,
                    None,  # iccf_id
                    True,
                    False,
                    None,
                    None,
                    None,  # deceased_on
                    key,
                    now,
                    now,
                )

        result.counts["players"] = w_player.write(player_rows())
        timed("players", started)

        started = time.perf_counter()
        w_rating = CopyWriter(
            PlayerRating,
            [
                "id",
                "player_id",
                "system_id",
                "rating",
                "games",
                "kind",
                "activity",
                "out_of_list",
                "reached_2400",
                "reached_2200",
                "last_game_date",
                "flagged_lists",
                "prior_results",
                "ruleset",
                "engine_version",
                "updated_at",
                "rated_since",
                "regulation_version",
            ],
        )
        first_rating = w_rating.reserve_ids(players)

        # The states are those the list before the first period left: last games up to about
        # 2.5 years before it, and a player whose last game is more than a year old already
        # flagged inactive (fide-2024 7.2.2 a, with the engine's cut-off for the period that
        # ended the day before). So the first period is an ordinary month, not a one-off sweep
        # of every stale flag.
        first_start = period_list[0].start
        stale_cutoff = one_year_before(first_start - timedelta(days=1))

        def rating_rows() -> Iterator[tuple[Any, ...]]:
            for i, rating in enumerate(ratings):
                total = rng.randint(10, 1200) if rating is not None else rng.randint(0, 4)
                last = first_start - timedelta(days=rng.randint(1, 900)) if total else None
                inactive = rating is not None and last is not None and last <= stale_cutoff
                # fide-2024 8.2.4's date: a rated player with few games got his first rating in
                # one of the last two years' lists; the others before the records (NULL).
                since = (
                    add_months(first_start, -rng.randint(1, 24))
                    if rating is not None and total < 40
                    else None
                )
                yield (
                    first_rating + i,
                    first_player + i,
                    system.pk,
                    rating,
                    total,
                    "effective" if rating is not None else "unrated",
                    "inactive" if inactive else "active",
                    False,
                    bool(rating and rating >= 2400),
                    bool(rating and rating >= 2200),
                    last,
                    1 if inactive else 0,
                    [],
                    system.ruleset,
                    ENGINE_VERSION if rating is not None else "",
                    now,
                    since,
                    # The states before the records: made by no calculation of this office (as
                    # an imported list's), so they name no regulation version.
                    "",
                )

        result.counts["player ratings"] = w_rating.write(rating_rows())
        timed("player ratings", started)

        # ---- tournaments, their players and games, period by period
        started = time.perf_counter()
        per_period = [games // periods + (1 if k < games % periods else 0) for k in range(periods)]
        shapes: list[tuple[Any, int, int]] = []  # period, rounds, boards
        # Decide the random forfeits now so the event shapes are known before ids are reserved.
        forfeit_flags: list[list[bool]] = []
        for period, target in zip(period_list, per_period):
            remaining = target
            while remaining > 0:
                if remaining >= ROUNDS * BOARDS:
                    flags = [rng.random() < forfeit_rate for _ in range(ROUNDS * BOARDS)]
                    shapes.append((period, ROUNDS, BOARDS))
                    forfeit_flags.append(flags)
                    remaining -= flags.count(False)
                else:
                    rounds = min(ROUNDS, max(1, math.ceil(remaining / BOARDS)))
                    boards = math.ceil(remaining / rounds)
                    slots = rounds * boards
                    # The event that squares the count: no random forfeits; the slots beyond
                    # the count asked for are forfeits (fewer than `rounds` of them).
                    flags = [k >= remaining for k in range(slots)]
                    shapes.append((period, rounds, boards))
                    forfeit_flags.append(flags)
                    remaining = 0
        n_events = len(shapes)
        w_tournament = CopyWriter(
            Tournament,
            [
                "id",
                *DESCRIPTION_FIELDS,
                "arbiter_id",
                "rating_system_id",
                "period_id",
                "status",
                "registered_at",
                "late_registration",
                "approved_by_id",
                "approved_at",
                "report_received_at",
                "validated_at",
                "rated_at",
                "published_at",
                "norm_winner_rank",
                "moved_from_period_id",
                # The registry's records (tournaments.officials), the event's level, the export
                # to FIDE: none in the synthetic federation.
                "chief_arbiter_record_id",
                "organiser_id",
                "level",
                "fide_sent_on",
                "fide_sent_by_id",
            ],
        )
        w_tp = CopyWriter(
            TournamentPlayer,
            ["id", *PLAYER_COLUMNS],
        )
        w_game = CopyWriter(
            Game,
            # period_id: null, its tournament's (rated whole: no TournamentPart).
            [
                "id",
                *GAME_COLUMNS,
                "left_out_code",
                "left_out_article",
                "colours_known",
                "period_id",
            ],
        )
        total_tp = sum(2 * boards for _p, _r, boards in shapes)
        total_games = sum(len(f) for f in forfeit_flags)
        first_t = w_tournament.reserve_ids(n_events)
        first_tp = w_tp.reserve_ids(total_tp)
        first_g = w_game.reserve_ids(total_games)

        cities = [c for r in SPANISH_REGIONS for c in r[3]]
        t_rows: list[tuple[Any, ...]] = []
        tp_rows: list[tuple[Any, ...]] = []
        game_rows: list[tuple[Any, ...]] = []
        tp_id, game_id = first_tp, first_g
        played = forfeits = 0
        for e, ((period, rounds, boards), flags) in enumerate(zip(shapes, forfeit_flags)):
            tid = first_t + e
            size = 2 * boards
            span = (period.end - period.start).days
            t_start = period.start + timedelta(days=rng.randint(0, max(0, span - rounds + 1)))
            t_end = min(period.end, t_start + timedelta(days=rounds - 1))
            t_rows.append(
                (
                    tid,
                    f"{system_code} open {e + 1:05d}",
                    cities[e % len(cities)],
                    "ESP",
                    t_start,
                    t_end,
                    "swiss",
                    "open",
                    rounds,
                    90,  # base_minutes
                    40,  # moves_per_control
                    30,  # extra_minutes
                    30,  # increment_seconds
                    False,
                    False,
                    "Synthetic Arbiter",
                    "",  # kind
                    False,  # thematic
                    False,  # organised_by_others
                    False,  # rated_by_its_rules
                    arbiter.pk,
                    system.pk,
                    period.pk,
                    "validated",
                    now,
                    False,
                    None,
                    None,
                    now,
                    now,
                    None,
                    None,
                    None,  # norm_winner_rank
                    None,  # moved_from_period_id
                    None,  # chief_arbiter_record_id
                    None,  # organiser_id
                    "",  # level
                    None,  # fide_sent_on
                    None,  # fide_sent_by_id
                )
            )
            chosen = rng.sample(range(players), size)
            chosen.sort(key=lambda idx: -(ratings[idx] or 0))
            ids = list(range(tp_id, tp_id + size))
            points = [Decimal(0)] * size
            slot = 0
            for rnd, pairs in enumerate(circle_rounds(size, rounds), start=1):
                for a, b in pairs:
                    forfeit = flags[slot]
                    slot += 1
                    if forfeit:
                        result_, ws, bs = (
                            ("+-", "1.0", "0.0") if rng.random() < 0.5 else ("-+", "0.0", "1.0")
                        )
                        kind = "forfeit"
                        forfeits += 1
                    else:
                        result_, ws, bs = elo_result(
                            rng, ratings[chosen[a]] or 1400, ratings[chosen[b]] or 1400
                        )
                        kind = "played"
                        played += 1
                    points[a] += Decimal(ws)
                    points[b] += Decimal(bs)
                    game_rows.append(
                        (
                            game_id,
                            tid,
                            rnd,
                            ids[a],
                            ids[b],
                            result_,
                            kind,
                            ws,
                            bs,
                            "",
                            "",
                            True,
                            None,
                        )
                    )
                    game_id += 1
            for rank, idx in enumerate(chosen, start=1):
                name, sex, fed_id, title, year = labels[idx]
                pid = first_player + idx
                tp_rows.append(
                    (
                        ids[rank - 1],
                        tid,
                        pid,
                        rank,
                        name,
                        sex,
                        title,
                        "",
                        fed_id,
                        "ESP",
                        year,
                        ratings[idx],
                        points[rank - 1],
                    )
                )
            tp_id += size
        result.counts["tournaments"] = w_tournament.write(t_rows)
        result.counts["tournament players"] = w_tp.write(tp_rows)
        result.counts["games"] = w_game.write(game_rows)
        result.counts["played games"] = played
        result.counts["forfeits"] = forfeits
        timed("tournaments and games", started)

        started = time.perf_counter()
        with connection.cursor() as cursor:
            for w in (w_player, w_rating, w_tournament, w_tp, w_game):
                cursor.execute(f"ANALYZE {connection.ops.quote_name(w.table)}")
        timed("analyze", started)
    return result


__all__ = ["GenerateResult", "federation_generate"]
