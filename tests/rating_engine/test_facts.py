"""Every regulation defines every fact, once, with its article (rating_engine/regulations/).

The expected values are read from the originals (seeds/, digest RULESETS.md), not from the
code: a fact the text fixes is (value, article); None where the text fixes nothing, with the
office's default named in the comment (and in the group's ``OFFICE_DEFAULTS``).
"""

from __future__ import annotations

import dataclasses
import typing
from fractions import Fraction

import pytest

from rating_engine.registry import all_regulations, available_rulesets, get_regulation
from rating_engine.regulations.base import (
    COLUMN_KEYS,
    SECTION_KEYS,
    ArbiterLevel,
    CompetitionKind,
    DoubleRoundRobinQuorum,
    DurationLimit,
    Facts,
    ListColumn,
    MinimumTime,
    RatedInParts,
    Registration,
    Rule,
    Section,
    Semesters,
    SmallRoundRobin,
)

NO_PLAY_RULES = {  # correspondence chess: none of these; the office checks nothing
    f"play.{name}": None
    for name in (
        "minimum_minutes",
        "first_control_moves",
        "max_moves_per_hour",
        "rounds_per_day",
        "hours_per_day",
        "max_days",
        "authorised_days",
        "monthly_report_days",
        "minimum_minutes_per_game",
        "minimum_increment_seconds",
        # 4.1 counts "as competições terminadas": a long event is rated whole, once ended.
        "rated_in_parts",
    )
}
NO_KINDS = {  # the text names no kinds of competition and rates every one
    "competition.kinds": None,
    "competition.other_virtual_rating": None,
    "competition.thematic_not_rated": None,
    "competition.others_rated_by_their_rules": None,
}
NO_ARBITER_RULE = {"arbiters.directed_by": None}  # any chief arbiter

#: The officer's decisions (facts.decisions), none provided for unless a regulation says.
NO_DECISIONS: dict[str, tuple[object, str] | None] = {
    f"decisions.{name}": None
    for name in (
        "correction_days",
        "reject_registration",
        "refusal_appeal_days",
        "rate_despite_conditions",
        "authorise_long_event",
        "exclude_game",
        "exempt_withdrawal",
    )
}
DECISIONS: dict[str, dict[str, tuple[object, str] | None]] = {
    # 0.2 "puede rechazar el registro"; 0.4 "dentro de los siete días"; 5.1 "juego limpio".
    "fide-2024": {
        "decisions.reject_registration": (True, "fide-2024 0.2"),
        "decisions.refusal_appeal_days": (7, "fide-2024 0.4"),
        "decisions.exclude_game": (True, "fide-2024 5.1"),
    },
    # 11.1 → B.01 7.13: four weeks.
    "fide-2000": {"decisions.correction_days": (28, "fide-2000 11.1 (B.01 7.13)")},
    # 10.13 "dentro de las cuatro semanas"; 5.11 "con autorización previa de la FEDA".
    "feda-1996": {
        "decisions.correction_days": (28, "feda-1996 10.13"),
        "decisions.authorise_long_event": (True, "feda-1996 5.11"),
    },
    # 2.2 "tot i que no compleixin les condicions establertes".
    "fce": {"decisions.rate_despite_conditions": (True, "fce 2.2")},
    # 3.2 "desistências justificadas ... não terem efeitos na pontuação Elo".
    "cnxc-2000": {"decisions.exempt_withdrawal": (True, "cnxc-2000 3.2")},
}

