"""Hand-made bad files, one per problem code, asserting the line and the column."""

from __future__ import annotations

from formats.reports import Problem, parse_trf
from tests.formats.reports.helpers import trf, trf_player

R1 = 92  # round 1 opponent column
R2 = 102


def only(problems: tuple[Problem, ...], code: str) -> Problem:
    found = [p for p in problems if p.code == code]
    assert len(found) == 1, problems
    return found[0]


def test_clean_two_players() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w 1"], points="1.0"),
            trf_player(2, "B", ["   1 b 0"], points="0.0"),
        )
    )
    assert r.problems == ()
    (g,) = r.games
    assert (g.round, g.white_rank, g.black_rank, g.result, g.kind) == (1, 1, 2, "1", "played")


def test_asymmetric_pairing() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w 1"]),
            trf_player(2, "B", ["0000 - H"]),
        )
    )
    p = only(r.problems, "asymmetric_pairing")
    assert (p.severity, p.line, p.column, p.field) == ("error", 2, R1, "opponent")
    assert p.params == {"round": 1, "rank": 1, "opponent": 2}
    assert p.message == "Round 1: player 1 lists opponent 2, but 2 does not list 1"


def test_colour_mismatch() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w 1"]),
            trf_player(2, "B", ["   1 w 0"]),
        )
    )
    p = only(r.problems, "colour_mismatch")
    assert (p.line, p.column) == (3, R1 + 5)


def test_self_paired() -> None:
    r = parse_trf(trf(trf_player(1, "A", ["   1 w 1"]), trf_player(2, "B", [])))
    p = only(r.problems, "self_paired")
    assert (p.line, p.column) == (2, R1)
    assert p.message == "Round 1: player 1 is paired with himself"


def test_result_mismatch() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["0000 - H", "   2 b 1"]),
            trf_player(2, "B", ["0000 - H", "   1 w 1"]),
        )
    )
    p = only(r.problems, "result_mismatch")
    assert (p.line, p.column, p.params["round"]) == (3, R2 + 7, 2)
    assert not [g for g in r.games if g.black_rank is not None]


def test_unknown_opponent() -> None:
    r = parse_trf(trf(trf_player(1, "A", ["  99 w 1"])))
    p = only(r.problems, "unknown_opponent")
    assert (p.line, p.column, p.params["opponent"]) == (2, R1, 99)


def test_duplicate_start_rank() -> None:
    r = parse_trf(trf(trf_player(1, "A", []), trf_player(1, "B", [])))
    p = only(r.problems, "duplicate_start_rank")
    assert (p.line, p.column, p.params["first_line"]) == (3, 5, 2)
    assert len(r.players) == 1


def test_duplicate_fide_id() -> None:
    r = parse_trf(
        trf(trf_player(1, "A", [], fide_id="12345"), trf_player(2, "B", [], fide_id="12345"))
    )
    p = only(r.problems, "duplicate_id")
    assert (p.line, p.column, p.field) == (3, 58, "fide_id")


def test_zero_fide_ids_are_not_duplicates() -> None:
    r = parse_trf(trf(trf_player(1, "A", [], fide_id="0"), trf_player(2, "B", [], fide_id="0")))
    assert r.problems == ()


def test_two_games_in_one_round() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w 1"]),
            trf_player(2, "B", ["   1 b 0"]),
            trf_player(3, "C", ["   2 w 1"]),
        )
    )
    p = only(r.problems, "two_games_in_round")
    assert (p.line, p.column) == (4, R1)
    assert p.params == {"round": 1, "rank": 3, "opponent": 2, "other": 1}


def test_malformed_numbers() -> None:
    bad_rank = "001   x1 m    A" + " " * 80
    r = parse_trf(trf(bad_rank))
    p = only(r.problems, "malformed_number")
    assert (p.line, p.column, p.field) == (2, 5, "start_rank")
    r = parse_trf(trf(trf_player(1, "A", ["  2x w 1"], rating="2l00")))
    codes = [(p.code, p.field, p.column) for p in r.problems]
    assert ("malformed_number", "rating", 49) in codes
    assert ("malformed_number", "opponent", R1) in codes
    r = parse_trf(trf(trf_player(1, "A", [], points="1..")))
    p = only(r.problems, "malformed_number")
    assert (p.field, p.column) == ("points", 81)
    assert p.message == "points: 1.. is not a valid number"
    # a digit-space-digit opponent is malformed, not a crash (found by the fuzz test)
    r = parse_trf(trf(trf_player(1, "A", ["1  4 w 1"])))
    assert only(r.problems, "malformed_number").column == R1


