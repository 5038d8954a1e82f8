"""Benchmark of history tracking (django-pghistory) on the bulk writes it sees.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office \\
        .venv/bin/python bench/bench_history.py [--games 300] [--repeat 30] [--players 50000]

Creates (and drops) a throw-away database ``bench_<name>`` and prints, best of --repeat runs:

- games: one report's games written as tournaments.services does (raw DELETE of the old ones,
  COPY of the new ones, one transaction, inside a history context as in a request), with
  (a) no insert events (as shipped: Game is tracked for UPDATE and DELETE only, and the report
  rewrite ignores the delete tracker), (b) the delete events recorded, (c) insert events by a
  row-level trigger (pghistory's default level), (d) insert events by a statement-level trigger;
- players: --players players written by COPY and then all updated by one UPDATE (as a list
  import does), with the statement-level insert/update events of Player (as shipped) and with
  those two triggers disabled.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.scratch_db import run_in_scratch_database

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault(
    "SECRET_KEY", "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--players", type=int, default=50_000)
    args = ap.parse_args()
    run_in_scratch_database(lambda: run(args))


def best(repeat: int, fn: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def run(args: argparse.Namespace) -> None:
    import pghistory
    import pghistory.trigger
    import pgtrigger
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from core.pg.copy import copy_in_rows
    from periods.models import RatingSystem
    from players.models import Player
    from tournaments.models import Game, Tournament, TournamentPlayer
    from tournaments.services.validation import GAME_COLUMNS

    user = get_user_model().objects.create(username="bench")
    system = RatingSystem.objects.create(
        code="bench", name="Bench", ruleset="fide-2024", rate_of_play="standard", cycle="monthly"
    )
    tournament = Tournament.objects.create(
        name="Bench Open",
        city="Bench",
        start_date=dt.date(2026, 10, 1),
        end_date=dt.date(2026, 10, 9),
        system="swiss",
        base_minutes=90,
        chief_arbiter="A",
        arbiter=user,
        rating_system=system,
    )
    n_players = max(2, (2 * args.games) // 9 + 1)
    copy_in_rows(
        TournamentPlayer._meta.db_table,
        ["tournament_id", "start_rank", "name", "sex", "title", "fide_id", "fed_id", "federation"],
        [(tournament.pk, i, f"P{i}", "", "", "", "", "") for i in range(1, n_players + 1)],
    )
    tp = list(TournamentPlayer.objects.filter(tournament=tournament).values_list("id", flat=True))
    rows = [
        (
            tournament.pk,
            1 + k // (n_players // 2),
            tp[(2 * k) % n_players],
            tp[(2 * k + 1) % n_players],
            "1-0",
            "played",
            1,
            0,
        )
        for k in range(args.games)
    ]
    columns = GAME_COLUMNS
    event_model = Game.pgh_event_model  # type: ignore[attr-defined]  # set by @pghistory.track
    delete_trigger = "tournaments.Game:delete_delete"

    def write_games(ignore_delete: bool = True) -> None:
        with pghistory.context(user=user.pk, url="/bench"), transaction.atomic():
            if ignore_delete:
                with pgtrigger.ignore(delete_trigger):
                    Game.objects.filter(tournament=tournament)._raw_delete(connection.alias)
            else:
                Game.objects.filter(tournament=tournament)._raw_delete(connection.alias)
            copy_in_rows(Game._meta.db_table, columns, rows)

    write_games()
    print(f"games: {args.games} per report, best of {args.repeat} (milliseconds, delete + COPY)")
    print(
        "  (a) no insert events, delete ignored (as shipped): "
        f"{best(args.repeat, write_games):7.1f}"
    )
    print(
        f"  (b) no insert events, delete events recorded:      "
        f"{best(args.repeat, lambda: write_games(ignore_delete=False)):7.1f}"
    )
    for label, level in (
        ("(c) insert events, row-level:", pgtrigger.Row),
        ("(d) insert events, statement-level:", pgtrigger.Statement),
    ):
        trigger = pghistory.trigger.Event(
            event_model=event_model,
            label="insert",
            name="bench_insert",
            row="NEW",
            operation=pgtrigger.Insert,
            level=level,
        )
        with connection.cursor() as cursor:
            cursor.execute(trigger.compile(Game).install_sql)  # type: ignore[arg-type]  # takes the model class
        try:
            before = event_model.objects.count()
            write_games()
            assert event_model.objects.count() == before + args.games, (
                "the insert events were not written"
            )
            print(f"  {label:49s} {best(args.repeat, write_games):7.1f}")
        finally:
            with connection.cursor() as cursor:
                cursor.execute(trigger.compile(Game).uninstall_sql)  # type: ignore[arg-type]  # takes the model class

    # Players: a list import's COPY and UPDATE.
    table = Player._meta.db_table
    player_columns = [
        "fed_id",
        "surname",
        "given_name",
        "sex",
        "federation",
        "name_key",
        "affiliated",
        "club",
        "region",
        "title",
        "created_at",
        "updated_at",
    ]
    now = dt.datetime.now(dt.UTC)
    batch = 0

    def import_players() -> tuple[float, float]:
        nonlocal batch
        batch += 1
        data = [
            (
                f"B{batch}-{i}",
                f"Surname{i}",
                "Given",
                "M",
                "ESP",
                f"surname{i} given",
                True,
                "",
                "",
                "",
                now,
                now,
            )
            for i in range(args.players)
        ]
        with pghistory.context(task="bench"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
                first = cursor.fetchone()[0] + 1
            started = time.perf_counter()
            copy_in_rows(table, player_columns, data)
            copied = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET club = 'Bench club' WHERE id >= %s", [first])
            updated = time.perf_counter()
        return (copied - started) * 1000, (updated - copied) * 1000

    tracked = [
        t
        for _, t in pgtrigger.registered(
            "players.Player:insert_insert", "players.Player:update_update"
        )
    ]
    assert len(tracked) == 2
    repeat = max(1, min(3, args.repeat))
    on, off = [], []
    for _ in range(repeat):  # alternated, so that both see tables of about the same size
        on.append(import_players())
        for t in tracked:
            t.disable(Player)  # type: ignore[arg-type]  # takes the model class
        try:
            off.append(import_players())
        finally:
            for t in tracked:
                t.enable(Player)  # type: ignore[arg-type]  # takes the model class
    print(
        f"players: {args.players:,} by COPY, then one UPDATE of them all, "
        f"best of {repeat} (milliseconds)"
    )
    print(
        f"  with insert/update events (as shipped): COPY {min(c for c, _ in on):8.1f}   "
        f"UPDATE {min(u for _, u in on):8.1f}"
    )
    print(
        f"  without:                                COPY {min(c for c, _ in off):8.1f}   "
        f"UPDATE {min(u for _, u in off):8.1f}"
    )


if __name__ == "__main__":
    main()
