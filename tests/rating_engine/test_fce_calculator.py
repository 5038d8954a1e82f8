"""fce through the calculator: a JSON period via ``python -m rating_engine`` (subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

from engine_helpers import run_calculator

# Standard list, March 2026, differential by bands (9.5): below 2000 +100, from 2000 +50.
# A 2000 (40 games, K 20) beats X (no FCE, FIDE 1950 -> 2050, 7.3) and loses by forfeit
# to Y (FIDE 2100 -> 2150).
#   vs X: D = -50 -> L .43 (47-53): 20 x (1 - .43) = +11.4
#   forfeit loss (8.2): against his own 2000 with K/2 = 10: 10 x (0 - .50) = -5
#   +6.4 -> +6 -> 2006.
# X: first rating 2050 (10.1), K 40: D = +50 -> .57: 40 x (0 - .57) = -22.8 -> -23 -> 2027.
# Y: the forfeit win is not rated (8.1): no game rated for him, so he is not "avaluat per
#   primera vegada" (10.1, decided reading): he stays unrated, no 2150.
# U (no FCE, no FIDE) draws A in a rapid tournament: other list (5.2), left out.
PERIOD = {
    "ruleset": "fce",
    "period": {"start": "2026-03-01", "end": "2026-03-31"},
    "parameters": {
        "list": "standard",
        "differential": {"2026": [{"from": 0, "value": 100}, {"from": 2000, "value": 50}]},
    },
    "players": [
        {"id": "A", "rating": 2000, "games": 40, "birth_date": "1980-01-01"},
        {"id": "X", "rating": None, "fide_rating": 1950},
        {"id": "Y", "rating": None, "fide_rating": 2100},
        {"id": "U", "rating": None},
    ],
    "tournaments": [
        {
            "id": "T1",
            "system": "swiss",
            "end_date": "2026-03-20",
            "rate_of_play": "90+30",
            "games": [
                {"white": "A", "black": "X", "result": "1-0", "round": 1},
                {"white": "Y", "black": "A", "result": "1-0", "forfeit": True, "round": 2},
            ],
        },
        {
            "id": "R1",
            "system": "swiss",
            "end_date": "2026-03-22",
            "rate_of_play": "rapid",
            "games": [{"white": "U", "black": "A", "result": "1/2-1/2", "round": 1}],
        },
    ],
}


def test_fce_period_through_the_calculator(tmp_path: Path) -> None:
    proc = run_calculator(tmp_path, PERIOD)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    players = {p["id"]: p for p in out["players"]}
    assert (players["A"]["rating_after"], players["A"]["k"]) == (2006, 20)
    assert (players["X"]["rating_after"], players["X"]["status"]) == (2027, "new")
    assert (players["Y"]["rating_after"], players["Y"]["status"]) == (None, "unrated")
    assert any(
        n["code"] == "no_rated_game" and n["article"] == "fce 10.1" for n in players["Y"]["notes"]
    )
    arts = {e["article"] for e in out["excluded"]}
    assert {"fce 8.1", "fce 5.2"} <= arts
    assert any(n["article"] == "fce 10.1" for n in players["X"]["notes"])


def test_fce_bad_parameter_exits_2_naming_it(tmp_path: Path) -> None:
    bad = dict(PERIOD, parameters={"list": "blitz"})
    proc = run_calculator(tmp_path, bad)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: parameters.list:")
