"""Which regulation set rates a period (docs/periods.md, "Effective dates").

Each tournament is rated under the regulation in force on its start day (fide-2024 0.1,
fide-2000 0.1.1, cnxc-2000 8.1: new rules apply to tournaments starting on or after their
effective date; `periods.rulesets.system_ruleset_on`).

DECISION: the engine rates a period as a whole — one K per player for the period and its cap
over all the period's games (fide-2024 8.3.3, 8.3.4: "K × ΣΔR for the tournament or period"),
one new rating from the sum of the period's changes (fide-2000 10.5, feda-1996 9.55,
cnxc-2000 6.5), first ratings pooled over the period's games (fide-2024 8.2, fide-2000 10.2).
No article says how a period would combine two regulations' results for one player, so a
period is rated under the one regulation set its tournaments share, and a period whose
tournaments start under two is refused with a sentence naming both: the officer sets the
entry's date to a period's start (the natural reading of "tournaments starting on or after":
every tournament starting in a later period falls under the new rules), or waits until the
tournaments started under the old rules have been rated. A period with no tournament takes
the regulation in force on its first day.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import Refused
from periods.models import RatingPeriod, RatingSystem
from periods.rulesets import RulesetInForce, system_ruleset_on, system_timeline
from ratings.calculation.period_games import period_tournaments_q
from ratings.calculation.states import RATED_TOURNAMENT_STATUSES
from tournaments.models import Tournament


def tournaments_ruleset_in_force(
    *, system: RatingSystem, tournaments: Iterable[Any], fallback_day: Any
) -> RulesetInForce:
    """The one regulation set (with its parameters) the tournaments' start days fall under;
    `Refused` when they fall under two (this module's DECISION)."""
    timeline = system_timeline(system=system)
    found: dict[tuple[str, str], tuple[RulesetInForce, Any]] = {}
    for t in sorted(tournaments, key=lambda t: (t.start_date, t.pk)):
        in_force = system_ruleset_on(system=system, day=t.start_date, timeline=timeline)
        key = (in_force.ruleset, json.dumps(in_force.parameters, sort_keys=True, default=str))
        found.setdefault(key, (in_force, t))
    if not found:
        return system_ruleset_on(system=system, day=fallback_day, timeline=timeline)
    if len(found) == 1:
        return next(iter(found.values()))[0]
    (first, t1), (second, t2), *_rest = found.values()
    raise Refused(
        _(
            "This period holds tournaments under two regulation sets: %(first)s started on "
            "%(day1)s under %(ruleset1)s, %(second)s on %(day2)s under %(ruleset2)s (fide-2024 "
            "0.1, fide-2000 0.1.1, cnxc-2000 8.1: a regulation applies to tournaments starting "
            "on or after its date). A period is rated as a whole under one regulation set: "
            "move the timeline's date to a period's start, or rate the older tournaments first."
        )
        % {
            "first": t1.name,
            "day1": date_format(t1.start_date, "SHORT_DATE_FORMAT"),
            "ruleset1": first.ruleset,
            "second": t2.name,
            "day2": date_format(t2.start_date, "SHORT_DATE_FORMAT"),
            "ruleset2": second.ruleset,
        }
    )


def period_ruleset_in_force(*, period: RatingPeriod) -> RulesetInForce:
    """The regulation set a period is rated under: that of its rated tournaments' start days
    (`tournaments_ruleset_in_force`)."""
    tournaments = (
        Tournament.objects.filter(
            period_tournaments_q(period_id=period.pk), status__in=RATED_TOURNAMENT_STATUSES
        )
        .distinct()
        .only("pk", "name", "start_date")
    )
    return tournaments_ruleset_in_force(
        system=period.system, tournaments=tournaments, fallback_day=period.start
    )
