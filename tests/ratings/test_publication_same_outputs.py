"""Issue 27 item 1: how a list version is stored changed (ranks and filter columns written with
the entries, by the publication itself); what it publishes did not. A small synthetic
federation (two monthly periods, regions, clubs, titles, unrated players) is calculated and
published, then corrected twice: a result of the second month (its version 2) and one of the
first month (version 2 of a list with a later one published). Every download format of every
version, the player cards (API serializer: entry, ranks, history) and pages of every list
(filters, sorts) are compared with files produced by the code on main before the change
(``tests/ratings/fixtures/publication_same/``).

Those files were written once by running this test with ``PUBLICATION_SAME_WRITE=1`` on main
(commit c2c8232), before the change; the test never writes them otherwise."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from demo.synthetic import federation_generate
from lists import exports
from periods import services as period_services
from periods.models import PeriodStatus, RatingSystem
from players.models import Player
from ratings.api.players import SystemCardSerializer
from ratings.calculation import runs
from ratings.cards.selectors import player_card
from ratings.lists.selectors import list_entries_page
from ratings.models import PublishedList
from ratings.publication import services as publication
from tournaments.models import Game

ENTRY_KEYS = ("player_id", "rating", "change", "games", "status", "section")
FIXTURES = Path(__file__).parent / "fixtures" / "publication_same"
WRITE = os.environ.get("PUBLICATION_SAME_WRITE") == "1"
FORMATS = ("csv", "json", "txt", "xml", "fide.txt", "fide.xml")
#: List pages read for every version: filters and sorts the page offers.
PAGE_PARAMS: list[dict[str, str]] = [
    {},
    {"sort": "name"},
    {"sort": "-rating"},
    {"sort": "change"},
    {"sort": "games"},
    {"sex": "F"},
    {"active": "on"},
    {"age": "u20"},
    {"age": "s50", "sort": "name"},
    {"name": "gar"},
    {"title": "FM"},
]
pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the synthetic federation needs PostgreSQL (COPY)"
)


def _calculate_and_publish(period: Any, note: str = "") -> PublishedList:
    if period.status == PeriodStatus.OPEN:
        period_services.period_close(period=period)
    run = runs.calculation_request(period=period, enqueue=False)
    runs.calculation_run(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    return publication.list_publish(period=period, note=note)


def _correct_one_game(period: Any) -> None:
    """A decisive game of the period becomes a draw (the arbiter's correction)."""
    game = (
        Game.objects.filter(tournament__period=period, result="1-0", kind="played")
        .order_by("pk")
        .first()
    )
    assert game is not None
    Game.objects.filter(pk=game.pk).update(result="1/2-1/2", white_score=0.5, black_score=0.5)


def _world() -> dict[str, bytes]:
    """Build, publish and correct the federation; every output by file name."""
    federation_generate(
        players=240, games=1200, seed=27, periods=2, system_code="same", today=dt.date(2026, 3, 10)
    )
    system = RatingSystem.objects.get(code="same")
    first, second = list(system.periods.order_by("start"))[:2]
    _calculate_and_publish(first)
    second.refresh_from_db()
    _calculate_and_publish(second)
    second.refresh_from_db()
    _correct_one_game(second)
    _calculate_and_publish(second, note="correction of the second month")
    first.refresh_from_db()
    _correct_one_game(first)
    _calculate_and_publish(first, note="correction of the first month")

    outputs: dict[str, bytes] = {}
    lists = list(PublishedList.objects.filter(system=system).order_by("list_date", "version"))
    assert [p.version for p in lists] == [1, 2, 1, 2]
    for published in lists:
        stem = f"{published.list_date:%Y-%m}-v{published.version}"
        for fmt in FORMATS:
            body = exports.list_download(published_list=published, fmt=fmt)
            outputs[f"{stem}.{fmt}"] = body if isinstance(body, bytes) else b"".join(body)
        pages = []
        for params in PAGE_PARAMS:
            for page in (1, 2):
                found = list_entries_page(
                    published=published, params=params, page=page, per_page=40
                )
                pages.append(
                    {
                        "params": params,
                        "page": found.page,
                        "total": found.total,
                        "start": found.start,
                        "entries": [[e[k] for k in ENTRY_KEYS] for e in found.entries],
                    }
                )
        outputs[f"{stem}.pages.json"] = json.dumps(pages, indent=1, sort_keys=True).encode()
    cards = {}
    for player in Player.objects.order_by("pk"):
        data = SystemCardSerializer(player_card(player=player), many=True).data
        cards[player.fed_id] = json.loads(json.dumps(data, default=str))
    outputs["cards.json"] = json.dumps(cards, indent=1, sort_keys=True).encode()
    return outputs


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_downloads_cards_and_pages_of_every_version_are_as_before() -> None:
    outputs = _world()
    if WRITE:
        FIXTURES.mkdir(parents=True, exist_ok=True)
        for name, body in outputs.items():
            (FIXTURES / name).write_bytes(body)
    expected = sorted(p.name for p in FIXTURES.iterdir())
    assert sorted(outputs) == expected
    for name in expected:
        assert outputs[name] == (FIXTURES / name).read_bytes(), name
    # The cards show ranks (written by the publication, not counted by the card).
    cards = json.loads(outputs["cards.json"])
    assert any(c and c[0]["ranks"]["national"] for c in cards.values())
    # The ranks and filter columns are as immutable as the rest of the entry (pgtrigger).
    latest = PublishedList.objects.order_by("-pk").first()
    assert latest is not None
    for column in ("rank_national", "rank_active", "name_key", "active"):
        with pytest.raises(IntegrityError, match="immutable"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE ratings_listentry SET {column} = NULL WHERE published_list_id = %s",
                    [latest.pk],
                )