EXPECTED: dict[str, dict[str, tuple[object, str] | tuple[object, str, str] | None]] = {
    "fide-2024": {
        "lists.cycle": ("monthly", "fide-2024 7.1"),
        "lists.semesters": None,  # monthly lists; office: calendar halves if ever semestral
        "lists.closing_days": (3, "fide-2024 7.1.3", "monthly"),
        "lists.month_end_allowance_days": (5, "fide-2024 9.1", "monthly"),
        "lists.publication_floor": (1400, "fide-2024 7.2.1"),
        "lists.rating_floor": None,  # no floor; office: none
        "lists.protest_days": None,  # no list protests in the text; office: 30 days
        "lists.protest_counts_publication_day": None,
        "lists.appeal_days": None,  # office: no appeal
        "lists.appeal_deposit": None,
        "lists.scale_monitoring": None,  # office: no drift check
        "lists.list_in_force_at_start": None,  # office: the list in force at the period
        "lists.licensed_players": None,  # office: no licence roll in the list
        "reporting.registration": (Registration(3, 30, 2700, 2500), "fide-2024 0.2"),
        "reporting.report_due_days": None,  # 9.1 counts lists; office: no warning
        "reporting.report_lists": (3, "fide-2024 9.1", "monthly"),
        "reporting.ascii_file_over_players": None,  # FEDA only; office: not asked for
        "reporting.rating_report": None,
        "play.minimum_minutes": (
            (MinimumTime(2400, 120), MinimumTime(1800, 90), MinimumTime(0, 60)),
            "fide-2024 1.1",
        ),
        "play.first_control_moves": (30, "fide-2024 1.2"),
        "play.max_moves_per_hour": None,  # office: no check
        "play.rounds_per_day": None,  # 3.1 limits hours only; office: no check
        "play.hours_per_day": (12, "fide-2024 3.1"),
        "play.max_days": None,  # 4.1 asks for monthly reports instead; office: no check
        "play.authorised_days": None,
        "play.monthly_report_days": (30, "fide-2024 4.1"),
        # "al inicio de la partida ... al menos un jugador de la partida": each game's players.
        "play.minimum_minutes_per_game": (True, "fide-2024 1.1"),
        "play.minimum_increment_seconds": None,
        # 4.1: "Para los torneos que duren más de 30 días, los resultados intermedios deben
        # informarse mensualmente": rated month by month, any pairing system.
        "play.rated_in_parts": (RatedInParts(after_days=30), "fide-2024 4.1"),
        "composition": None,  # no composition chapter; office: no check
        **NO_KINDS,
        # 7.1.2: "Título FIDE, federación, valoración en vigor, número de ID FIDE, número de
        # partidas valoradas en el periodo de valoración, año de nacimiento, género y valor en
        # vigor de la K" (and the name); no section rule.
        "list_layout.columns": (
            (
                "name",
                "fide_title",
                "federation",
                "rating",
                "fide_id",
                "games",
                "birth_year",
                "sex",
                "k",
            ),
            "fide-2024 7.1.2",
        ),
        "list_layout.inactive_apart_after": None,
        "list_layout.inactive_left_out_after": None,
        "list_layout.passive_left_out": None,
        "list_layout.titled_unrated_apart": None,
        **NO_ARBITER_RULE,
    },
    "fide-2000": {
        "lists.cycle": ("quarterly", "fide-2000 9.1"),
        "lists.semesters": None,
        # 9.13/9.43 "normalmente": decided, the period's last day (the office's default).
        "lists.closing_days": None,
        "lists.month_end_allowance_days": None,
        "lists.publication_floor": (1801, "fide-2000 9.21"),
        "lists.rating_floor": None,
        "lists.protest_days": None,  # office: 30 days
        "lists.protest_counts_publication_day": None,
        "lists.appeal_days": None,  # office: no appeal
        "lists.appeal_deposit": None,
        # 12.3: "detectar cualquier ajuste en la escala"; no group named: the top 50 (office).
        "lists.scale_monitoring": (50, "fide-2000 12.3"),
        "lists.list_in_force_at_start": None,
        "lists.licensed_players": None,  # office: no licence roll in the list
        "reporting.registration": None,  # B.01 art. 7, not in the seed; office: registration_days
        "reporting.report_due_days": None,
        "reporting.report_lists": (2, "fide-2000 9.13"),  # decided: one late list
        "reporting.ascii_file_over_players": None,
        # 11.31: Ru of an unrated player with at least 3 rated opponents, even below 1801.
        "reporting.rating_report": (3, "fide-2000 11.31"),
        "play.minimum_minutes": (
            (MinimumTime(2200, 120), MinimumTime(1600, 90), MinimumTime(0, 60)),
            "fide-2000 1.1",
        ),
        "play.first_control_moves": None,
        "play.max_moves_per_hour": None,
        "play.rounds_per_day": (3, "fide-2000 3.1"),
        "play.hours_per_day": (12, "fide-2000 3.1"),
        "play.max_days": (DurationLimit(90), "fide-2000 4.1"),
        "play.authorised_days": None,
        "play.monthly_report_days": None,
        # 1.12 "al menos uno de los jugadores del torneo": the tournament's highest rating.
        "play.minimum_minutes_per_game": None,
        "play.minimum_increment_seconds": None,
        # 4.11: "competencias de liga que se extiendan por más de 90 días ... partidas jugadas
        # dentro de sus respectivos períodos de rating": leagues only.
        "play.rated_in_parts": (RatedInParts(after_days=90, leagues_only=True), "fide-2000 4.11"),
        "composition.rated_share": (Fraction(1, 3), "fide-2000 6.3"),
        "composition.small_round_robin": (SmallRoundRobin(10, 4), "fide-2000 6.31"),
        "composition.double_round_robin": (DoubleRoundRobinQuorum(6, 4), "fide-2000 6.32"),
        "composition.championship_rated": (3, "fide-2000 6.33"),
        "composition.unrated_discard_max": (0.5, "fide-2000 6.1"),
        "composition.unrated_min_rated_opponents": (3, "fide-2000 6.42"),
        # 6.33: "3 hombres (o 2 mujeres en torneos femeninos)", national championships.
        "competition.kinds": (
            (
                CompetitionKind(
                    "national_championship",
                    "National championship",
                    championship_rated=3,
                    national=True,
                ),
                CompetitionKind(
                    "womens_national_championship",
                    "Women's national championship",
                    championship_rated=2,
                    national=True,
                    women=True,
                ),
            ),
            "fide-2000 6.33",
        ),
        "competition.other_virtual_rating": None,
        "competition.thematic_not_rated": None,
        "competition.others_rated_by_their_rules": None,
        # 9.12 a-c; 9.22 titled unrated apart; 9.23b flagged in the next 7 lists, then out.
        "list_layout.columns": (
            (
                "name",
                "fide_title",
                "federation",
                "rating",
                "fide_id",
                "games",
                "birth_date",
                "k",
                "games_k25",
            ),
            "fide-2000 9.12",
        ),
        "list_layout.inactive_apart_after": None,
        "list_layout.inactive_left_out_after": (7, "fide-2000 9.23b"),
        "list_layout.passive_left_out": None,
        "list_layout.titled_unrated_apart": (True, "fide-2000 9.22"),
        **NO_ARBITER_RULE,
    },
    "feda-1996": {
        "lists.cycle": ("semestral", "feda-1996 8.11"),
        "lists.semesters": (Semesters(starts=(12, 6), lists=(7, 1)), "feda-1996 8.13"),
        "lists.closing_days": None,  # 8.13: the semesters end on the closing dates
        "lists.month_end_allowance_days": None,
        "lists.publication_floor": (1805, "feda-1996 8.12"),
        "lists.rating_floor": None,
        "lists.protest_days": None,  # office: 30 days
        "lists.protest_counts_publication_day": None,
        "lists.appeal_days": None,  # office: no appeal
        "lists.appeal_deposit": None,
        # 11.1: "por ejemplo los 50 primeros del ranking".
        "lists.scale_monitoring": (50, "feda-1996 11.1"),
        # 8.11: the January list for tournaments starting 1 January-30 June, the July list for
        # those starting 1 July-31 December.
        "lists.list_in_force_at_start": (True, "feda-1996 8.11"),
        "lists.licensed_players": None,  # office: no licence roll in the list
        "reporting.registration": None,  # office: registration_days
        "reporting.report_due_days": (14, "feda-1996 10.1"),
        "reporting.report_lists": (2, "feda-1996 10.14"),
        "reporting.ascii_file_over_players": (40, "feda-1996 10.31"),
        "reporting.rating_report": None,
        "play.minimum_minutes": ((MinimumTime(0, 60),), "feda-1996 2.2"),
        "play.first_control_moves": None,
        "play.max_moves_per_hour": (23, "feda-1996 2.1"),
        "play.rounds_per_day": (2, "feda-1996 4.1"),
        "play.hours_per_day": None,
        "play.max_days": None,  # 5.11: longer with authorisation, so no hard limit
        "play.authorised_days": (90, "feda-1996 5.1"),
        "play.monthly_report_days": None,
        "play.minimum_minutes_per_game": None,
        # 2.3: "siempre que se añadan 10 segundos (mínimo) al tiempo de control para cada jugada"
        "play.minimum_increment_seconds": (10, "feda-1996 2.3"),
        # 5.11 authorises a longer event, names no intermediate report; 8.11: one list by the
        # start date. Office: rated whole.
        "play.rated_in_parts": None,
        "composition.rated_share": (Fraction(1, 3), "feda-1996 7.3"),
        "composition.small_round_robin": (SmallRoundRobin(10, 4), "feda-1996 7.31"),
        "composition.double_round_robin": (DoubleRoundRobinQuorum(6, 4), "feda-1996 7.32"),
        "composition.championship_rated": (3, "feda-1996 7.33"),
        "composition.unrated_discard_max": (0.0, "feda-1996 7.1"),
        "composition.unrated_min_rated_opponents": (4, "feda-1996 7.42"),
        # 7.33: "Los campeonatos Nacionales, Autonómicos y Provinciales ... al menos 3".
        "competition.kinds": (
            (
                CompetitionKind(
                    "national_championship",
                    "National championship",
                    championship_rated=3,
                    national=True,
                ),
                CompetitionKind(
                    "regional_championship",
                    "Regional (autonomous community) championship",
                    championship_rated=3,
                ),
                CompetitionKind(
                    "provincial_championship", "Provincial championship", championship_rated=3
                ),
            ),
            "feda-1996 7.33",
        ),
        "competition.other_virtual_rating": None,
        "competition.thematic_not_rated": None,
        "competition.others_rated_by_their_rules": None,
        # 8.12a's data; 8.22b: inactive players in the next 3 lists, then published apart.
        "list_layout.columns": (
            ("fed_id", "name", "title", "region", "rating", "birth_date", "activity", "games"),
            "feda-1996 8.12a",
        ),
        "list_layout.inactive_apart_after": (3, "feda-1996 8.22b"),
        "list_layout.inactive_left_out_after": None,
        "list_layout.passive_left_out": None,
        "list_layout.titled_unrated_apart": None,
        # 1.1: "dirigidos por un Arbitro Titulado, siendo la categoría del mismo equiparable a
        # la de la competición": 1.11 national/international, 1.12 autonómica, 1.13 provincial.
        "arbiters.directed_by": (
            (
                ArbiterLevel(
                    "national",
                    "National or international (1.11)",
                    titles=("IA", "FA", "NA"),
                    categories=("national",),
                ),
                ArbiterLevel(
                    "regional",
                    "Regional, autonomous community (1.12)",
                    titles=("IA", "FA", "NA"),
                    categories=("national", "regional"),
                ),
                ArbiterLevel(
                    "provincial",
                    "Provincial (1.13)",
                    titles=("IA", "FA", "NA"),
                    categories=("national", "regional", "provincial"),
                ),
            ),
            "feda-1996 1.1",
        ),
    },
    "fce": {
        "lists.cycle": ("monthly", "fce 9.1"),
        "lists.semesters": None,
        "lists.closing_days": None,  # none in the text; office: the period's last day
        "lists.month_end_allowance_days": None,
        "lists.publication_floor": None,  # 9.2: every licensed player
        "lists.rating_floor": (1000, "fce 17.3"),
        "lists.protest_days": (25, "fce 9.3"),
        "lists.protest_counts_publication_day": (True, "fce 9.3"),  # day 1 = publication
        "lists.appeal_days": None,  # office: no appeal
        "lists.appeal_deposit": None,
        "lists.scale_monitoring": None,  # office: no drift check
        "lists.list_in_force_at_start": None,  # office: the list in force at the period
        "lists.licensed_players": (True, "fce 9.2"),  # every licensed player
        "reporting.registration": None,  # office: registration_days
        "reporting.report_due_days": None,
        "reporting.report_lists": None,  # office: one late list
        "reporting.ascii_file_over_players": None,
        "reporting.rating_report": None,
        "play.minimum_minutes": ((MinimumTime(0, 60),), "fce 5.1"),
        "play.first_control_moves": None,
        "play.max_moves_per_hour": None,
        "play.rounds_per_day": (3, "fce 6.1"),
        "play.hours_per_day": None,
        "play.max_days": (DurationLimit(90, teams_exempt=True), "fce 6.2"),
        "play.authorised_days": None,
        "play.monthly_report_days": None,
        "play.minimum_minutes_per_game": None,
        "play.minimum_increment_seconds": None,
        # 6.2 exempts team competitions from 90 days, names no intermediate report: whole.
        "play.rated_in_parts": None,
        "composition": None,
        **NO_KINDS,
        # 9.4: name, ID, title (national ones too), club, rating, K, games in the period.
        "list_layout.columns": (
            ("name", "fed_id", "title", "club", "rating", "k", "games"),
            "fce 9.4",
        ),
        "list_layout.inactive_apart_after": None,
        "list_layout.inactive_left_out_after": None,
        "list_layout.passive_left_out": None,
        "list_layout.titled_unrated_apart": None,
        **NO_ARBITER_RULE,
    },
    "cnxc-2000": {
        "lists.cycle": ("semestral", "cnxc-2000 4.1"),
        "lists.semesters": (Semesters(starts=(1, 7), lists=(7, 1)), "cnxc-2000 4.1"),
        "lists.closing_days": None,  # competitions finished by the half's last day
        "lists.month_end_allowance_days": None,
        "lists.publication_floor": None,  # 4.2: every rated player
        "lists.rating_floor": None,
        "lists.protest_days": (30, "cnxc-2000 4.3"),
        "lists.protest_counts_publication_day": None,  # "30 dias após"
        "lists.appeal_days": (7, "cnxc-2000 4.3"),  # "no prazo máximo de 7 dias"
        "lists.appeal_deposit": ("membership_fee", "cnxc-2000 4.3"),  # "taxa de filiação"
        "lists.scale_monitoring": None,  # office: no drift check
        "lists.list_in_force_at_start": None,  # office: the list in force at the period
        "lists.licensed_players": None,  # office: no licence roll in the list
        "reporting.registration": None,  # office: registration_days
        "reporting.report_due_days": None,
        "reporting.report_lists": None,  # office: one late list
        "reporting.ascii_file_over_players": None,
        "reporting.rating_report": None,
        **NO_PLAY_RULES,
        "composition": None,
        # 5.3: "2200 pontos, se o torneio a calcular for um Campeonato de Portugal Absoluto -
        # Fase Final; de 2000 pontos, se ... Campeonato de Portugal de Equipas - Fase Final -
        # 1º tabuleiro ou um Permanente da Categoria de Honra; e de 1750 pontos, se ... qualquer
        # outra".
        "competition.kinds": (
            (
                CompetitionKind(
                    "championship_final", "Portuguese Championship, final", virtual_rating=2200
                ),
                CompetitionKind(
                    "team_championship_final_board_1",
                    "Portuguese Team Championship, final, board 1",
                    virtual_rating=2000,
                ),
                CompetitionKind(
                    "permanent_honour",
                    "Permanent tournament, Honour Category",
                    virtual_rating=2000,
                ),
            ),
            "cnxc-2000 5.3",
        ),
        "competition.other_virtual_rating": (1750, "cnxc-2000 5.3"),
        # 3.1: "com exceção dos torneios temáticos"; organised by another body, rated only if
        # "conste do respectivo regulamento a menção de que os resultados serão considerados".
        "competition.thematic_not_rated": (True, "cnxc-2000 3.1"),
        "competition.others_rated_by_their_rules": (True, "cnxc-2000 3.1"),
        # 4.2's data; 5.2: passive players "deixará de constar das listas".
        "list_layout.columns": (
            ("name", "fed_id", "total_games", "games", "rating", "provisional", "change"),
            "cnxc-2000 4.2",
        ),
        "list_layout.inactive_apart_after": None,
        "list_layout.inactive_left_out_after": None,
        "list_layout.passive_left_out": (True, "cnxc-2000 5.2"),
        "list_layout.titled_unrated_apart": None,
        **NO_ARBITER_RULE,
    },
}


