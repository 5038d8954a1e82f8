"""The calculator (``python -m rating_engine PERIOD.json``) with the older regulations."""

from __future__ import annotations

import json
from pathlib import Path

from engine_helpers import run_calculator

from rating_engine import rate_period
from rating_engine.jsonio import loads_period

# A quarterly list (9.11). A (2300, 100 games: K 15) in a Swiss: 2200 win, 2400 draw,
# 1900 win (difference 400 counts as 350: 1950, 10.51), 2350 loss; unrated U beats A in
# round 5 (not rated for A, 6.41; U has one rated opponent, 6.42).
# Rc = (2200 + 2400 + 1950 + 2350)/4 = 2225, D 75 -> .60 (69-76), We 2.40, W 2.5,
# 15 x .10 = 1.5 -> 2301.5 -> 2302 (10.56).
PERIOD = {
    "ruleset": "fide-2000",
    "period": {"start": "2000-10-01", "end": "2000-12-31"},
    "parameters": {"lists_per_year": 4},
    "players": [
        {"id": "A", "rating": 2300, "games": 100, "games_last_12_months": 12},
        {"id": "B", "rating": 2200, "games": 100},
        {"id": "C", "rating": 2400, "games": 100},
        {"id": "D", "rating": 1900, "games": 100},
        {"id": "E", "rating": 2350, "games": 100},
        {"id": "U", "rating": None},
    ],
    "tournaments": [
        {
            "id": "open",
            "system": "swiss",
            "end_date": "2000-11-15",
            "games": [
                {"white": "A", "black": "B", "result": "1-0", "round": 1},
                {"white": "C", "black": "A", "result": "1/2-1/2", "round": 2},
                {"white": "A", "black": "D", "result": "1-0", "round": 3},
                {"white": "E", "black": "A", "result": "1-0", "round": 4},
                {"white": "U", "black": "A", "result": "1-0", "round": 5},
            ],
        }
    ],
}


def test_calculator_rates_a_fide_2000_period(tmp_path: Path) -> None:
    proc = run_calculator(tmp_path, PERIOD)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["ruleset"] == "fide-2000"
    a = next(p for p in out["players"] if p["id"] == "A")
    assert (a["rating_before"], a["rating_after"], a["change"], a["k"]) == (2300, 2302, 2, 15)
    assert a["games"] == 4 and a["expected"] == 2.4
    assert {"code": "k", "article": "fide-2000 10.54a"}.items() <= a["notes"][0].items()
    excluded = [(e["white"], e["black"], e["article"]) for e in out["excluded"]]
    assert ("U", "A", "fide-2000 6.41") in excluded
    u = next(p for p in out["players"] if p["id"] == "U")
    assert any(n["article"] == "fide-2000 6.42" for n in u["notes"])


def test_calculator_rejects_bad_lists_per_year(tmp_path: Path) -> None:
    proc = run_calculator(tmp_path, {**PERIOD, "parameters": {"lists_per_year": 3}})
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: parameters.lists_per_year:")
    assert proc.stderr.count("\n") == 1


def test_missing_games_last_12_months_is_unknown_not_zero() -> None:
    # Calculator input (decided reading, docs/calculator.md): B, C, D, E have no
    # games_last_12_months. Each played 1 rated game; read as 0 that is 1 game in the year,
    # fewer than 4: inactive (9.23a). Unknown: no inactivity judgement, a note says why.
    # A has the figure: 12 + 4 = 16 >= 4: active, no such note.

    period = loads_period(json.dumps(PERIOD))
    by = {p.id: p for p in period.players}
    assert (by["A"].games_last_12_months, by["B"].games_last_12_months) == (12, None)
    out = {p.id: p for p in rate_period(period).players}
    for pid in "BCDE":
        assert out[pid].status == "rated"
        assert [(n.code, n.article) for n in out[pid].notes if "inactiv" in n.code] == [
            ("inactivity_unknown", "fide-2000 9.23a")
        ]
    assert out["A"].status == "rated"
    assert not any("inactiv" in n.code for n in out["A"].notes)
    # The same input with B's figure given as 0 (known): 0 + 1 < 4 -> inactive.
    data = json.loads(json.dumps(PERIOD))
    data["players"][1]["games_last_12_months"] = 0  # B
    known = loads_period(json.dumps(data))
    assert {p.id: p for p in rate_period(known).players}["B"].status == "inactive"
