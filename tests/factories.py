"""Small builders for test data (plain functions, explicit arguments, sensible defaults)."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from core.roles import ARBITER, PLAYER, RATING_OFFICER, roles_ensure
from lists.models import ListImportJob
from periods import services as period_services
from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from players.models import Player
from protests.models import Protest
from ratings.calculation import runs
from ratings.models import ListEntry, PlayerRating, PublishedList
from ratings.publication import services as publication
from tournaments.models import Game, Tournament, TournamentPlayer

_seq = itertools.count(1)


def make_user(
    username: str | None = None,
    *,
    role: str | None = None,
    password: str = "pw-12345678",
    **extra: Any,
):
    User = get_user_model()
    user = User.objects.create_user(
        username=username or f"user{next(_seq)}", password=password, **extra
    )
    if role:
        roles_ensure()
        user.groups.add(Group.objects.get(name=role))
    return user


def make_player(**fields: Any) -> Player:
    n = next(_seq)
    defaults: dict[str, Any] = {
        "fed_id": f"P{n:06d}",
        "surname": f"Surname{n}",
        "given_name": f"Given{n}",
        "sex": "M",
    }
    defaults.update(fields)
    return Player.objects.create(**defaults)


def make_system(**fields: Any) -> RatingSystem:
    n = next(_seq)
    defaults: dict[str, Any] = {
        "code": f"sys{n}",
        "name": f"System {n}",
        "ruleset": "fide-2024",
        "rate_of_play": "standard",
        "cycle": "monthly",
    }
    defaults.update(fields)
    return RatingSystem.objects.create(**defaults)


def make_period(
    system: RatingSystem, start: dt.date = dt.date(2026, 11, 1), **fields: Any
) -> RatingPeriod:
    end = fields.pop(
        "end", (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
    )
    defaults: dict[str, Any] = {
        "closing_date": end - dt.timedelta(days=3),
        "list_date": end + dt.timedelta(days=1),
    }
    defaults.update(fields)
    return RatingPeriod.objects.create(system=system, start=start, end=end, **defaults)


def make_published_list(
    period: RatingPeriod,
    players: list[Player],
    *,
    version: int = 1,
    base: int = 2000,
    entries: list[dict[str, Any]] | None = None,
    published_at: dt.datetime | None = None,
) -> PublishedList:
    """A published version of `period`'s list: players[i] rated `base` + i, or with the
    fields of entries[i] (rating, games, k, inactive...) where they are given."""
    published = PublishedList.objects.create(
        system=period.system,
        period=period,
        version=version,
        list_date=period.list_date,
        published_at=published_at or timezone.now(),
        ruleset=period.system.ruleset,
        engine_version="test",
        entry_count=len(players),
    )
    fields = entries or [{"rating": base + i} for i in range(len(players))]
    ListEntry.objects.bulk_create(
        ListEntry(
            published_list=published,
            player=p,
            ruleset=published.ruleset,
            engine_version="test",
            **{"status": "rated", **entry},
        )
        for p, entry in zip(players, fields, strict=True)
    )
    return published


def make_tournament(system: RatingSystem, arbiter: Any, **fields: Any) -> Tournament:
    defaults: dict[str, Any] = {
        "name": f"Open {next(_seq)}",
        "city": "Barcelona",
        "start_date": dt.date(2026, 11, 10),
        "end_date": dt.date(2026, 11, 15),
        "system": "swiss",
        "base_minutes": 90,
        "increment_seconds": 30,
        "chief_arbiter": "A. Arbiter",
    }
    defaults.update(fields)
    return Tournament.objects.create(rating_system=system, arbiter=arbiter, **defaults)


#: White's and black's points for a result code.
GAME_SCORES = {
    "1-0": (1, 0),
    "0-1": (0, 1),
    "1/2-1/2": (0.5, 0.5),
    "+-": (1, 0),
    "-+": (0, 1),
}


def make_game(
    tournament: Tournament,
    white: TournamentPlayer,
    black: TournamentPlayer,
    result: str = "1-0",
    *,
    round: int = 1,
    kind: str = "played",
) -> Game:
    """A game of ``tournament`` between two of its lines, scored from ``result``."""
    white_score, black_score = GAME_SCORES[result]
    return Game.objects.create(
        tournament=tournament,
        round=round,
        white=white,
        black=black,
        result=result,
        kind=kind,
        white_score=white_score,
        black_score=black_score,
    )


def make_player_user(
    player: Player, username: str | None = None, *, role: str | None = None
) -> Any:
    """A user account linked to a registry player (Player.user), in the given role's group."""
    user = make_user(username, role=role)
    player.user = user
    player.save(update_fields=["user"])
    return user


