"""The tree stays clean: ruff on everything, mypy on the whole project (pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from mypy.options import PER_MODULE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]
PURE_LIBRARIES = [
    "rating_engine",
    "rating_engine.*",
    "formats",
    "formats.*",
    "config.embedded_db",
    "config.localrun",
]


@pytest.mark.skipif(
    shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
    reason="ruff is not installed",
)
def test_ruff_finds_nothing() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run(
        [str(ruff) if ruff.exists() else "ruff", "check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    """`mypy` as `make typecheck` runs it: every package, the tests, bench and manage.py, with
    the Django and DRF plugins. No environment at all: the plugin's settings hook
    (config/mypy_settings.py) must not need SECRET_KEY, DATABASE_URL or a database. The cache
    in .mypy_cache makes a second run take seconds (a cold one, under a minute)."""
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_pure_libraries_are_checked_with_every_strict_flag() -> None:
    """`strict = true` is global-only in mypy: inside an overrides table it switches --strict on
    for every module. So the engine and the report parsers list the flags --strict sets, and
    this compares them with the running mypy's own list (a new mypy may add one)."""
    define_options = pytest.importorskip("mypy.main").define_options

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert not any("strict" in override for override in config["overrides"])
    [pure] = [o for o in config["overrides"] if o["module"] == PURE_LIBRARIES]
    _parser, _names, strict_flags = define_options()
    for flag, value in strict_flags:
        if flag == "warn_unused_configs":  # reports nothing in incremental mode (the default)
            continue
        where = pure if flag in PER_MODULE_OPTIONS else config
        assert where.get(flag) == value, f"{flag} = {str(value).lower()} is missing"
