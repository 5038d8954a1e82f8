"""The calculator JSON reader/writer and ``python -m rating_engine``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rating_engine import rate_period
from rating_engine.errors import EngineInputError, UnknownRulesetError
from rating_engine.jsonio import loads_period, period_to_dict, result_to_dict
from rating_engine.registry import get_regulation

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "ruleset": "fide-2024",
    "period": {"start": "2026-10-01", "end": "2026-10-31"},
    "parameters": {},
    "players": [
        {"id": "1001", "rating": 2105, "games": 57, "birth_date": "2010-05-01",
         "reached_2400": False, "prior_results": [{"opponent_rating": 1850, "score": 0.5}]},
        {"id": "1002", "rating": 1950, "games": 100},
    ],
    "tournaments": [
        {"id": "T1", "system": "swiss", "end_date": "2026-10-20",
         "games": [{"white": "1001", "black": "1002", "result": "1-0", "forfeit": False,
                    "round": 1},
                   {"white": "1002", "black": "1001", "result": "½-½", "round": 2},
                   {"white": "1002", "black": "1001", "result": "0.5-0.5", "forfeit": True,
                    "round": 3}]},
    ],
}  # fmt: skip


def with_(path: str, value: object) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    node = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return json.dumps(data)


def error_of(text: str) -> EngineInputError:
    with pytest.raises(EngineInputError) as info:
        loads_period(text)
    return info.value


def test_reads_example_and_normalises_results() -> None:
    period = loads_period(json.dumps(EXAMPLE))
    assert [g.result for g in period.tournaments[0].games] == ["1-0", "1/2-1/2", "1/2-1/2"]
    assert period.players[0].prior_results[0].opponent_rating == 1850
    assert period.players[1].rating == 1950
    # round trip
    assert loads_period(json.dumps(period_to_dict(period))) == period


def test_result_json_shape() -> None:
    out = result_to_dict(rate_period(loads_period(json.dumps(EXAMPLE))))
    assert out["ruleset"] == "fide-2024" and out["regulation_version"] == "fide-2024/2"
    assert out["regulation_version"] == get_regulation("fide-2024").version
    first = out["players"][0]  # type: ignore[index]
    for key in ("id", "rating_before", "rating_after", "change", "k", "games", "status"):
        assert key in first
    excluded = out["excluded"][0]  # type: ignore[index]
    assert excluded["reason"] == "not played (forfeit)" and excluded["article"] == "fide-2024 5.1"
    for key in ("tournament", "white", "black", "reason", "article"):
        assert key in excluded


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"ruleset": "fide-2024",\n "period": }', "json: malformed JSON at line 2 column 12"),
        (with_("ruleset", "fide-1850"), "ruleset: unknown ruleset 'fide-1850' (known: "),
        (with_("tournaments.0.games.0.white", "1099"),
         'tournaments[0].games[0].white: unknown player "1099"'),
        (with_("tournaments.0.games.1.result", "2-0"),
         'tournaments[0].games[1].result: bad result code "2-0"'),
        (with_("players.1.rating", -5), "players[1].rating: must not be negative (got -5)"),
        (with_("players.1.rating", "high"), "players[1].rating: must be an integer (got string"),
        (with_("players.0.birth_date", "2010-13-01"),
         "players[0].birth_date: bad date '2010-13-01'"),
        (with_("period.end", "2026-09-01"), "period.end: ends before it starts"),
        (with_("players.0.prior_results.0.score", 2),
         "players[0].prior_results[0].score: must be 0, 0.5 or 1"),
        (with_("players.1.ratting", 5), "players[1].ratting: unknown field"),
        (with_("parameters", {"floor": "x"}), "parameters.floor: must be of type int"),
        (with_("parameters", {"nope": 1}), "parameters.nope: unknown parameter"),
        (with_("players.1.id", "1001"), "players[1].id: duplicate player id"),
        ("[]", "the input must be a JSON object"),
    ],
)  # fmt: skip
def test_errors_name_field_and_item(text: str, message: str) -> None:
    err = error_of(text)
    assert str(err).startswith(message), str(err)
    assert "\n" not in str(err)


def test_unknown_ruleset_lists_known_ids() -> None:
    err = error_of(with_("ruleset", "nope"))
    assert isinstance(err, UnknownRulesetError)
    assert "fide-2024" in err.known


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rating_engine", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip


def test_cli_prints_result(tmp_path: Path) -> None:
    path = tmp_path / "period.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    proc = _cli(str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    # 1001 (2105, K 40 youth) beats 1950: D 155 -> .71: 40 x .29 = 11.6; draw as black:
    # 40 x (.5 - .71) = -8.4; sum 3.2 -> +3
    p = next(p for p in out["players"] if p["id"] == "1001")
    assert (p["rating_before"], p["rating_after"], p["change"], p["k"]) == (2105, 2108, 3, 40)


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("{not json", "malformed JSON at line 1 column 2"),
        (with_("ruleset", "x"), "ruleset: unknown ruleset"),
        (
            with_("tournaments.0.games.0.black", "77"),
            'tournaments[0].games[0].black: unknown player "77"',
        ),
        (
            with_("tournaments.0.games.0.result", "1:0"),
            "tournaments[0].games[0].result: bad result code",
        ),
        (with_("players.0.rating", -1), "players[0].rating: must not be negative"),
    ],
)
def test_cli_bad_input_one_line_exit_2(stdin: str, needle: str) -> None:
    proc = _cli("-", stdin=stdin)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_cli_missing_file() -> None:
    proc = _cli("/nonexistent/period.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("value", "expected"), [(None, None), (0, 0), (7, 7)])
def test_games_last_12_months_null_or_missing_is_unknown(
    value: int | None, expected: int | None
) -> None:
    # Unknown is not zero (RULESETS.md "Decided readings"): a missing or null figure reads as
    # None; a 0 stays 0; the writer keeps the difference.
    data = json.loads(json.dumps(EXAMPLE))
    missing = loads_period(json.dumps(data))
    assert missing.players[0].games_last_12_months is None
    data["players"][0]["games_last_12_months"] = value
    period = loads_period(json.dumps(data))
    assert period.players[0].games_last_12_months == expected
    again = loads_period(json.dumps(period_to_dict(period)))
    assert again.players[0].games_last_12_months == expected
