"""The tree stays clean: ruff on everything, mypy --strict on the pure libraries."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is not installed")
def test_ruff_finds_nothing() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff) if ruff.exists() else "ruff", "check", "."], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_report_parsers_pass_mypy_strict() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "tournaments/reports"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
