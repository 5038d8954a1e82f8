"""cnxc-2000 through the calculator: a JSON period via ``python -m rating_engine``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from engine_helpers import run_calculator

# First half of 2026. E 2100, 30 games -> K 25 (6.4). Virtual ratings (5.3): V1 ICCF 2300,
# V2 FPX 1900, V3 FIDE 1800, V4 none in an ordinary competition -> 1750.
# E draws all four: We = .24 + .76 + .85 + .89 = 2.74 (Tabela II), W = 2:
#   V = 25 x (2 - 2.74) = -18.5 -> 2081.5 -> 2082 (6.6 half up).
# V4: 1 game, .5 against E 2100: p .50 -> D 0 -> 2100, provisional (6.3, 5.1).
# A substitution (7.2 g): in T2 N (no rating) takes over from E against B 2000 (60 games,
# K 20) and wins: not charged to N (g); E (d): 1 - .64 (D 100) > 0 -> not charged;
# B faced max(E 2100, N 1750) = 2100: D -100 -> .36: 20 x (0 - .36) = -7.2 -> 1993.
# T3 finishes in July: left out (4.1).
PERIOD = {
    "ruleset": "cnxc-2000",
    "period": {"start": "2026-01-01", "end": "2026-06-30"},
    "players": [
        {"id": "E", "rating": 2100, "games": 30, "last_game_date": "2025-10-01"},
        {"id": "B", "rating": 2000, "games": 60, "last_game_date": "2025-10-01"},
        {"id": "V1", "rating": None, "iccf_rating": 2300, "fpx_rating": 2000, "fide_rating": 2100},
        {"id": "V2", "rating": None, "fpx_rating": 1900, "fide_rating": 2000},
        {"id": "V3", "rating": None, "fide_rating": 1800},
        {"id": "V4", "rating": None},
        {"id": "N", "rating": None},
    ],
    "tournaments": [
        {
            "id": "T1",
            "system": "round_robin",
            "end_date": "2026-05-31",
            "kind": "open",
            "games": [{"white": "E", "black": f"V{i}", "result": "1/2-1/2"} for i in range(1, 5)],
        },
        {
            "id": "T2",
            "system": "team",
            "end_date": "2026-06-15",
            "games": [{"white": "E", "black": "B", "result": "1-0"}],
            "substitutions": [
                {
                    "white": "E",
                    "black": "B",
                    "side": "white",
                    "players": [{"id": "E", "moved": True}, {"id": "N", "moved": True}],
                },
            ],
        },
        {
            "id": "T3",
            "system": "round_robin",
            "end_date": "2026-07-02",
            "games": [{"white": "B", "black": "V1", "result": "0-1"}],
        },
    ],
}


def test_cnxc_period_through_the_calculator(tmp_path: Path) -> None:
    proc = run_calculator(tmp_path, PERIOD)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    players = {p["id"]: p for p in out["players"]}
    assert (players["E"]["rating_after"], players["E"]["k"]) == (2082, 25)
    assert players["E"]["expected"] == 2.74
    assert (players["V4"]["rating_after"], players["V4"]["status"]) == (2100, "provisional")
    assert players["B"]["rating_after"] == 1993
    assert (players["N"]["rating_after"], players["N"]["games"]) == (None, 0)
    arts = {e["article"] for e in out["excluded"]}
    assert {"cnxc-2000 4.1", "cnxc-2000 7.2 g", "cnxc-2000 7.2 d"} <= arts


def test_cnxc_bad_substitution_exits_2_naming_it(tmp_path: Path) -> None:
    bad = copy.deepcopy(PERIOD)
    bad["tournaments"][1]["substitutions"] = [{"side": "white"}]  # type: ignore[index]
    proc = run_calculator(tmp_path, bad)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: tournaments[1].substitutions[0].white: is required")


def test_cnxc_substitutions_are_no_longer_a_parameter(tmp_path: Path) -> None:
    bad = dict(PERIOD, parameters={"winners": {"T1": "E"}})
    proc = run_calculator(tmp_path, bad)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: parameters.winners:"), proc.stderr
