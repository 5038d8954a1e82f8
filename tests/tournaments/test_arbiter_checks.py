"""feda-1996 1.1, worked from the text (seeds, art. 1.1): "los torneos deberán ser dirigidos
por un Arbitro Titulado, siendo la categoría del mismo equiparable a la de la competición a
disputar", with the levels 1.11 (national and international), 1.12 (autonómica), 1.13
(provincial). Decided: FIDE's titles (IA, FA, NA) direct every level; a higher federation
category directs a lower level (docs/arbiters.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.checks import ChiefArbiter, TournamentFacts, arbiter_checks

START = dt.date(2026, 3, 2)


def facts(
    *, ruleset: str = "feda-1996", level: str = "", chief: ChiefArbiter | None
) -> TournamentFacts:
    return TournamentFacts(
        ruleset=ruleset,
        rate_of_play="standard",
        pairing_system="swiss",
        start_date=START,
        end_date=START + dt.timedelta(days=6),
        minutes_for_60_moves=120.0,
        level=level,
        chief_arbiter=chief,
    )


def found(f: TournamentFacts) -> list[tuple[str, str, str]]:
    return [(p.severity, p.code, str(p.params["article"])) for p in arbiter_checks(f)]


def test_other_regulations_ask_nothing_of_the_chief_arbiter() -> None:
    # fide-2024, fide-2000, fce, cnxc-2000: no article on who directs the event.
    for ruleset in ("fide-2024", "fide-2000", "fce", "cnxc-2000"):
        assert found(facts(ruleset=ruleset, chief=None)) == []


def test_no_record_of_the_registry_is_flagged_not_blocked() -> None:
    assert found(facts(level="national", chief=None)) == [
        ("warning", "chief_arbiter_not_in_registry", "feda-1996 1.1")
    ]


@pytest.mark.parametrize(
    ("level", "category"),
    [
        # 1.11: a national (or international) event, a national arbiter.
        ("national", "national"),
        # 1.12: an autonómico event, a regional arbiter, or a national one (higher).
        ("regional", "regional"),
        ("regional", "national"),
        # 1.13: a provincial event, any of the three categories.
        ("provincial", "provincial"),
        ("provincial", "regional"),
        ("provincial", "national"),
    ],
)
def test_a_matching_category_directs_the_event(level: str, category: str) -> None:
    chief = ChiefArbiter(category=category, name="A")
    assert found(facts(level=level, chief=chief)) == []


@pytest.mark.parametrize(
    ("level", "category"),
    [
        # A regional arbiter does not direct a national open (1.11.d); a provincial one neither
        # a national (1.11) nor an autonómico (1.12) event.
        ("national", "regional"),
        ("national", "provincial"),
        ("regional", "provincial"),
    ],
)
def test_a_lower_category_does_not(level: str, category: str) -> None:
    chief = ChiefArbiter(category=category, name="A")
    problems = arbiter_checks(facts(level=level, chief=chief))
    assert [(p.severity, p.code) for p in problems] == [("error", "chief_arbiter_category")]
    assert problems[0].params["held"] == category
    assert problems[0].params["level"] == level


@pytest.mark.parametrize("title", ["IA", "FA", "NA"])
def test_a_fide_title_directs_a_national_event(title: str) -> None:
    # "Arbitro Titulado": an International, FIDE or National Arbiter of FIDE, no FEDA category.
    assert found(facts(level="national", chief=ChiefArbiter(title=title, name="A"))) == []


def test_an_untitled_arbiter_does_not_direct_any_event() -> None:
    assert found(facts(level="provincial", chief=ChiefArbiter(name="A"))) == [
        ("error", "chief_arbiter_untitled", "feda-1996 1.1")
    ]


def test_no_level_given_any_titled_arbiter_with_a_warning() -> None:
    # A provincial arbiter directs at least a provincial event: accepted, the officer told.
    chief = ChiefArbiter(category="provincial", name="A")
    assert found(facts(level="", chief=chief)) == [
        ("warning", "event_level_missing", "feda-1996 1.1")
    ]


def test_a_pending_record_is_flagged_and_a_refused_one_blocks() -> None:
    pending = ChiefArbiter(category="national", state="pending", name="A")
    assert found(facts(level="national", chief=pending)) == [
        ("warning", "chief_arbiter_pending", "feda-1996 1.1")
    ]
    refused = ChiefArbiter(category="national", state="refused", name="A")
    assert found(facts(level="national", chief=refused)) == [
        ("error", "chief_arbiter_refused", "feda-1996 1.1")
    ]