def make_protest(
    published: PublishedList, player: Player, submitted_by: Any, **fields: Any
) -> Protest:
    defaults: dict[str, Any] = {"text": "Round 3 was a draw, not a loss."}
    defaults.update(fields)
    return Protest.objects.create(
        published_list=published, player=player, submitted_by=submitted_by, **defaults
    )


def make_import_job(system: RatingSystem, requested_by: Any = None, **fields: Any) -> ListImportJob:
    defaults: dict[str, Any] = {"format": "csv", "filename": "list.csv"}
    defaults.update(fields)
    return ListImportJob.objects.create(system=system, requested_by=requested_by, **defaults)


# --------------------------------------------------------------------- a small rated period


def build(ruleset: str = "fide-2024", **system_fields):
    """Three rated players (2000, 2100, 2200) and one unrated, three games: a win, a draw
    against the unrated player, a forfeit."""
    system = make_system(ruleset=ruleset, **system_fields)
    period = make_period(system)
    arbiter = make_user()
    tournament = make_tournament(system, arbiter, status="validated", period=period)
    players = [make_player(birth_year=1990) for _ in range(4)]
    for i, p in enumerate(players[:3]):
        PlayerRating.objects.create(
            player=p, system=system, rating=2000 + 100 * i, games=50, kind="effective"
        )
    tps = [
        TournamentPlayer.objects.create(
            tournament=tournament, player=p, start_rank=i + 1, name=str(p)
        )
        for i, p in enumerate(players)
    ]
    make_game(tournament, tps[0], tps[1], "1-0")
    make_game(tournament, tps[2], tps[3], "1/2-1/2")
    make_game(tournament, tps[1], tps[2], "+-", round=2, kind="forfeit")
    return system, period, players, tournament


def make_published(capture: Any) -> tuple[Any, ...]:
    """build()'s world with its period closed, calculated and published: system, period,
    players, the rated tournament and the published list. ``capture``: pytest-django's
    django_capture_on_commit_callbacks (the calculation runs when its request commits)."""
    system, period, players, rated = build()
    with capture(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    return system, period, players, rated, publication.list_publish(period=period)


def make_role_users(players: list[Player]) -> dict[str, Any]:
    """A user for each role of the authorization matrix but the anonymous one; the two
    players' accounts are linked to ``players[0]`` and ``players[1]``."""
    return {
        "player": make_player_user(players[0], "player", role=PLAYER),
        "other player": make_player_user(players[1], "other-player", role=PLAYER),
        "arbiter": make_user("arbiter", role=ARBITER),
        "other arbiter": make_user("other-arbiter", role=ARBITER),
        "officer": make_user("officer", role=RATING_OFFICER),
        "admin": get_user_model().objects.create_superuser(
            "admin", "admin@example.org", "pw-12345678"
        ),
    }


# --------------------------------------------------------------------- forms' data


def registration_data(system: RatingSystem, start: dt.date) -> dict[str, Any]:
    """The registration page's fields for a 3-day round robin starting on ``start``."""
    return {
        "name": "Magistral",
        "city": "León",
        "federation": "ESP",
        "start_date": start,
        "end_date": start + dt.timedelta(days=2),
        "system": "round_robin",
        "base_minutes": 90,
        "increment_seconds": 30,
        "extra_minutes": 0,
        "chief_arbiter": "X",
        "rating_system": system.pk,
    }


#: A good crosstable form for 3 players, every result mirrored (Vidal 1.5, García López 0,
#: Nuevo 1.5).
CROSSTABLE_FORM = {
    "size": 3,
    "name_1": "Vidal, Marc",
    "name_2": "García López, Ana",
    "name_3": "Nuevo, Uno",
    "cell_1_2": "1",
    "cell_2_1": "0",
    "cell_1_3": "½",
    "cell_3_1": "½",
    "cell_2_3": "0",
    "cell_3_2": "1",
}


def calculate(period, user=None):
    period_services.period_close(period=period) if period.status == PeriodStatus.OPEN else None
    run = runs.calculation_request(period=period, user=user)  # eager: runs on commit
    run.refresh_from_db()
    return run
