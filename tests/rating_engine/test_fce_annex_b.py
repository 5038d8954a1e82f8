"""The FCE proposal's annex B through the engine (bench/annex_b.py), against hand-worked rows.

A 2600 player draws nine 2500s every monthly period (4.5 / 9: a 2500 performance).
Taula 1, per tournament ΔR = K x 9 x (.5 - PD), rounded to the unit (17.2):
K 40 (K x 9 = 360):
  2600: D 100 -> .64 (99-106): 360 x -.14 = -50.4 -> -50 -> 2550
  2550: D 50 -> .57 (47-53): -25.2 -> -25 -> 2525
  2525: D 25 -> .53 (18-25): -10.8 -> -11 -> 2514
  2514: D 14 -> .52 (11-17): -7.2 -> -7 -> 2507
  2507: D 7 -> .51 (4-10): -3.6 -> -4 -> 2503
  2503: D 3 -> .50 (0-3): 0 -> 2503 for ever.
  Within 50 after 1, 25 after 2, 10 after 4, 5 after 5, never within 1; final 2503.
K 20 (180): 2600 -> -25.2 -> 2575; D 75 .60 -18 -> 2557; D 57 .58 -14.4 -> 2543;
  D 43 .56 -10.8 -> 2532; D 32 .54 -7.2 -> 2525; D 25 .53 -5.4 -> 2520; D 20 .53 -> 2515;
  D 15 .52 -3.6 -> 2511; D 11 .52 -> 2507; D 7 .51 -1.8 -> 2505; D 5 .51 -> 2503; then 0.
  Within 50 after 3, 25 after 5, 10 after 9, 5 after 10, never within 1; final 2503.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "annex_b.py"


def _annex() -> ModuleType:
    spec = importlib.util.spec_from_file_location("annex_b", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["annex_b"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_k40_row() -> None:
    row = _annex().engine_row(40)
    assert row.ratings == (2550, 2525, 2514, 2507, 2503, 2503)
    assert (row.reached, row.final) == ((1, 2, 4, 5, None), 2503)


def test_k20_row() -> None:
    row = _annex().engine_row(20)
    assert row.ratings[:11] == (2575, 2557, 2543, 2532, 2525, 2520, 2515, 2511, 2507, 2505, 2503)
    assert (row.reached, row.final) == ((3, 5, 9, 10, None), 2503)
