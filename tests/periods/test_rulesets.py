"""Effective dates: a rating system's timeline of regulation sets (docs/periods.md).

The articles' wording, worked by hand:
- fide-2024 0.1: "Los cambios se aplicarán a los torneos que comiencen en o a partir de la
  fecha en que entren en vigor" (in force "desde el 1 de marzo de 2024").
- fide-2000 0.1.1: changes take effect "a partir del 1 de julio del año siguiente a la
  Asamblea General ... a aquellos torneos que comiencen a partir de esa fecha".
- cnxc-2000 8.1: "terá efeito para as competições iniciadas a partir de 1 de Julho de 2000".
So the start day decides, the effective day itself included.
"""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import Refused
from core.jobs import JobStatus
from core.roles import RATING_OFFICER
from periods import services as period_services
from periods.models import PeriodStatus, SystemRuleset
from periods.rulesets import system_ruleset_add, system_ruleset_on, system_timeline
from ratings.calculation import runs
from ratings.models import DraftResult
from tests.factories import build, make_period, make_system, make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_fide_2024_applies_from_1_march_2024_on_the_start_day():
    # fide-2024 0.1: in force from 1 March 2024, for tournaments starting on or after it.
    system = make_system(ruleset="fide-2000", cycle="monthly")
    make_period(system, dt.date(2024, 1, 1))
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=dt.date(2024, 3, 1))
    on = {
        day: system_ruleset_on(system=system, day=day).ruleset
        for day in (dt.date(2023, 12, 31), dt.date(2024, 2, 29), dt.date(2024, 3, 1))
    }
    # Before the first entry the first one still applies; 29 February: the old rules; 1 March
    # ("en o a partir de"): the new ones.
    assert on == {
        dt.date(2023, 12, 31): "fide-2000",
        dt.date(2024, 2, 29): "fide-2000",
        dt.date(2024, 3, 1): "fide-2024",
    }
    # The system's own regulation became the first entry, from its first period's start.
    assert [(e.ruleset, e.effective_from) for e in system_timeline(system=system)] == [
        ("fide-2000", dt.date(2024, 1, 1)),
        ("fide-2024", dt.date(2024, 3, 1)),
    ]


def test_fide_2000_changes_from_1_july_after_the_assembly_with_their_parameters():
    # fide-2000 0.1.1: a change voted by the 1998 Assembly applies from 1 July 1999 to
    # tournaments starting from that date; here the change is the parameters of the same set.
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    make_period(system, dt.date(1999, 1, 1), end=dt.date(1999, 3, 31))
    before = system_ruleset_on(system=system, day=dt.date(1999, 6, 30))
    system_ruleset_add(
        system=system,
        ruleset="fide-2000",
        effective_from=dt.date(1999, 7, 1),
        parameters={},
    )
    june = system_ruleset_on(system=system, day=dt.date(1999, 6, 30))
    july = system_ruleset_on(system=system, day=dt.date(1999, 7, 1))
    assert (june.ruleset, june.effective_from) == ("fide-2000", dt.date(1999, 1, 1))
    assert (july.ruleset, july.effective_from) == ("fide-2000", dt.date(1999, 7, 1))
    assert june.parameters == before.parameters


def test_cnxc_2000_for_competitions_started_from_1_july_2000():
    # cnxc-2000 8.1: competitions started from 1 July 2000.
    system = make_system(ruleset="fide-2000", rate_of_play="correspondence", cycle="semestral")
    system_ruleset_add(system=system, ruleset="cnxc-2000", effective_from=dt.date(2000, 7, 1))
    assert system_ruleset_on(system=system, day=dt.date(2000, 6, 30)).ruleset == "fide-2000"
    assert system_ruleset_on(system=system, day=dt.date(2000, 7, 1)).ruleset == "cnxc-2000"
    # No period yet: the system's own regulation starts the day before the new entry.
    assert [e.effective_from for e in system_timeline(system=system)] == [
        dt.date(2000, 6, 30),
        dt.date(2000, 7, 1),
    ]
    system.refresh_from_db()
    assert system.ruleset == "cnxc-2000"  # the field names the newest entry


def test_system_without_entries_is_its_own_single_entry():
    system = make_system(ruleset="feda-1996", cycle="semestral", parameters={})
    got = system_ruleset_on(system=system, day=dt.date(1990, 1, 1))
    assert (got.ruleset, got.effective_from) == ("feda-1996", None)


