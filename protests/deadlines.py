"""When a list may be protested and a decision appealed: the regulation's days, counted in
whole days of the federation's time zone (settings.FEDERATION_TIME_ZONE). A window is open
until 23:59:59.999… of its last day there, and closed from 00:00:00 of the next, whatever the
server's zone and across a change of summer time (docs/protests.md)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.conf import settings

from protests.models import Protest
from rating_engine.registry import get_regulation
from ratings.models import PublishedList


@dataclass(frozen=True)
class Window:
    """A deadline: ``last_day`` (in the federation's zone) is the last day accepted;
    ``closes_at`` is 00:00:00 of the next day there, the first moment refused."""

    days: int
    last_day: dt.date
    closes_at: dt.datetime
    #: The article that fixes the days, or "" for the office's default.
    article: str

    def accepts(self, moment: dt.datetime) -> bool:
        return moment < self.closes_at


def federation_zone() -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.FEDERATION_TIME_ZONE)


def local_day(moment: dt.datetime) -> dt.date:
    """The day ``moment`` falls on in the federation's time zone."""
    return moment.astimezone(federation_zone()).date()


def _closes_at(last_day: dt.date) -> dt.datetime:
    # Midnight exists on every day of the zones in use (summer time changes at 01:00-03:00);
    # zoneinfo gives the right offset for that date, summer or winter.
    return dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time(0), federation_zone())


def protest_window(*, published: PublishedList) -> Window:
    """fce 9.3: 25 days, the publication day the first; cnxc-2000 4.3: 30 days after the
    publication day; other regulations: the rating system's configured protest_days (the
    office's default, periods.models.OFFICE_PROTEST_DAYS), counted from the next day.
    DECISION: the regulation is the list's own (`PublishedList.ruleset`, the one it was
    calculated under), not the system's newest: a protest follows the rules of its list."""
    facts = get_regulation(published.ruleset).facts.lists
    rule = facts.protest_days
    days = published.system.protest_days if rule is None else rule.value
    last_day = facts.protest_last_day(local_day(published.published_at), days)
    return Window(
        days=days,
        last_day=last_day,
        closes_at=_closes_at(last_day),
        article="" if rule is None else rule.article,
    )


def appeal_window(*, protest: Protest) -> Window | None:
    """cnxc-2000 4.3: 7 days after the decision day. None: the regulation has no appeal, or
    the protest is not decided yet."""
    facts = get_regulation(protest.published_list.ruleset).facts.lists
    if facts.appeal_days is None or protest.decided_at is None:
        return None
    last_day = facts.appeal_last_day(local_day(protest.decided_at))
    assert last_day is not None  # appeal_days is set
    return Window(
        days=facts.appeal_days.value,
        last_day=last_day,
        closes_at=_closes_at(last_day),
        article=facts.appeal_days.article,
    )


def appeal_deposit_required(*, protest: Protest) -> bool:
    """cnxc-2000 4.3: the appeal brings a deposit equal to the membership fee in force."""
    facts = get_regulation(protest.published_list.ruleset).facts.lists
    return facts.appeal_deposit is not None
