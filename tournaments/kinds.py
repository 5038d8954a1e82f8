"""The kinds of competition a tournament may be, as its regulation names them
(``facts.competition`` of the engine's regulation module): the choices of the forms, the
refusal of a kind the regulation does not name, and what a kind implies (a national
championship for feda-1996 9.4, the rated players of fide-2000 6.33 / feda-1996 7.33, the
virtual rating of cnxc-2000 5.3). Apps ask here, never compare a ruleset id or a kind's id.

A tournament's kinds are those of the regulation set in force on its start day (the system's
timeline, periods.rulesets: fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1), not the system's
newest one: `tournament_ruleset`."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from rating_engine.registry import all_regulations, get_regulation
from rating_engine.regulations.base import CompetitionFacts, CompetitionKind

if TYPE_CHECKING:
    from tournaments.models import Tournament


def tournament_ruleset(*, system: RatingSystem, start: dt.date | None) -> str:
    """The regulation set of a tournament of `system` starting on `start`: the timeline's entry
    in force that day (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1); today when the start is
    not known yet."""
    return system_ruleset_on(system=system, day=start or timezone.localdate()).ruleset


def tournament_ruleset_in_force(*, tournament: Tournament) -> str:
    """The regulation set of `tournament` (its start day on the system's timeline): what its
    decisions, substitutions, norm winner and report follow, rather than the system's newest."""
    return tournament_ruleset(system=tournament.rating_system, start=tournament.start_date)


def _ruleset_of(tournament: Tournament) -> str:
    return tournament_ruleset_in_force(tournament=tournament)


def competition_facts(*, ruleset: str) -> CompetitionFacts:
    return get_regulation(ruleset).facts.competition


def kind_choices(*, ruleset: str) -> list[tuple[str, str]]:
    """The kinds ``ruleset`` names, as (id, translated label), in its order."""
    kinds = competition_facts(ruleset=ruleset).kinds
    return [(k.id, _(k.label)) for k in kinds.value] if kinds is not None else []


def kind_grouped_choices() -> list[tuple[str, Any]]:
    """Every regulation's kinds, grouped under the regulation's name (a form's <optgroup>);
    the first choice is none, "" (any other competition)."""
    out: list[tuple[str, Any]] = [("", _("None of these (any other competition)"))]
    for ruleset, regulation in sorted(all_regulations().items()):
        choices = kind_choices(ruleset=ruleset)
        if choices:
            out.append((_(regulation.label), choices))
    return out


def kind_ids() -> list[str]:
    """Every kind any regulation names, once ("" is none): the API's choices."""
    ids = {
        k.id
        for regulation in all_regulations().values()
        if regulation.facts.competition.kinds is not None
        for k in regulation.facts.competition.kinds.value
    }
    return ["", *sorted(ids)]


def kind_known(*, ruleset: str, kind: str) -> CompetitionKind | None:
    return competition_facts(ruleset=ruleset).kind(kind)


def kind_refusal(*, ruleset: str, kind: str) -> str | None:
    """Why ``kind`` cannot be the kind of a tournament of ``ruleset``; None when it can."""
    if not kind or kind_known(ruleset=ruleset, kind=kind) is not None:
        return None
    names = ", ".join(label for _id, label in kind_choices(ruleset=ruleset))
    if not names:
        return _(
            "The regulation of this rating system names no kinds of competition: leave it empty."
        )
    return _("The regulation of this rating system names these kinds: %(kinds)s.") % {
        "kinds": names
    }


def tournament_kind(
    *, tournament: Tournament, ruleset: str | None = None
) -> CompetitionKind | None:
    """The tournament's kind as its regulation names it (None: none, or not named there).
    `ruleset`: its regulation set when the caller knows it already (a calculation's), else the
    one in force on its start day."""
    return kind_known(ruleset=ruleset or _ruleset_of(tournament), kind=tournament.kind)


def tournament_is_national_championship(
    *, tournament: Tournament, ruleset: str | None = None
) -> bool:
    """The flag, or a kind its regulation calls a national championship (feda-1996 9.4,
    fide-2000 6.33): what the engine receives as ``national_championship``. `ruleset` as
    `tournament_kind`'s."""
    if tournament.national_championship:
        return True
    kind = tournament_kind(tournament=tournament, ruleset=ruleset) if tournament.kind else None
    return kind is not None and kind.national


def tournament_virtual_rating(*, tournament: Tournament) -> tuple[int, str] | None:
    """The virtual rating an unrated opponent without ICCF, FPX or FIDE rating gets in the
    tournament, and its article (cnxc-2000 5.3); None where the regulation has none."""
    facts = competition_facts(ruleset=_ruleset_of(tournament))
    kind = facts.kind(tournament.kind)
    if kind is not None and kind.virtual_rating is not None and facts.kinds is not None:
        return kind.virtual_rating, facts.kinds.article
    if facts.other_virtual_rating is not None:
        return facts.other_virtual_rating.value, facts.other_virtual_rating.article
    return None
