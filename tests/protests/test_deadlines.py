"""Protest and appeal deadlines at their edges, in the federation's time zone
(settings.FEDERATION_TIME_ZONE, Europe/Madrid by default): 23:59:59 of the last day accepted,
00:00:00 of the next refused, across the changes of summer time (2026: 29 March and 25
October in the EU). The expected days are read from the articles (fce 9.3: 25 days, the
publication day the first; cnxc-2000 4.3: 30 days after publication, appeal 7 days after the
decision), the expected instants written in UTC by hand. No database: unsaved objects."""

from __future__ import annotations

import datetime as dt

import pytest

from periods.models import RatingSystem
from protests.deadlines import appeal_window, protest_window
from protests.models import Protest
from rating_engine.registry import get_regulation
from rating_engine.regulations import cnxc_2000, fce
from ratings.models import PublishedList

UTC = dt.UTC


def _list(ruleset: str, published_at: dt.datetime, protest_days: int = 30) -> PublishedList:
    system = RatingSystem(ruleset=ruleset, protest_days=protest_days)
    return PublishedList(system=system, ruleset=ruleset, published_at=published_at)


def _edges(closes_utc: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """(23:59:59 of the last day, 00:00:00 of the next), both as UTC instants."""
    return closes_utc - dt.timedelta(seconds=1), closes_utc


def test_fce_25_days_with_the_publication_day_first_across_the_spring_change() -> None:
    # Published 5 March 2026, 10:00 in Madrid (UTC+1): day 1 is 5 March, day 25 is 29 March,
    # the day summer time starts (UTC+2). Closes 30 March 00:00 Madrid = 29 March 22:00 UTC.
    window = protest_window(published=_list("fce", dt.datetime(2026, 3, 5, 9, 0, tzinfo=UTC)))
    assert (window.days, window.article) == (25, "fce 9.3")
    assert window.last_day == dt.date(2026, 3, 29)
    last_second, midnight = _edges(dt.datetime(2026, 3, 29, 22, 0, tzinfo=UTC))
    assert window.closes_at == midnight
    assert window.accepts(last_second)
    assert not window.accepts(midnight)


def test_cnxc_30_days_after_publication_across_the_autumn_change() -> None:
    # Published 1 October 2026 in Lisbon's or Madrid's summer; 30 days after: 31 October, in
    # winter time (UTC+1 in Madrid). Closes 1 November 00:00 Madrid = 31 October 23:00 UTC.
    window = protest_window(
        published=_list("cnxc-2000", dt.datetime(2026, 10, 1, 8, 0, tzinfo=UTC))
    )
    assert (window.days, window.article) == (30, "cnxc-2000 4.3")
    assert window.last_day == dt.date(2026, 10, 31)
    last_second, midnight = _edges(dt.datetime(2026, 10, 31, 23, 0, tzinfo=UTC))
    assert window.accepts(last_second) and not window.accepts(midnight)


@pytest.mark.parametrize("ruleset", ["fide-2024", "fide-2000", "feda-1996"])
def test_other_regulations_use_the_rating_systems_configured_days(ruleset: str) -> None:
    # No protest article: the rating system's protest_days (the office's default 30, here 10),
    # counted from the day after publication. Published 15 January: last day 25 January.
    window = protest_window(
        published=_list(ruleset, dt.datetime(2026, 1, 15, 12, 0, tzinfo=UTC), protest_days=10)
    )
    assert (window.days, window.article, window.last_day) == (10, "", dt.date(2026, 1, 25))
    last_second, midnight = _edges(dt.datetime(2026, 1, 25, 23, 0, tzinfo=UTC))
    assert window.accepts(last_second) and not window.accepts(midnight)


def test_the_publication_day_is_the_federations_day_not_utcs() -> None:
    # 14 January 23:30 UTC is already 15 January 00:30 in Madrid: fce day 1 is 15 January.
    window = protest_window(published=_list("fce", dt.datetime(2026, 1, 14, 23, 30, tzinfo=UTC)))
    assert window.last_day == dt.date(2026, 2, 8)


def test_the_federations_time_zone_setting_moves_the_edges(settings) -> None:
    published = _list("fce", dt.datetime(2026, 3, 5, 9, 0, tzinfo=UTC))
    settings.FEDERATION_TIME_ZONE = "Europe/Lisbon"  # UTC+1 from 29 March
    window = protest_window(published=published)
    assert window.last_day == dt.date(2026, 3, 29)
    last_second, midnight = _edges(dt.datetime(2026, 3, 29, 23, 0, tzinfo=UTC))
    assert window.accepts(last_second) and not window.accepts(midnight)


def test_cnxc_appeal_7_days_after_the_decision_across_the_spring_change() -> None:
    # Decided 22 March 2026, 20:00 Madrid (winter): last day 29 March (summer time).
    published = _list("cnxc-2000", dt.datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    protest = Protest(
        published_list=published, decided_at=dt.datetime(2026, 3, 22, 19, 0, tzinfo=UTC)
    )
    window = appeal_window(protest=protest)
    assert window is not None
    assert (window.days, window.article, window.last_day) == (
        7,
        "cnxc-2000 4.3",
        dt.date(2026, 3, 29),
    )
    last_second, midnight = _edges(dt.datetime(2026, 3, 29, 22, 0, tzinfo=UTC))
    assert window.accepts(last_second) and not window.accepts(midnight)


@pytest.mark.parametrize("ruleset", ["fce", "fide-2024"])
def test_no_appeal_where_the_regulation_has_none(ruleset: str) -> None:
    published = _list(ruleset, dt.datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    decided = Protest(published_list=published, decided_at=dt.datetime(2026, 3, 2, tzinfo=UTC))
    assert appeal_window(protest=decided) is None


def test_the_facts_count_the_days_as_the_regulation_modules_do() -> None:
    day = dt.date(2026, 4, 1)
    fce_lists = get_regulation("fce").facts.lists
    cnxc_lists = get_regulation("cnxc-2000").facts.lists
    assert fce_lists.protest_last_day(day, 25) == fce.protest_deadline(day) == dt.date(2026, 4, 25)
    assert cnxc_lists.protest_last_day(day, 30) == cnxc_2000.protest_deadline(day)
    assert cnxc_lists.appeal_last_day(day) == cnxc_2000.appeal_deadline(day) == dt.date(2026, 4, 8)
