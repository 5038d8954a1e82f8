""".pre-commit-config.yaml: local hooks that run the project's own tools from .venv, and the
import contracts of pyproject.toml that one of them (lint-imports) enforces (each contract
catching a violation: tests/project/test_contracts.py)."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def hooks() -> dict[str, dict]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    return {
        hook["id"]: {**hook, "repo": repo["repo"]}
        for repo in config["repos"]
        for hook in repo["hooks"]
    }


def test_the_hooks_are_there_and_local() -> None:
    found = hooks()
    expected = {"trailing-whitespace", "end-of-file-fixer", "ruff", "mypy", "import-linter"}
    assert expected <= set(found)
    for hook_id, hook in found.items():
        # Nothing fetched: no remote repository, no environment built by pre-commit.
        assert hook["repo"] == "local" and hook["language"] == "system", hook_id
        executable = shlex.split(hook["entry"])[0]
        assert executable.startswith(".venv/bin/"), hook_id


def test_every_hook_tool_is_installed_by_the_dev_extra() -> None:
    """Each entry is a script of the venv the project's own install creates."""
    if not (VENV_BIN / "ruff").exists():
        pytest.skip("not running from the project's venv")
    for hook_id, hook in hooks().items():
        name = Path(shlex.split(hook["entry"])[0]).name
        assert (VENV_BIN / name).exists(), f"{hook_id}: {name} is not in {VENV_BIN}"


def test_ruff_takes_its_line_length_from_pyproject() -> None:
    ruff = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
    assert ruff["line-length"] == 100
    assert "--line-length" not in hooks()["ruff"]["entry"]


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    lint = VENV_BIN / "lint-imports"
    if not lint.exists():
        pytest.skip("import-linter is not installed")
    return subprocess.run(
        [str(lint), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
    )


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
