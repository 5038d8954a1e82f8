"""The kinds of competition a tournament may be, as its regulation names them
(``facts.competition`` of the engine's regulation module): the choices of the forms, the
refusal of a kind the regulation does not name, and what a kind implies (a national
championship for feda-1996 9.4, the rated players of fide-2000 6.33 / feda-1996 7.33, the
virtual rating of cnxc-2000 5.3). Apps ask here, never compare a ruleset id or a kind's id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from rating_engine.registry import all_regulations, get_regulation
from rating_engine.regulations.base import CompetitionFacts, CompetitionKind

if TYPE_CHECKING:
    from tournaments.models import Tournament


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


def tournament_kind(*, tournament: Tournament) -> CompetitionKind | None:
    """The tournament's kind as its regulation names it (None: none, or not named there)."""
    return kind_known(ruleset=tournament.rating_system.ruleset, kind=tournament.kind)


def tournament_is_national_championship(*, tournament: Tournament) -> bool:
    """The flag, or a kind its regulation calls a national championship (feda-1996 9.4,
    fide-2000 6.33): what the engine receives as ``national_championship``."""
    kind = tournament_kind(tournament=tournament)
    return tournament.national_championship or (kind is not None and kind.national)


def tournament_virtual_rating(*, tournament: Tournament) -> tuple[int, str] | None:
    """The virtual rating an unrated opponent without ICCF, FPX or FIDE rating gets in the
    tournament, and its article (cnxc-2000 5.3); None where the regulation has none."""
    facts = competition_facts(ruleset=tournament.rating_system.ruleset)
    kind = facts.kind(tournament.kind)
    if kind is not None and kind.virtual_rating is not None and facts.kinds is not None:
        return kind.virtual_rating, facts.kinds.article
    if facts.other_virtual_rating is not None:
        return facts.other_virtual_rating.value, facts.other_virtual_rating.article
    return None
