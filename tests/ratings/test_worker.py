"""End to end with a real Celery worker (Redis broker, PostgreSQL): the full flow, a worker
SIGKILLed mid-run, two simultaneous requests, immutable published rows, and re-rating.

The worker is a subprocess (`celery -A config worker --pool solo -Q <own queue>`) pointed at
pytest's test database through DATABASE_URL; `django_db(transaction=True)` commits the rows it
must see. Redis database 11 and a queue of our own keep other suites' tasks apart.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction

from core.errors import Refused
from core.jobs import JobStatus
from periods import services as period_services
from periods.models import PeriodStatus
from ratings.calculation import runs
from ratings.models import CalculationRun, DraftResult, ListEntry, PlayerRating, PublishedList
from ratings.publication import services as publication
from ratings.rerating import services as rerating
from tests.factories import (
    build,
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tests.workers import current_queue, redeliver_unacked, wait_for
from tournaments.models import Game, TournamentPlayer

pytestmark = [pytest.mark.django_db(transaction=True)]


def run_status(run_id: int) -> str:
    return CalculationRun.objects.get(pk=run_id).status


def draft_snapshot(run_id: int) -> list[tuple]:
    return sorted(
        DraftResult.objects.filter(run_id=run_id).values_list("player_id", "rating_after", "change")
    )


def test_full_flow_with_a_real_worker(celery_broker) -> None:
    celery_broker()
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    run = runs.calculation_request(period=period)
    wait_for(lambda: run_status(run.pk) == JobStatus.SUCCEEDED, what="the worker to finish")
    run.refresh_from_db()
    assert run.progress == 100 and run.player_count == 4
    assert (
        dict(DraftResult.objects.filter(run=run).values_list("player_id", "rating_after"))[
            players[0].pk
        ]
        == 2013
    )
    published = publication.list_publish(period=period)
    assert ListEntry.objects.filter(published_list=published).count() == 4
    assert PlayerRating.objects.get(player=players[0], system=system).rating == 2013


def test_worker_killed_mid_run_leaves_draft_and_lists_intact_and_the_rerun_completes(
    celery_broker, stalled_writes
) -> None:
    first = celery_broker()
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    r1 = runs.calculation_request(period=period)
    wait_for(lambda: run_status(r1.pk) == JobStatus.SUCCEEDED, what="run 1")
    published = publication.list_publish(period=period)
    entries_before = sorted(
        ListEntry.objects.filter(published_list=published).values_list("player_id", "rating")
    )
    Game.objects.filter(tournament=tournament, round=1, white__player=players[0]).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    r2 = runs.calculation_request(period=period)
    wait_for(lambda: run_status(r2.pk) == JobStatus.SUCCEEDED, what="run 2")
    draft_before = draft_snapshot(r2.pk)
    first.stop()

    stalled_writes.arm()
    slow = celery_broker()
    r3 = runs.calculation_request(period=period)
    wait_for(stalled_writes.stalled, what="run 3 to be writing")
    slow.kill()
    stalled_writes.release()

    assert draft_snapshot(r2.pk) == draft_before
    assert not DraftResult.objects.filter(run_id=r3.pk).exists()
    assert (
        sorted(
            ListEntry.objects.filter(published_list=published).values_list("player_id", "rating")
        )
        == entries_before
    )
    assert run_status(r3.pk) == JobStatus.RUNNING  # as the dead worker left it
    # acks_late + reject_on_worker_lost: the message is still in Redis, unacknowledged. Redis
    # hands it out again once the visibility timeout has passed (6 h in production); the test
    # does now what the next worker's restore loop would do then.
    assert redeliver_unacked(queue=current_queue()) == 1
    celery_broker()
    wait_for(
        lambda: run_status(r3.pk) == JobStatus.SUCCEEDED, timeout=60, what="the redelivered run 3"
    )
    assert not DraftResult.objects.filter(run_id=r2.pk).exists()
    assert (
        dict(
            draft_snapshot(r3.pk)
            and DraftResult.objects.filter(run_id=r3.pk).values_list("player_id", "rating_after")
        )[players[0].pk]
        == 2003
    )
    assert CalculationRun.objects.get(pk=r3.pk).attempts == 2


def test_a_new_request_restarts_a_run_whose_worker_died(celery_broker, stalled_writes) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    stalled_writes.arm()
    slow = celery_broker()
    dead = runs.calculation_request(period=period)
    wait_for(stalled_writes.stalled, what="the run to be writing")
    with pytest.raises(Refused):
        runs.calculation_request(period=period)  # the worker is alive: refused
    slow.kill()
    stalled_writes.release()
    celery_broker()
    run = wait_for(
        lambda: _try_request(period), timeout=20, what="the dead worker's lock to be released"
    )
    wait_for(lambda: run_status(run.pk) == JobStatus.SUCCEEDED, what="the restarted run")
    assert run_status(dead.pk) == JobStatus.LOST


def _try_request(period):
    try:
        return runs.calculation_request(period=period)
    except Refused:
        return None


def test_two_simultaneous_requests_exactly_one_runs() -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def request() -> None:
        from django.db import connection as conn

        try:
            barrier.wait()
            runs.calculation_request(period=period, enqueue=False)
            outcomes.append("ran")
        except Refused as exc:
            outcomes.append(f"refused: {exc}")
        finally:
            conn.close()

    threads = [threading.Thread(target=request) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o.split(":")[0] for o in outcomes) == ["ran", "refused"], outcomes
    assert CalculationRun.objects.filter(period=period).count() == 1
    # And the database itself refuses a second active run, whatever the code does.
    with pytest.raises(IntegrityError), transaction.atomic():
        CalculationRun.objects.create(period=period, ruleset="fide-2024", engine_version="x")


def test_published_rows_refuse_update_and_delete(django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    run = runs.calculation_request(period=period)  # eager here (no worker fixture)
    run.refresh_from_db()
    published = publication.list_publish(period=period)
    statements = [
        "UPDATE ratings_listentry SET rating = 1 WHERE published_list_id = %s",
        "DELETE FROM ratings_listentry WHERE published_list_id = %s",
        "UPDATE ratings_publishedlist SET note = 'x' WHERE id = %s",
        "DELETE FROM ratings_publishedlist WHERE id = %s",
    ]
    run_statements = [
        "UPDATE ratings_draftresult SET rating_after = 1 WHERE run_id = %s",
        "DELETE FROM ratings_draftresult WHERE run_id = %s",
        "UPDATE ratings_drafttournament SET change_sum = 0 WHERE run_id = %s",
        "DELETE FROM ratings_drafttournament WHERE run_id = %s",
        "DELETE FROM ratings_draftexcluded WHERE run_id = %s",
        "UPDATE ratings_calculationrun SET progress = 1 WHERE id = %s",
        "DELETE FROM ratings_calculationrun WHERE id = %s",
    ]
    for sql, arg in [(s, published.pk) for s in statements] + [(s, run.pk) for s in run_statements]:
        with (
            pytest.raises(IntegrityError, match="immutable"),
            transaction.atomic(),
            connection.cursor() as c,
        ):
            c.execute(sql, [arg])
    assert DraftResult.objects.filter(run=run).count() == 4
    # An unpublished draft can be replaced: a recalculation deletes it.
    r2 = runs.calculation_request(period=period)
    r3 = runs.calculation_request(period=period)
    assert (
        not DraftResult.objects.filter(run=r2).exists()
        and DraftResult.objects.filter(run=r3).count() == 4
    )
    assert DraftResult.objects.filter(run=run).count() == 4


def test_rerating_republishes_the_period_and_two_later_ones(celery_broker) -> None:
    celery_broker()
    system = make_system()
    arbiter = make_user()
    a, b = make_player(birth_year=1980), make_player(birth_year=1980)
    for p, r in ((a, 2000), (b, 2100)):
        PlayerRating.objects.create(player=p, system=system, rating=r, games=100, kind="effective")
    periods = []
    for month in (9, 10, 11):
        # Publishing a period opens the next one.
        period = system.periods.filter(start=dt.date(2026, month, 1)).first() or make_period(
            system, dt.date(2026, month, 1)
        )
        t = make_tournament(
            system,
            arbiter,
            status="validated",
            period=period,
            start_date=dt.date(2026, month, 5),
            end_date=dt.date(2026, month, 6),
        )
        ta = TournamentPlayer.objects.create(tournament=t, player=a, start_rank=1, name="A")
        tb = TournamentPlayer.objects.create(tournament=t, player=b, start_rank=2, name="B")
        make_game(t, ta, tb)
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
        wait_for(lambda run=run: run_status(run.pk) == JobStatus.SUCCEEDED, what=f"period {month}")
        publication.list_publish(period=period)
        periods.append(period)
    v1 = [
        dict(ListEntry.objects.filter(published_list__period=p).values_list("player_id", "rating"))
        for p in periods
    ]
    # 2000 beats 2100 (+13 / -13), then 2013 vs 2087 (expected 0.40: +12), then 2025 vs 2075.
    assert [x[a.pk] for x in v1] == [2013, 2025, 2036]
    # A corrected report of September: the game was a draw.
    Game.objects.filter(tournament__period=periods[0]).update(
        result="1/2-1/2", white_score=0.5, black_score=0.5
    )
    period_services.period_mark_for_recalculation(period=periods[0])
    assert all(
        p.needs_recalculation
        for p in (type(periods[0]).objects.filter(pk__in=[p.pk for p in periods]))
    )
    rerating.rerate_request(period=periods[0])
    wait_for(
        lambda: PublishedList.objects.filter(period=periods[2], version=2).exists(),
        timeout=90,
        what="the chain to republish November",
    )
    v2 = [
        dict(
            ListEntry.objects.filter(
                published_list__period=p, published_list__version=2
            ).values_list("player_id", "rating")
        )
        for p in periods
    ]
    # Draw at 2000 vs 2100: +2.8 -> 2003; then 2003 beats 2097 (D -94, expected 0.37): +12.6 ->
    # 2016;
    # then 2016 beats 2084 (D -68, expected 0.40): +12 -> 2028.
    assert [x[a.pk] for x in v2] == [2003, 2016, 2028]
    assert [x[a.pk] for x in v1] == [
        dict(
            ListEntry.objects.filter(
                published_list__period=p, published_list__version=1
            ).values_list("player_id", "rating")
        )[a.pk]
        for p in periods
    ]
    assert PlayerRating.objects.get(player=a, system=system).rating == 2028
    assert (
        not type(periods[0])
        .objects.filter(pk__in=[p.pk for p in periods], needs_recalculation=True)
        .exists()
    )
    assert all(
        p.status == PeriodStatus.PUBLISHED
        for p in type(periods[0]).objects.filter(system=system)
        if p.pk in {q.pk for q in periods}
    )
