"""What the regulation rates at all: thematic tournaments and competitions organised by other
bodies (cnxc-2000 3.1), and a kind of competition the regulation does not name."""

from __future__ import annotations

from formats.problems import Problem

from .facts import TournamentFacts, check, regulation_facts


def scope_checks(facts: TournamentFacts) -> list[Problem]:
    competition = regulation_facts(facts.ruleset).competition
    out: list[Problem] = []
    thematic = competition.thematic_not_rated
    if facts.thematic and thematic is not None and thematic.value:
        # cnxc-2000 3.1: "com exceção dos torneios temáticos".
        out.append(check("error", "thematic_not_rated", thematic.article))
    others = competition.others_rated_by_their_rules
    if facts.organised_by_others and not facts.rated_by_its_rules and others is not None:
        # cnxc-2000 3.1: organised by another body and officialised, "desde que ... conste do
        # respectivo regulamento a menção de que os resultados serão considerados".
        out.append(check("error", "organised_by_others_not_rated", others.article))
    if facts.kind and competition.kind(facts.kind) is None:
        # The registration validates the kind; one stored for another regulation (the
        # tournament moved to another rating system) is named, not guessed.
        out.append(
            check("error", "kind_unknown", f"{facts.ruleset} (office rule)", kind=facts.kind)
        )
    return out
