"""A golden period per regulation: the output may change only with the regulation's VERSION
(docs/engine.md "Versions: when to bump"; the goldens and their command: golden_periods.py)."""

from __future__ import annotations

import copy
import re

import pytest
from golden_periods import (
    GOLDEN_DIR,
    golden_load,
    golden_problems,
    golden_rate,
    golden_write,
    version_home,
)

from rating_engine.registry import all_regulations, get_regulation
from rating_engine.version import check_version, version_number

RULESETS = sorted(all_regulations())


def test_every_regulation_has_a_golden_and_every_golden_a_regulation() -> None:
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.json")) == RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_golden_period_holds(ruleset: str) -> None:
    golden = golden_load(ruleset)
    assert golden["input"]["ruleset"] == ruleset
    problems = golden_problems(golden)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_version_names_the_regulation_and_a_revision_from_2(ruleset: str) -> None:
    regulation = get_regulation(ruleset)
    assert re.fullmatch(rf"{re.escape(ruleset)}/[1-9][0-9]*", regulation.version)
    assert (version_number(regulation.version) or 0) >= 2
    assert version_home(regulation).startswith("rating_engine/regulations/")


def test_a_malformed_version_is_refused() -> None:
    assert check_version("fce", "fce/3") == "fce/3"
    for bad in ("fce/1", "fide-2024/2", "fce", "fce/2.1", "1.0.0"):
        with pytest.raises(ValueError, match="VERSION must read"):
            check_version("fce", bad)
    assert version_number("") is None


def test_a_changed_output_under_the_same_version_says_bump() -> None:
    golden = copy.deepcopy(golden_load("fide-2024"))
    player = golden["output"]["players"][0]
    player["rating_after"] = (player["rating_after"] or 0) + 1
    problems = golden_problems(golden)
    assert problems and "bump VERSION in rating_engine/regulations/fide_2024" in problems[0]
    assert "--write fide-2024" in problems[0]
    assert any(line.startswith("output.players[0].rating_after: ") for line in problems[1:])


def test_a_changed_version_without_a_new_golden_says_regenerate() -> None:
    golden = copy.deepcopy(golden_load("fce"))
    golden["version"] = "fce/1"
    (problem,) = golden_problems(golden)
    assert "made by 'fce/1'" in problem and "regenerate it" in problem and "--write fce" in problem


def test_write_refuses_a_changed_output_under_the_same_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    golden = copy.deepcopy(golden_load("cnxc-2000"))
    golden["output"]["excluded"].append({"code": "invented"})
    monkeypatch.setattr("golden_periods.golden_load", lambda ruleset: golden)
    with pytest.raises(SystemExit, match="refused:"):
        golden_write("cnxc-2000")


def test_the_output_names_the_version() -> None:
    golden = golden_load("feda-1996")
    assert golden_rate(golden)["regulation_version"] == golden["version"] == "feda-1996/4"
