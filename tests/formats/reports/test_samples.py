"""Every shared sample parses to what it really holds.

Expected figures were established by hand from the files and SOURCES.md (grep/awk over the
fixed columns 92+10(r-1), 97, 99), not by running the parser.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from formats.reports import ParsedReport
from tests.formats.reports.helpers import load_sample

EXAMPLE1 = "open-swiss-284p-7r-ger-2005-fide-example1.trf"
SAN_VIATOR = "open-swiss-137p-7r-esp-2018-byes-forfeits.trf"
GROS = "open-swiss-52p-9r-esp-2010-partial-trfx.trf"
BUNRATTY = "swiss-34p-6r-irl-2011-masters-gms.trf"
JUNIORS = "swiss-34p-5r-irl-2011-latin1-national-ids.trf"
LICHESS = "lichess-9p-9r-unrated-de-facto-round-robin.trf"
C07 = "round-robin-6p-5r-fide-c07-tiebreak-exercise.trf"
GRANDMOMMY = "team-swiss-249p-14r-trf26-anonymised.trf"


def kinds(r: ParsedReport) -> Counter[str]:
    return Counter(g.kind for g in r.games)


# file, players, rounds (declared or in file), played, forfeit, {bye kind: n}
CASES = [
    (EXAMPLE1, 284, 7, 970, 10, {"bye_full": 1}),
    (SAN_VIATOR, 137, 7, 396, 15, {"bye_half": 99, "bye_zero": 30, "bye_full": 3, "bye_pab": 5}),
    (GROS, 52, 9, 89, 4, {"bye_half": 16, "bye_zero": 6, "bye_pab": 3}),
    (BUNRATTY, 34, 6, 97, 0, {"bye_zero": 10}),
    (JUNIORS, 34, 5, 82, 0, {"bye_zero": 6}),
    (LICHESS, 9, 9, 36, 0, {"bye_pab": 9}),
    (C07, 6, 5, 14, 1, {}),
    (GRANDMOMMY, 249, 14, 1030, 0, {"bye_full": 98, "absent": 1328}),
]


@pytest.mark.parametrize(("name", "players", "rounds", "played", "forfeits", "byes"), CASES)
def test_sample_counts(
    name: str, players: int, rounds: int, played: int, forfeits: int, byes: dict[str, int]
) -> None:
    r = load_sample(name)
    assert len(r.players) == players
    assert r.header.rounds == rounds
    k = kinds(r)
    assert k["played"] == played
    assert k["forfeit"] == forfeits
    assert {kind: n for kind, n in k.items() if kind not in ("played", "forfeit")} == byes
    assert r.errors == ()


@pytest.mark.parametrize("name", [EXAMPLE1, SAN_VIATOR, GROS, LICHESS, C07, GRANDMOMMY])
def test_clean_files_have_no_problems(name: str) -> None:
    assert load_sample(name).problems == ()


@pytest.mark.parametrize(
    ("name", "ranks"), [(JUNIORS, [4, 14, 19, 24, 31]), (BUNRATTY, [16, 18, 19, 25, 34])]
)
def test_irish_blank_byes_give_points_warnings(name: str, ranks: list[int]) -> None:
    r = load_sample(name)
    assert [p.code for p in r.problems] == ["points_mismatch"] * 5
    assert all(p.severity == "warning" and p.column == 81 for p in r.problems)
    assert [p.params["rank"] for p in r.problems] == ranks


def test_example1_details() -> None:
    r = load_sample(EXAMPLE1)
    assert r.header.format == "trf16"
    assert r.header.start_date == date(2005, 7, 28)
    assert r.header.end_date == date(2005, 7, 31)
    assert r.header.deputy_arbiters == ("NSR Thomas Rondio, NSR Wolfgang Hettler",)
    titles = Counter(p.title for p in r.players if p.title)
    assert titles == {"IM": 11, "FM": 5, "GM": 3, "WFM": 1}
    assert sum(1 for p in r.players if p.sex == "w") == 8
    assert sum(1 for p in r.players if p.rating is not None) == 146
    assert sum(1 for p in r.players if p.rank is None) == 8
    first = r.player(1)
    assert first is not None
    assert first.birth_date == date(1969, 12, 6)
    assert first.title == "GM"
    assert first.fide_id == "3400042"
    spielfrei = r.player(284)
    assert spielfrei is not None and spielfrei.dummy
    # forfeits without colour, e.g. 63 `204 - +` / 204 `63 - -` in round 1
    fg = [g for g in r.games if g.kind == "forfeit" and g.round == 1]
    assert {(g.white_rank, g.black_rank) for g in fg} == {(13, 153), (63, 204)}
    assert all(not g.colours_known for g in fg)
    bye = [g for g in r.games if g.black_rank is None]
    assert [(g.round, g.white_rank, g.white_score) for g in bye] == [(5, 282, 1.0)]


def test_san_viator_details() -> None:
    r = load_sample(SAN_VIATOR)
    assert r.header.start_date == date(2018, 4, 8)
    assert r.header.round_dates[0] == date(2018, 4, 8)
    assert len(r.header.round_dates) == 7
    p1 = r.player(1)
    assert p1 is not None and p1.birth_year == 1981 and p1.birth_date is None
    assert sum(1 for p in r.players if p.rating is None) == 20


def test_gros_partial_round_five() -> None:
    r = load_sample(GROS)
    assert r.rounds_played == 4
    assert r.rounds_in_file == 5
    r5 = Counter(g.kind for g in r.games if g.round == 5)
    assert set(r5) <= {"bye_zero", "bye_half"}
    assert sum(1 for p in r.players if p.rating is None) == 11


def test_bunratty_dates_and_titles() -> None:
    r = load_sample(BUNRATTY)
    assert r.header.round_dates[0] == date(2011, 2, 25)  # 11.25.02 is YY.DD.MM
    assert r.header.start_date == date(2011, 2, 25)
    assert Counter(p.title for p in r.players if p.title) == {"GM": 5, "IM": 5, "FM": 2, "WFM": 1}


def test_juniors_latin1_and_leading_zero_rating() -> None:
    r = load_sample(JUNIORS)
    names = {p.name for p in r.players}
    assert any("Mícheál" in n for n in names)
    assert any("Ó Muireagáin" in n for n in names)
    p24 = r.player(24)
    assert p24 is not None and p24.rating == 951
    assert sum(1 for p in r.players if p.rating is None) == 3


def test_lichess_dates() -> None:
    r = load_sample(LICHESS)
    assert r.header.start_date == date(2020, 6, 26)
    assert all(p.rating is None and p.fide_id == "" for p in r.players)


def test_c07_forfeit() -> None:
    r = load_sample(C07)
    (g,) = [g for g in r.games if g.kind == "forfeit"]
    assert (g.round, g.white_rank, g.black_rank, g.white_score, g.black_score) == (
        4,
        5,
        6,
        0.0,
        1.0,
    )  # Franck (5) `6 w -`, Helene (6) `5 b +`


def test_grandmommy_trf26() -> None:
    r = load_sample(GRANDMOMMY)
    assert r.header.format == "trf26"
    assert r.header.deputy_arbiters == ("The First Deputy Arbiter", "The Second Deputy Arbiter")
    assert len(r.teams) == 50
    assert r.teams[0].name == "India" and r.teams[0].members == (1, 5, 15, 28, 44)
    assert sum(len(t.members) for t in r.teams) == 249
    p1 = r.player(1)
    assert p1 is not None and p1.birth_year == 1987 and p1.birth_date is None
    assert r.ignored_lines  # NRS, 240, 250, 260, 300, ### ... kept aside
