"""A rating system's timeline of regulation sets (docs/periods.md, "Effective dates").

fide-2024 0.1 ("entra en vigor el 1 de marzo de 2024 ... se aplicará a los torneos que comiencen
en esa fecha o después"), fide-2000 0.1.1 and cnxc-2000 8.1: new rules apply to the tournaments
*starting* on or after their effective date. So the regulation of a tournament is the one of the
timeline's entry with the latest date on or before its start; the first entry also covers any
earlier day (before it the system had no other).

DECISION: `RatingSystem.ruleset` (and `.parameters`) stays as the system's *newest* regulation
set, the one of its latest entry, kept so by `system_ruleset_add`; it names the system (its
list of systems, the API's `ruleset`). Every reading of a regulation's facts asks
`system_ruleset_on(system=, day=)` for the day at hand: a tournament's start day (its kinds and
levels, tournaments.kinds), a period's or a list's dates, the calculator's date, and today
where no day is in view (the system's page, the differential's and the statistics' pages). A
system with no entry yet (created in code, before its first entry is written) is its own single
entry.

Reads (`system_timeline`, `system_ruleset_on`) and the one write (`system_ruleset_add`) live
here together: they share the rule of which entry covers a day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import Refused
from core.messages import stored_message
from periods.models import PeriodStatus, RatingPeriod, RatingSystem, SystemRuleset
from rating_engine.errors import EngineInputError
from rating_engine.registry import all_regulations, get_regulation


@dataclass(frozen=True)
class RulesetInForce:
    """The regulation set (and its parameters) that applies on a day; `effective_from` is the
    entry's date (None: the system has no entry yet, its own regulation set from always)."""

    ruleset: str
    parameters: dict[str, Any] = field(default_factory=dict)
    effective_from: dt.date | None = None


def system_timeline(*, system: RatingSystem) -> list[SystemRuleset]:
    """The system's entries, oldest first (what its page and the API show)."""
    return list(system.rulesets.select_related("created_by").order_by("effective_from", "id"))


def _entry_in_force(*, system: RatingSystem, entry: SystemRuleset) -> RulesetInForce:
    if entry.parameters is not None:
        parameters = dict(entry.parameters)
    elif entry.ruleset == system.ruleset:
        parameters = dict(system.parameters or {})
    else:
        parameters = {}
    return RulesetInForce(
        ruleset=entry.ruleset, parameters=parameters, effective_from=entry.effective_from
    )


def _covering(entries: Sequence[SystemRuleset], day: dt.date) -> SystemRuleset:
    chosen = entries[0]  # the first entry also covers any earlier day
    for entry in entries:
        if entry.effective_from <= day:
            chosen = entry
    return chosen


def system_ruleset_on(
    *, system: RatingSystem, day: dt.date, timeline: Sequence[SystemRuleset] | None = None
) -> RulesetInForce:
    """The regulation set that applies to a tournament of `system` starting on `day`
    (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1). `timeline`: the entries already read
    (`system_timeline`), to ask about many days with one query."""
    entries = list(timeline) if timeline is not None else system_timeline(system=system)
    if not entries:
        return RulesetInForce(ruleset=system.ruleset, parameters=dict(system.parameters or {}))
    return _entry_in_force(system=system, entry=_covering(entries, day))


