"""The levels of event a regulation names for its chief arbiter's category (feda-1996 1.1,
``facts.arbiters`` of the engine's regulation module): the forms' choices, the refusal of a
level the regulation does not name. Apps ask here, never compare a ruleset id."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rating_engine.registry import all_regulations, get_regulation
from rating_engine.regulations.base import ArbiterFacts


def arbiter_facts(*, ruleset: str) -> ArbiterFacts:
    return get_regulation(ruleset).facts.arbiters


def level_choices(*, ruleset: str) -> list[tuple[str, str]]:
    """The levels ``ruleset`` names, as (id, translated label), in its order."""
    rule = arbiter_facts(ruleset=ruleset).directed_by
    return [(lv.id, _(lv.label)) for lv in rule.value] if rule is not None else []


def level_grouped_choices() -> list[tuple[str, Any]]:
    """Every regulation's levels grouped under its name; the first choice is "" (not given)."""
    out: list[tuple[str, Any]] = [("", _("Not given"))]
    for ruleset, regulation in sorted(all_regulations().items()):
        choices = level_choices(ruleset=ruleset)
        if choices:
            out.append((_(regulation.label), choices))
    return out


def level_ids() -> list[str]:
    """Every level any regulation names, once ("" is none): the API's choices."""
    ids = {
        lv.id
        for regulation in all_regulations().values()
        if regulation.facts.arbiters.directed_by is not None
        for lv in regulation.facts.arbiters.directed_by.value
    }
    return ["", *sorted(ids)]


def level_refusal(*, ruleset: str, level: str) -> str | None:
    """Why ``level`` cannot be a tournament's of ``ruleset``; None when it can."""
    if not level or arbiter_facts(ruleset=ruleset).level(level) is not None:
        return None
    names = ", ".join(label for _id, label in level_choices(ruleset=ruleset))
    if not names:
        return _("The regulation of this rating system names no levels of event: leave it empty.")
    return _("The regulation of this rating system names these levels: %(levels)s.") % {
        "levels": names
    }


def level_label(*, ruleset: str, level: str) -> str:
    """The level's name, translated; the id itself when the regulation does not name it."""
    return dict(level_choices(ruleset=ruleset)).get(level, level)
