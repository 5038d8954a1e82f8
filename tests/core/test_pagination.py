"""core.pagination.EstimatedCountPaginator: an exact count when the planner expects fewer rows
than `exact_below`, its estimate (and `estimated`) otherwise."""

from __future__ import annotations

import pytest

from core.pagination import EstimatedCountPaginator
from players.models import Player
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def test_few_rows_are_counted_exactly() -> None:
    for _ in range(3):
        make_player()
    paginator = EstimatedCountPaginator(Player.objects.order_by("pk"), 2)
    assert (paginator.count, paginator.estimated) == (3, False)
    assert paginator.num_pages == 2


def test_above_exact_below_the_planners_figure_is_shown() -> None:
    for _ in range(3):
        make_player()
    paginator = EstimatedCountPaginator(Player.objects.order_by("pk"), 2, exact_below=0)
    assert paginator.count >= 0 and paginator.estimated


def test_an_empty_queryset_counts_nothing() -> None:
    paginator = EstimatedCountPaginator(Player.objects.none(), 2, exact_below=0)
    assert paginator.count == 0
