"""The badges beside a rating's status on the player card say each thing once."""

from __future__ import annotations

import pytest
from django.utils import translation

from periods.models import RatingSystem
from ratings.cards.selectors import SystemCard
from ratings.models import ListEntry, PlayerRating
from ratings.templatetags.card_flags import card_flag_legend


@pytest.fixture(autouse=True)
def english():
    """The labels are compared in English, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def _card(*, status: str, inactive: bool = False, provisional: bool = False, **state) -> SystemCard:
    return SystemCard(
        system=RatingSystem(code="std", name="Standard"),
        state=PlayerRating(**state),
        entry=ListEntry(status=status, inactive=inactive, provisional=provisional),
    )


def test_an_inactive_player_is_said_inactive_once() -> None:
    """The status "Inactive" was followed by the state's "Inactive" and the entry's mark."""
    card = _card(status="inactive", inactive=True, kind="effective", activity="inactive")
    assert card.flags == ["Effective"]


def test_flags_the_status_does_not_say_are_kept_in_order() -> None:
    card = _card(
        status="rated", inactive=True, provisional=True, kind="provisional", activity="inactive"
    )
    assert card.flags == ["Provisional", "Inactive"]


def test_without_an_entry_every_state_flag_is_shown() -> None:
    card = SystemCard(
        system=RatingSystem(code="std", name="Standard"),
        state=PlayerRating(kind="unrated", activity="active"),
        entry=None,
    )
    assert card.flags == ["Unrated", "Active"]


def test_flags_compare_in_the_readers_language() -> None:
    with translation.override("es"):
        card = _card(status="inactive", kind="effective", activity="inactive")
        assert card.flags == ["Efectivo"]


def test_each_badge_says_what_it_means_and_the_legend_lists_each_once() -> None:
    first = _card(status="rated", kind="effective", activity="active")
    second = _card(status="rated", kind="provisional", activity="active")
    assert [flag for flag, _meaning in first.explained_flags] == ["Effective", "Active"]
    meaning = dict(first.explained_flags)["Effective"]
    assert meaning.startswith("An established rating")
    legend = card_flag_legend([first, second])
    assert [flag for flag, _m in legend] == ["Effective", "Active", "Provisional"]
    with translation.override("es"):
        assert dict(first.explained_flags)["Efectivo"].startswith("Un elo consolidado")