def _validated_parameters(*, ruleset: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """The parameters as the regulation types them, its defaults filled in (as
    `RatingSystem.clean`); a bad value is refused naming the field."""
    try:
        regulation = get_regulation(ruleset)
        regulation.parameters_from(parameters)
        return dict(regulation.validate_parameters(parameters))
    except EngineInputError as exc:
        problem = stored_message(exc.template, exc.params)
        where = exc.location.removeprefix("parameters").lstrip(".")
        raise Refused(f"{where}: {problem}" if where else problem) from None


def _published_start_days(*, system: RatingSystem) -> dict[dt.date, RatingPeriod]:
    """The start days of the tournaments of the system's published periods, each with one of
    those periods (to name it in a refusal). Through the reverse relation: the tournaments app
    sits above this one."""
    days: dict[dt.date, RatingPeriod] = {}
    periods = {
        p.pk: p for p in system.periods.filter(status=PeriodStatus.PUBLISHED).order_by("start")
    }
    if not periods:
        return days
    rows = (
        RatingPeriod.objects.filter(pk__in=list(periods), tournaments__start_date__isnull=False)
        .order_by()
        .values_list("pk", "tournaments__start_date")
        .distinct()
    )
    for period_id, day in rows:
        days.setdefault(day, periods[period_id])
    return days


def _timeline_planned(*, system: RatingSystem, effective_from: dt.date) -> list[SystemRuleset]:
    """The system's entries; for a system without any, its own regulation set as a first entry
    (unsaved) from its first period's start, or the day before the new entry: the earlier days
    keep the system's regulation set."""
    entries = system_timeline(system=system)
    if entries:
        return entries
    first_period = system.periods.order_by("start").first()
    first_day = (
        effective_from - dt.timedelta(days=1) if effective_from > dt.date.min else effective_from
    )
    if first_period is not None and first_period.start < effective_from:
        first_day = first_period.start
    return [SystemRuleset(system=system, ruleset=system.ruleset, effective_from=first_day)]


def _entry_checked(
    *,
    system: RatingSystem,
    entries: list[SystemRuleset],
    ruleset: str,
    effective_from: dt.date,
    parameters: dict[str, Any] | None,
) -> SystemRuleset:
    if ruleset not in all_regulations():
        raise Refused(_("Unknown regulation set: %(ruleset)s.") % {"ruleset": ruleset})
    if any(e.effective_from == effective_from for e in entries):
        raise Refused(
            _("The timeline already has an entry from %(day)s.")
            % {"day": date_format(effective_from, "SHORT_DATE_FORMAT")}
        )
    checked = _validated_parameters(ruleset=ruleset, parameters=dict(parameters or {}))
    new = SystemRuleset(
        system=system, ruleset=ruleset, effective_from=effective_from, parameters=checked
    )
    _refuse_published_change(system=system, entries=entries, new=new)
    return new


def system_ruleset_check(
    *,
    system: RatingSystem,
    ruleset: str,
    effective_from: dt.date,
    parameters: dict[str, Any] | None = None,
) -> None:
    """What `system_ruleset_add` would refuse, without writing (the admin's form asks)."""
    entries = _timeline_planned(system=system, effective_from=effective_from)
    _entry_checked(
        system=system,
        entries=entries,
        ruleset=ruleset,
        effective_from=effective_from,
        parameters=parameters,
    )


def system_ruleset_add(
    *,
    system: RatingSystem,
    ruleset: str,
    effective_from: dt.date,
    parameters: dict[str, Any] | None = None,
    user: Any = None,
) -> SystemRuleset:
    """Add an entry to the system's timeline: from `effective_from` on, tournaments starting
    on or after it are rated under `ruleset` (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1).

    Refused (`Refused`, a sentence naming the period) when it would change the regulation set
    or its parameters for a tournament of a period already published: a published list is not
    re-rated by a change of rules (a correction is its own act, docs/periods.md). Refused too
    for an unknown regulation set, bad parameters, or a day that already has an entry. A
    calculated period whose regulation changes is marked for recalculation. The system's row
    is locked so two officers adding at once are checked one after the other.
    """
    with transaction.atomic():
        system = RatingSystem.objects.select_for_update().get(pk=system.pk)
        entries = _timeline_planned(system=system, effective_from=effective_from)
        new = _entry_checked(
            system=system,
            entries=entries,
            ruleset=ruleset,
            effective_from=effective_from,
            parameters=parameters,
        )
        for entry in entries:
            if entry.pk is None:  # the system's own regulation set becomes its first entry
                entry.save()
        if effective_from > entries[-1].effective_from:
            _system_newest_set(system=system, entries=entries, new=new)
        new.created_by = user if getattr(user, "is_authenticated", False) else None
        new.save()
        _mark_calculated_changes(system=system, before=entries, after=[*entries, new])
    return new


def _refuse_published_change(
    *, system: RatingSystem, entries: list[SystemRuleset], new: SystemRuleset
) -> None:
    after = sorted([*entries, new], key=lambda e: e.effective_from)
    for day, period in sorted(_published_start_days(system=system).items()):
        old = system_ruleset_on(system=system, day=day, timeline=entries)
        now = _entry_in_force(system=system, entry=_covering(after, day))
        if (old.ruleset, old.parameters) != (now.ruleset, now.parameters):
            raise Refused(
                _(
                    "Refused: a tournament of the published period %(period)s started on "
                    "%(day)s, so this entry would change the regulation it was rated under. A new "
                    "regulation applies to tournaments starting on or after its date (fide-2024 "
                    "0.1, fide-2000 0.1.1, cnxc-2000 8.1); choose a later date."
                )
                % {"period": period, "day": date_format(day, "SHORT_DATE_FORMAT")}
            )


def _system_newest_set(
    *, system: RatingSystem, entries: list[SystemRuleset], new: SystemRuleset
) -> None:
    """The new entry is the latest: the system's fields become its regulation set. The earlier
    entries that read the system's parameters keep them, written into the entry."""
    frozen = dict(system.parameters or {})
    SystemRuleset.objects.filter(
        pk__in=[e.pk for e in entries if e.parameters is None and e.ruleset == system.ruleset]
    ).update(parameters=frozen)
    for entry in entries:
        if entry.parameters is None and entry.ruleset == system.ruleset:
            entry.parameters = frozen
    system.ruleset = new.ruleset
    system.parameters = dict(new.parameters or {})
    system.save(update_fields=["ruleset", "parameters"])
    new.parameters = None  # the system's parameters from now on


def _mark_calculated_changes(
    *, system: RatingSystem, before: list[SystemRuleset], after: list[SystemRuleset]
) -> None:
    """A calculated (unpublished) period with a tournament whose regulation changed needs its
    calculation run again."""
    after = sorted(after, key=lambda e: e.effective_from)
    rows = (
        system.periods.filter(status=PeriodStatus.CALCULATED, tournaments__start_date__isnull=False)
        .order_by()
        .values_list("pk", "tournaments__start_date")
        .distinct()
    )
    changed = set()
    for period_id, day in rows:
        old = system_ruleset_on(system=system, day=day, timeline=before)
        now = system_ruleset_on(system=system, day=day, timeline=after)
        if (old.ruleset, old.parameters) != (now.ruleset, now.parameters):
            changed.add(period_id)
    if changed:
        RatingPeriod.objects.filter(pk__in=changed).update(needs_recalculation=True)