def _flatten(facts: Facts) -> dict[str, Rule[object] | None]:
    out: dict[str, Rule[object] | None] = {}
    for group_field in dataclasses.fields(facts):
        group = getattr(facts, group_field.name)
        if group is None:
            out[group_field.name] = None
            continue
        for fact in dataclasses.fields(group):
            out[f"{group_field.name}.{fact.name}"] = getattr(group, fact.name)
    return out


def test_the_table_covers_every_registered_regulation() -> None:
    assert set(available_rulesets()) == set(EXPECTED)


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_every_fact_as_the_text_fixes_it(ruleset: str) -> None:
    regulation = get_regulation(ruleset)
    got = _flatten(regulation.facts)
    expected = {**EXPECTED[ruleset], **NO_DECISIONS, **DECISIONS[ruleset]}
    assert set(got) == set(expected)
    for key, want in expected.items():
        rule = got[key]
        if want is None:
            assert rule is None, key
            continue
        assert isinstance(rule, Rule), key
        value, article, *cycle = want
        assert (rule.value, rule.article, rule.cycle) == (
            value,
            article,
            cycle[0] if cycle else None,
        ), key


def _optional(cls: type) -> set[str]:
    hints = typing.get_type_hints(cls)
    return {f.name for f in dataclasses.fields(cls) if type(None) in typing.get_args(hints[f.name])}


