"""Reads of the scale's health (feda-1996 11.1-11.2, fide-2000 12.1-12.3): a system's figures
across its lists (the current version of each period's list), one list's figures by region and
age band, the drift check, and the yearly report for the commission."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from rating_engine.registry import get_regulation
from ratings.models import ListStatistics, PublishedList, ScaleMonitoring, StatisticsScope

#: The officer's settings when he has set none (ratings.models.ScaleMonitoring's defaults).
DEFAULT_THRESHOLD = 10.0
DEFAULT_LISTS = 4


@dataclass(frozen=True)
class Drift:
    """How far the watched group's average moved over the last ``lists`` lists."""

    system: RatingSystem
    article: str
    group_size: int
    threshold: float
    lists: int
    before: float
    before_date: dt.date
    after: float
    after_date: dt.date
    newest_list_id: int

    @property
    def moved(self) -> float:
        return self.after - self.before

    @property
    def exceeded(self) -> bool:
        return abs(self.moved) > self.threshold


def statistics_series(
    *, system: RatingSystem, scope: str = StatisticsScope.ALL, group: str = ""
) -> QuerySet[ListStatistics]:
    """The figures of each of the system's lists, oldest first: the current version of each
    period's list (a correction replaces the version it corrects)."""
    later_version = PublishedList.objects.filter(
        period_id=OuterRef("published_list__period_id"),
        version__gt=OuterRef("published_list__version"),
    )
    return (
        ListStatistics.objects.filter(system=system, scope=scope, group=group)
        .exclude(Exists(later_version))
        .select_related("published_list__period")
        .order_by("list_date", "published_list__version")
    )


def statistics_of_list(*, published: PublishedList) -> dict[str, list[ListStatistics]]:
    """One list's figures by scope ("all", "region", "age"), each in its group's order."""
    rows: dict[str, list[ListStatistics]] = {s: [] for s in StatisticsScope.values}
    for row in ListStatistics.objects.filter(published_list=published).order_by("scope", "group"):
        rows[row.scope].append(row)
    return rows


def scale_monitoring_of(*, system: RatingSystem) -> ScaleMonitoring:
    """The system's drift settings, or the defaults (unsaved) when the officer set none."""
    found = ScaleMonitoring.objects.filter(system=system).first()
    if found is not None:
        return found
    return ScaleMonitoring(system=system, threshold=DEFAULT_THRESHOLD, lists=DEFAULT_LISTS)


def monitoring_article(
    *, system: RatingSystem, day: dt.date | None = None
) -> tuple[int, str] | None:
    """The watched group's size and the article that asks for the watch
    (facts.lists.scale_monitoring) under the regulation set in force on ``day`` (today when
    None) in the system's timeline (periods.rulesets); None when it asks for none."""
    in_force = system_ruleset_on(system=system, day=day or timezone.localdate())
    rule = get_regulation(in_force.ruleset).facts.lists.scale_monitoring
    if rule is None:
        return None
    return rule.value, rule.article


def drift_check(*, system: RatingSystem) -> Drift | None:
    """The top-50 average of the newest list against the one ``lists`` lists before it
    (feda-1996 11.1, fide-2000 12.3; the officer's threshold and number of lists). None when
    the regulation of the newest list's period (in force on its first day) asks for no watch
    or there are not enough lists with figures yet."""
    monitoring = scale_monitoring_of(system=system)
    series = list(statistics_series(system=system).filter(top50__isnull=False))
    if len(series) <= monitoring.lists:
        return None
    newest, oldest = series[-1], series[-1 - monitoring.lists]
    watch = monitoring_article(system=system, day=newest.published_list.period.start)
    if watch is None:
        return None
    size, article = watch
    assert newest.top50 is not None and oldest.top50 is not None  # filtered above
    return Drift(
        system=system,
        article=article,
        group_size=size,
        threshold=monitoring.threshold,
        lists=monitoring.lists,
        before=oldest.top50,
        before_date=oldest.list_date,
        after=newest.top50,
        after_date=newest.list_date,
        newest_list_id=newest.published_list_id,
    )


def drift_alerts() -> list[Drift]:
    """Every active system whose top-50 average moved more than its threshold (the desk)."""
    alerts = []
    for system in RatingSystem.objects.filter(is_active=True).order_by("name"):
        drift = drift_check(system=system)
        if drift is not None and drift.exceeded:
            alerts.append(drift)
    return alerts


@dataclass(frozen=True)
class YearReport:
    """The yearly report for the commission: the figures of the year's lists, the newest one
    by region and age band, and the top-50 average's movement over the year."""

    system: RatingSystem
    year: int
    lists: list[ListStatistics]
    newest: dict[str, list[ListStatistics]]
    moved: float | None
    drift: Drift | None
    watch: tuple[int, str] | None


def year_report(*, system: RatingSystem, year: int) -> YearReport:
    lists = list(statistics_series(system=system).filter(list_date__year=year))
    newest = statistics_of_list(published=lists[-1].published_list) if lists else {}
    moved = None
    tops = [row.top50 for row in lists if row.top50 is not None]
    if len(tops) >= 2:
        moved = tops[-1] - tops[0]
    return YearReport(
        system=system,
        year=year,
        lists=lists,
        newest=newest,
        moved=moved,
        drift=drift_check(system=system),
        # the regulation of the year's newest list (in force on its period's first day)
        watch=monitoring_article(
            system=system,
            day=lists[-1].published_list.period.start if lists else dt.date(year, 12, 31),
        ),
    )


def statistics_years(*, system: RatingSystem) -> list[int]:
    """The years with lists that have figures, newest first."""
    dates = ListStatistics.objects.filter(system=system, scope=StatisticsScope.ALL).dates(
        "list_date", "year", order="DESC"
    )
    return [d.year for d in dates]
