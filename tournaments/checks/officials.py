"""Who directed the tournament: feda-1996 1.1, "los torneos deberán ser dirigidos por un
Arbitro Titulado, siendo la categoría del mismo equiparable a la de la competición a
disputar". The levels and the titles and categories matching each are the regulation's facts
(``facts.arbiters.directed_by``); a regulation without them asks nothing here."""

from __future__ import annotations

from formats.problems import Problem

from .facts import TournamentFacts, check, regulation_facts


def arbiter_checks(facts: TournamentFacts) -> list[Problem]:
    arbiters = regulation_facts(facts.ruleset).arbiters
    rule = arbiters.directed_by
    if rule is None:
        return []
    article = rule.article
    chief = facts.chief_arbiter
    if chief is None:
        # Decided: a tournament registered before the registry (or whose arbiter is not in it
        # yet) is flagged for the officer, not blocked (docs/arbiters.md).
        return [check("warning", "chief_arbiter_not_in_registry", article)]
    if chief.state == "refused":
        return [check("error", "chief_arbiter_refused", article, name=chief.name)]
    out: list[Problem] = []
    if chief.state == "pending":
        out.append(check("warning", "chief_arbiter_pending", article, name=chief.name))
    level = arbiters.level(facts.level)
    if level is None:
        # No level given: any titled arbiter (the union of every level's titles and categories)
        # directs it; the officer is told the category could not be compared.
        titles = {t for lv in rule.value for t in lv.titles}
        categories = {c for lv in rule.value for c in lv.categories}
        if not facts.level:
            out.append(check("warning", "event_level_missing", article))
    else:
        titles, categories = set(level.titles), set(level.categories)
    if chief.title in titles or chief.category in categories:
        return out
    if not chief.title and not chief.category:
        out.append(check("error", "chief_arbiter_untitled", article, name=chief.name))
    else:
        out.append(
            check(
                "error",
                "chief_arbiter_category",
                article,
                name=chief.name,
                held=chief.title or chief.category,
                level=level.id if level is not None else facts.level,
            )
        )
    return out