def test_an_entry_changing_a_published_period_is_refused():
    system = make_system(ruleset="fide-2000", cycle="monthly")
    published = make_period(system, dt.date(2026, 11, 1), status=PeriodStatus.PUBLISHED)
    make_tournament(system, make_user(), start_date=dt.date(2026, 11, 10), period=published)
    # A tournament of the published November period started on 10 November: an entry from that
    # day (or before) would change the regulation it was rated under.
    for day in (dt.date(2026, 11, 10), dt.date(2026, 11, 2)):
        with pytest.raises(Refused, match="published period"):
            system_ruleset_add(system=system, ruleset="fide-2024", effective_from=day)
    assert SystemRuleset.objects.filter(system=system, ruleset="fide-2024").count() == 0
    # From the 11th on it started before: accepted.
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=dt.date(2026, 11, 11))
    assert system_ruleset_on(system=system, day=dt.date(2026, 11, 10)).ruleset == "fide-2000"


def test_the_same_day_twice_and_bad_parameters_are_refused():
    system = make_system(ruleset="fide-2024")
    system_ruleset_add(system=system, ruleset="fide-2000", effective_from=dt.date(2027, 1, 1))
    with pytest.raises(Refused, match="already has an entry"):
        system_ruleset_add(system=system, ruleset="fide-2024", effective_from=dt.date(2027, 1, 1))
    with pytest.raises(Refused):
        system_ruleset_add(
            system=system,
            ruleset="fide-2024",
            effective_from=dt.date(2027, 2, 1),
            parameters={"no_such_parameter": 1},
        )
    with pytest.raises(Refused, match="Unknown"):
        system_ruleset_add(system=system, ruleset="fide-1970", effective_from=dt.date(2027, 3, 1))


def test_a_calculated_period_whose_regulation_changes_is_marked_for_recalculation():
    system = make_system(ruleset="fide-2024")
    calculated = make_period(system, dt.date(2026, 11, 1), status=PeriodStatus.CALCULATED)
    make_tournament(
        system,
        make_user(),
        start_date=dt.date(2026, 11, 20),
        end_date=dt.date(2026, 11, 22),
        period=calculated,
    )
    system_ruleset_add(system=system, ruleset="fide-2000", effective_from=dt.date(2026, 11, 15))
    calculated.refresh_from_db()
    assert calculated.needs_recalculation


def test_the_calculation_rates_under_the_regulation_of_the_start_day(
    django_capture_on_commit_callbacks,
):
    # build(): a fide-2024 system, its November 2026 period, a tournament from 10 November.
    system, period, players, _t = build()
    officer = make_user(role=RATING_OFFICER)
    # fide-2000 from 1 December: the system's field now names fide-2000, but the tournament
    # started in November, under fide-2024 (0.1).
    system_ruleset_add(
        system=system, ruleset="fide-2000", effective_from=dt.date(2026, 12, 1), user=officer
    )
    system.refresh_from_db()
    assert system.ruleset == "fide-2000"
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert run.ruleset == "fide-2024"
    a = DraftResult.objects.get(run=run, player=players[0])
    # fide-2024 8.3: 2000 beats 2100, D = -100 -> 0.36, K = 20 -> +12.8 -> +13.
    assert (a.rating_after, a.change, a.k, a.ruleset) == (2013, 13, 20, "fide-2024")
    assert a.regulation_version.startswith("fide-2024/")


def test_a_tournament_starting_on_the_effective_day_is_rated_under_the_new_rules(
    django_capture_on_commit_callbacks,
):
    system, period, players, _t = build()
    # fide-2000 from 10 November, the tournament's first day ("a partir de esa fecha").
    system_ruleset_add(system=system, ruleset="fide-2000", effective_from=dt.date(2026, 11, 10))
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    assert run.ruleset == "fide-2000"
    a = DraftResult.objects.get(run=run, player=players[0])
    # fide-2000 10.5: 2000 beats 2100, D = -100 -> We = 0.36 (table 10.1b); K = 15 (50 games,
    # under 2400); 15 x (1 - 0.36) = 9.6 -> 2009.6 -> 2010.
    assert (a.rating_after, a.change, a.k, a.ruleset) == (2010, 10, 15, "fide-2000")


def test_a_period_mixing_two_regulations_is_refused():
    system, period, _players, _t = build()  # one tournament from 10 November
    make_tournament(
        system,
        make_user(),
        start_date=dt.date(2026, 11, 20),
        end_date=dt.date(2026, 11, 22),
        status="validated",
        period=period,
    )
    system_ruleset_add(system=system, ruleset="fide-2000", effective_from=dt.date(2026, 11, 15))
    period_services.period_close(period=period)
    with pytest.raises(Refused, match="two regulation sets"):
        runs.calculation_request(period=period, enqueue=False)
