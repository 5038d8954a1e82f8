"""Re-rating a chain in one pass (ratings.rerating.chain, issue 27 item 4): the players' states
held in memory between periods are the ones a full read gives at the start of every period, the
lists the chain publishes are those of the period-by-period path, and a worker killed midway
resumes from the last period committed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from core.jobs import JobStatus
from core.roles import RATING_OFFICER
from demo.synthetic import federation_generate
from periods.models import PeriodStatus, RatingPeriod
from players.models import Player
from ratings.models import ListEntry, PublishedList, RerateChain
from ratings.rerating import chain as chain_module
from ratings.rerating import services as rerating
from ratings.rerating.chain_states import ChainStates, chain_states_verify
from tests.factories import make_user
from tournaments.models import Game

pytestmark = pytest.mark.django_db

ENTRY_FIELDS = (
    "player_id",
    "rating",
    "change",
    "k",
    "games",
    "total_games",
    "status",
    "inactive",
    "provisional",
    "inactive_lists",
)


@pytest.fixture
def chain_world(settings: Any) -> list[RatingPeriod]:
    """A small synthetic federation over 15 months (a new year inside them: youth changes), 14
    closed, on the bulk path, published once by a chain."""
    settings.RATINGS_BULK_MIN_GAMES = 1
    federation_generate(
        players=600, games=15 * 400, periods=15, system_code="chain", today=dt.date(2026, 3, 10)
    )
    periods = list(
        RatingPeriod.objects.filter(system__code="chain", status=PeriodStatus.CLOSED).order_by(
            "start"
        )
    )
    chain = rerating.rerate_request(period=periods[0])
    chain_module.rerate_chain_run(chain_id=chain.pk)
    return periods


@pytest.fixture
def verified(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each time the chain moves on, the state it holds is compared with a full read; returns
    the number of players compared per period."""
    compared: list[int] = []
    advance = chain_module.chain_states_advance

    def checked(
        *, states: ChainStates, done: RatingPeriod, run: Any, following: RatingPeriod
    ) -> None:
        advance(states=states, done=done, run=run, following=following)
        assert chain_states_verify(states=states, period=following) == [], following
        compared.append(len(states.P))

    monkeypatch.setattr(chain_module, "chain_states_advance", checked)
    return compared


def _entries(period: RatingPeriod, version: int) -> list[tuple[Any, ...]]:
    return list(
        ListEntry.objects.filter(published_list__period=period, published_list__version=version)
        .order_by("player_id")
        .values_list(*ENTRY_FIELDS)
    )


def _correct(period: RatingPeriod) -> None:
    """A corrected report: every decisive game of one tournament of the period reversed, and
    two players of the registry deceased since."""
    tournament = period.tournaments.order_by("pk").first()
    assert tournament is not None
    for game in Game.objects.filter(tournament=tournament, result__in=("1-0", "0-1")):
        white_won = game.result == "1-0"
        game.result = "0-1" if white_won else "1-0"
        game.white_score, game.black_score = (0, 1) if white_won else (1, 0)
        game.save()
    Player.objects.filter(
        pk__in=Player.objects.order_by("pk").values_list("pk", flat=True)[:2]
    ).update(deceased_on=dt.date(2025, 6, 1))


def test_chain_holds_the_state_a_full_read_gives_and_publishes_the_same_lists(
    verified: list[int], chain_world: list[RatingPeriod]
) -> None:
    # From the second period: the first has no list before it, and a period-by-period re-run
    # of it reads the players' states as they are now (ratings.calculation.states).
    periods = chain_world[1:]
    before = {p.pk: _entries(p, 1) for p in periods}
    _correct(periods[0])
    chain = rerating.rerate_request(period=periods[0])
    chain_module.rerate_chain_run(chain_id=chain.pk)
    chain.refresh_from_db()
    assert chain.status == JobStatus.SUCCEEDED
    assert chain.periods_done == len(periods) == len(chain.periods)
    # Compared after every period but the last of both chains (the first publication of the
    # 14 periods, then the re-rating of 13): the whole registry each time.
    assert len(verified) == (len(chain_world) - 1) + (len(periods) - 1)
    assert all(n >= 550 for n in verified)
    chained = {p.pk: _entries(p, 2) for p in periods}
    # The correction changed the first period's list and later ones (not a no-op).
    assert chained[periods[0].pk] != before[periods[0].pk]
    assert chained[periods[-1].pk] != before[periods[-1].pk]
    # The period-by-period path, reading the whole registry each period, gives the same lists.
    for period in periods:
        rerating.period_rerate(period_id=period.pk)
    for period in periods:
        assert _entries(period, 3) == chained[period.pk], period


def test_a_killed_chain_resumes_from_the_last_period_committed(
    chain_world: list[RatingPeriod], monkeypatch: pytest.MonkeyPatch, client: Any
) -> None:
    periods = chain_world[1:]
    _correct(periods[0])
    chain = rerating.rerate_request(period=periods[0])
    publish = chain_module.list_publish
    published: list[int] = []

    class WorkerKilled(BaseException):
        """Stands for SIGKILL: no handler of the job runs."""

    def killed_at_third(*, period: RatingPeriod, **kwargs: Any) -> PublishedList:
        if len(published) == 2:
            raise WorkerKilled
        published.append(period.pk)
        return publish(period=period, **kwargs)

    monkeypatch.setattr(chain_module, "list_publish", killed_at_third)
    with pytest.raises(WorkerKilled):
        chain_module.rerate_chain_run(chain_id=chain.pk)
    chain.refresh_from_db()
    assert chain.status == JobStatus.RUNNING
    assert chain.periods_done == 2
    assert [
        PublishedList.objects.filter(period=p).order_by("-version").first().version
        for p in periods[:3]
    ] == [2, 2, 1]
    client.force_login(make_user("maria", role=RATING_OFFICER))
    polled = client.get(reverse("ratings:rerate_chain_progress", args=[chain.pk])).json()
    assert (polled["periods_done"], polled["period_count"], polled["done"]) == (
        2,
        len(periods),
        False,
    )
    page = client.get(reverse("ratings:rerate_chain", args=[chain.pk])).content.decode()
    assert f"2 of {len(periods)}" in page
    # The message redelivered to a new worker: on from the third period, each once.
    monkeypatch.setattr(chain_module, "list_publish", publish)
    chain_module.rerate_chain_run(chain_id=chain.pk)
    chain.refresh_from_db()
    assert (chain.status, chain.periods_done, chain.progress) == (
        JobStatus.SUCCEEDED,
        len(periods),
        100,
    )
    assert [PublishedList.objects.filter(period=p).count() for p in periods] == [2] * len(periods)
    api = client.get(f"/api/v1/periods/{periods[0].pk}/rerating/").json()
    assert (api["job"], api["periods_done"], api["done"]) == (chain.pk, len(periods), True)
    assert RerateChain.objects.filter(system=periods[0].system).count() == 2