def test_every_none_is_documented_with_the_office_default() -> None:
    hints = typing.get_type_hints(Facts)
    for group in dataclasses.fields(Facts):  # lists, reporting, play, composition
        hint = hints[group.name]
        cls = next(a for a in typing.get_args(hint) or (hint,) if a is not type(None))
        if hasattr(cls, "OFFICE_DEFAULTS"):
            # Every fact a regulation may leave unset names what the office does then.
            assert _optional(cls) == set(cls.OFFICE_DEFAULTS), cls.__name__
            assert all(cls.OFFICE_DEFAULTS.values()), cls.__name__
        else:
            assert not _optional(cls), cls.__name__  # composition: all or nothing
    assert _optional(Facts) == set(Facts.OFFICE_DEFAULTS)
    for regulation in all_regulations().values():
        for key, rule in _flatten(regulation.facts).items():
            if rule is None:
                continue
            # Every fact cites an article of its own regulation.
            assert rule.article.startswith(f"{regulation.id} "), (regulation.id, key)
            assert rule.article[len(regulation.id) + 1 :][:1].isdigit(), (regulation.id, key)


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_the_facts_are_consistent(ruleset: str) -> None:
    facts = get_regulation(ruleset).facts
    lists, reporting, play = facts.lists, facts.reporting, facts.play
    assert lists.cycle.value in ("monthly", "quarterly", "semestral")
    if lists.semesters is not None:
        starts = lists.semesters.value.starts
        assert (starts[1] - starts[0]) % 12 == 6  # two halves of six months
    if play.minimum_minutes is not None:
        bands = play.minimum_minutes.value
        assert [b.rating for b in bands] == sorted((b.rating for b in bands), reverse=True)
        assert bands[-1].rating == 0  # the minimum for everybody
    if reporting.report_lists is not None:
        # The refusal messages name "the list after the tournament's own" or "the third list".
        assert reporting.report_lists.value in (2, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lists.cycle = Rule("monthly", "x")  # type: ignore[misc]


def test_the_month_end_allowance_reads_the_fact() -> None:
    fide = get_regulation("fide-2024")
    assert fide.month_end_allowance_days == 5
    assert get_regulation("fce").month_end_allowance_days == 0


def test_the_list_keys_are_derived_from_their_literals() -> None:
    # The tuples must be the Literal's own arguments (typing.get_args), not a hand-kept copy
    # that can drift from the type when a column or section is added.
    assert COLUMN_KEYS is typing.get_args(ListColumn)
    assert SECTION_KEYS is typing.get_args(Section)