def test_invalid_colour_and_result() -> None:
    r = parse_trf(trf(trf_player(1, "A", ["   2 x 1", "   2 w ?"]), trf_player(2, "B", [])))
    assert (only(r.problems, "invalid_colour").column) == R1 + 5
    assert (only(r.problems, "invalid_result").column) == R2 + 7


def test_points_mismatch_is_a_warning() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w 1"], points="0.5"),
            trf_player(2, "B", ["   1 b 0"], points="0.0"),
        )
    )
    p = only(r.problems, "points_mismatch")
    assert (p.severity, p.line, p.column) == ("warning", 2, 81)
    assert r.ok


def test_bye_result_against_opponent_and_game_result_without() -> None:
    r = parse_trf(trf(trf_player(1, "A", ["   2 w H", "0000 - 1"]), trf_player(2, "B", [])))
    assert only(r.problems, "bye_result_with_opponent").column == R1 + 7
    assert only(r.problems, "game_result_without_opponent").column == R2 + 7


def test_multiple_pab_warning() -> None:
    r = parse_trf(trf(trf_player(1, "A", ["0000 - U"]), trf_player(2, "B", ["     - U"])))
    p = only(r.problems, "multiple_pab")
    assert (p.severity, p.line, p.params["count"]) == ("warning", 3, 2)


def test_sloppy_fields() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", [], sex="f", title="wg", birth="1969.12.06"),
            trf_player(2, "B", [], sex="F", title="m", birth="1970"),
            trf_player(3, "C", [], sex="q", title="XYZ", birth="1970/00/00"),
            trf_player(4, "D", [], sex="W", title="wf", birth="    .  ."),
            header="012 T\n042 28. 07. 2005\n052 Jun 26, 2020\nXXC white1\n@@@ junk\n",
        )
    )
    a, b, c, d = r.players
    assert (a.sex, a.title, str(a.birth_date)) == ("w", "WGM", "1969-12-06")
    assert (b.sex, b.title, b.birth_year, b.birth_date) == ("w", "IM", 1970, None)
    assert (c.sex, c.birth_year) == ("", 1970)
    assert (d.title, d.birth_year) == ("WFM", None)
    assert str(r.header.start_date) == "2005-07-28"
    assert str(r.header.end_date) == "2020-06-26"
    codes = {(p.code, p.line, p.column) for p in r.problems}
    assert codes == {("invalid_sex", 8, 10), ("unknown_title", 8, 11), ("unknown_line", 5, 1)}
    assert 4 in r.ignored_lines  # XXC


def test_invalid_header_date_warns() -> None:
    r = parse_trf(trf(trf_player(1, "A", []), header="012 T\n042 sometime\n"))
    p = only(r.problems, "invalid_date")
    assert (p.severity, p.line, p.column, p.field) == ("warning", 2, 5, "start_date")


def test_dummy_bye_player_becomes_a_bye() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w +"], points="1.0"),
            trf_player(2, "spielfrei", ["   1 b -"], sex=" "),
        )
    )
    assert r.problems == ()
    (g,) = r.games
    assert (g.white_rank, g.black_rank, g.kind, g.white_score) == (1, None, "bye_pab", 1.0)


def test_double_forfeit_and_short_game() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", ["   2 w -", "   2 b W"]),
            trf_player(2, "B", ["   1 b -", "   1 w L"]),
        )
    )
    assert r.problems == ()
    g1, g2 = r.games
    assert (g1.kind, g1.white_score, g1.black_score) == ("forfeit", 0.0, 0.0)
    assert (g2.kind, g2.white_rank, g2.result) == ("short", 2, "L")


def test_no_players() -> None:
    r = parse_trf("012 Nothing\n")
    assert [p.code for p in r.problems] == ["no_players"]


def test_trf26_detection_and_teams() -> None:
    r = parse_trf(
        trf(
            trf_player(1, "A", []),
            trf_player(2, "B", []),
            header="012 T\n142 3\n### comment\n",
        )
        + "310   1 Team One                         ESP     2000    0      0.0   1     1    2\n"
    )
    assert r.header.format == "trf26" and r.header.rounds == 3
    assert [(t.name, t.federation, t.members) for t in r.teams] == [("Team One", "ESP", (1, 2))]
