"""Celery tasks of the rating office: thin, they take ids (or plain values) and call one service.

acks_late + reject_on_worker_lost (also the project defaults, config/settings.py): a worker
killed mid-run does not lose the message; the draft write is one transaction, so the previous
draft and every published list stay intact, and the redelivered message runs the period again.
(The list import tasks are lists/tasks.py.)
"""

from __future__ import annotations

from celery import shared_task

from ratings.calculation.runs import calculation_run, calculation_runs_watch
from ratings.lists import ranks
from ratings.live.services import live_ratings_update, live_ratings_watch
from ratings.rerating.chain import rerate_chain_run
from ratings.rerating.services import period_rerate


@shared_task(name="ratings.calculate_period", acks_late=True, reject_on_worker_lost=True)
def calculate_period(run_id: int) -> None:
    calculation_run(run_id=run_id)


@shared_task(name="ratings.rerate_period", acks_late=True, reject_on_worker_lost=True)
def rerate_period(period_id: int, user_id: int | None = None) -> None:
    """One link of the chain of tasks re-ratings were before ratings.rerate_chain (messages
    still queued from before it)."""
    period_rerate(period_id=period_id, user_id=user_id)


@shared_task(name="ratings.rerate_chain", acks_late=True, reject_on_worker_lost=True)
def rerate_chain(chain_id: int) -> None:
    """A re-rating chain, every period in order in this worker; a redelivered message resumes
    from the first period not committed (ratings.rerating.chain)."""
    rerate_chain_run(chain_id=chain_id)


@shared_task(name="ratings.watch_runs")
def watch_runs() -> list[int]:
    """Sent every minute by beat (CELERY_BEAT_SCHEDULE): runs whose worker is gone are marked
    lost and queued again (core/heartbeat.py). Returns their ids, which the worker logs."""
    return [run.pk for run in calculation_runs_watch()]


@shared_task(name="ratings.watch_list_ranks")
def watch_list_ranks() -> list[int]:
    """Sent every five minutes by beat (CELERY_BEAT_SCHEDULE): a published list whose ranks
    task never ran (the broker was away at publication) gets it sent again. Returns the lists'
    ids, which the worker logs."""
    return ranks.list_ranks_watch()


@shared_task(name="ratings.fill_list_ranks", acks_late=True)
def fill_list_ranks(list_id: int) -> int:
    """The ranks of a newly published list (ratings.lists.ranks), for the player card, and
    its filter rows, for the list page; the number of ranks written."""
    written = ranks.list_ranks_fill(list_id=list_id)
    ranks.list_rows_fill(list_id=list_id)
    ranks.list_tables_analyze()  # the planner learns the new list (and its pages all-visible)
    return written


@shared_task(name="ratings.update_live_ratings", acks_late=True)
def update_live_ratings(tournament_id: int) -> int:
    """A tournament's report was validated or its games changed: its players' live ratings in
    its open period (ratings.live.services). Returns the rows written."""
    return live_ratings_update(tournament_id=tournament_id)


@shared_task(name="ratings.watch_live_ratings")
def watch_live_ratings() -> list[int]:
    """Sent every five minutes by beat (CELERY_BEAT_SCHEDULE): a tournament whose live ratings
    task was never sent (the broker away at validation) gets it sent again. Returns the
    tournaments' ids, which the worker logs."""
    return live_ratings_watch()
