"""Benchmark of the arbiter's upload: a 500-player, 9-round TRF parsed, checked and stored.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office \\
        .venv/bin/python bench/bench_report_store.py [--players 500] [--rounds 9] [--repeat 5]

Creates (and drops) a throw-away database ``bench_<name>``, a registry holding every player
(matched by FIDE ID, so the report validates and the games are written), and prints:
- parse + validate: decode, parse_report and the regulation checks (no database);
- store: the whole ``report_upload`` service (bytes + SHA-256, parse, checks, matching,
  players and games written with bulk_create), best of --repeat runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.scratch_db import run_in_scratch_database

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault(
    "SECRET_KEY", "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
)


def synthetic_trf(players: int, rounds: int, seed: int = 1) -> bytes:
    from formats.reports import ParsedReport, ReportGame, ReportHeader, ReportPlayer, render_trf

    rng = random.Random(seed)
    people = tuple(
        ReportPlayer(
            start_rank=i,
            name=f"Surname{i:04d}, Given{i}",
            sex="m",
            rating=rng.randint(1400, 2650),
            federation="ESP",
            fide_id=str(2_000_000 + i),
            birth_year=1960 + i % 50,
        )
        for i in range(1, players + 1)
    )
    games = []
    for r in range(1, rounds + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        for k in range(0, players - 1, 2):
            result = rng.choice("10=")
            black = {"1": 0.0, "0": 1.0, "=": 0.5}[result]
            games.append(
                ReportGame(
                    round=r,
                    white_rank=order[k],
                    black_rank=order[k + 1],
                    result=result,
                    white_score=1.0 - black,
                    black_score=black,
                    kind="played",
                )
            )
    header = ReportHeader(name="Bench Open", city="Bench", federation="ESP", rounds=rounds)
    return render_trf(ParsedReport(header=header, players=people, games=tuple(games))).encode()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    run_in_scratch_database(lambda: run(args))


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from formats.reports import decode_report, parse_report
    from periods.models import RatingSystem
    from players.models import Player
    from players.names import full_name_key
    from tournaments import checks, services
    from tournaments.models import Game, Tournament, TournamentPlayer

    data = synthetic_trf(args.players, args.rounds)
    Player.objects.bulk_create(
        Player(
            fed_id=f"B{i:06d}",
            surname=f"Surname{i:04d}",
            given_name=f"Given{i}",
            sex="M",
            fide_id=2_000_000 + i,
            name_key=full_name_key(f"Surname{i:04d}", f"Given{i}"),
        )
        for i in range(1, args.players + 1)
    )
    user = get_user_model().objects.create_user("bench-arbiter")
    system = RatingSystem.objects.create(
        code="bench", name="Bench", ruleset="fide-2024", rate_of_play="standard", cycle="monthly"
    )
    start = timezone.localdate() + dt.timedelta(days=60)
    tournament = Tournament.objects.create(
        name="Bench Open",
        city="Bench",
        start_date=start,
        end_date=start + dt.timedelta(days=8),
        system="swiss",
        base_minutes=90,
        increment_seconds=30,
        chief_arbiter="B",
        arbiter=user,
        rating_system=system,
    )
    facts = services.tournament_facts(tournament)

    parse_times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        parsed = parse_report(decode_report(data), format="trf")
        checks.tournament_checks(
            facts, parsed, received_on=start, registered_on=timezone.localdate(), approved=False
        )
        parse_times.append((time.perf_counter() - t0) * 1000)
    assert parsed.ok, parsed.errors[:3]

    store_times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        report = services.report_upload(
            tournament=tournament, user=user, data=data, filename="bench.trf"
        )
        store_times.append((time.perf_counter() - t0) * 1000)
        tournament.refresh_from_db()
        assert report.status == "accepted" and tournament.status == "validated", report.problems[:3]
    players = TournamentPlayer.objects.filter(tournament=tournament).count()
    games = Game.objects.filter(tournament=tournament).count()
    print(
        f"database: {connection.vendor}; {len(data)} bytes; {players} players, {games} games stored"
    )
    print(
        f"parse + validate: best {min(parse_times):.1f} ms, "
        f"median {sorted(parse_times)[len(parse_times) // 2]:.1f} ms"
    )
    print(
        f"store (report_upload): best {min(store_times):.1f} ms, "
        f"median {sorted(store_times)[len(store_times) // 2]:.1f} ms"
    )


if __name__ == "__main__":
    main()
