""".pre-commit-config.yaml: local hooks that run the project's own tools from .venv, and the
import contracts of pyproject.toml that one of them (lint-imports) enforces."""

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


def test_the_contracts_catch_django_in_the_engine(tmp_path: Path) -> None:
    """The same [tool.importlinter] section, on a small tree whose engine imports Django."""
    _small_tree(tmp_path)
    (tmp_path / "rating_engine" / "maths.py").write_text("from django.conf import settings\n")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout and "rating_engine.maths" in result.stdout


def _small_tree(root: Path) -> None:
    """Every root package of the contracts, empty, under the project's [tool.importlinter]."""
    section = (ROOT / "pyproject.toml").read_text().split("[tool.importlinter]", 1)[1]
    section = section.split("\n[tool.", 1)[0]
    (root / "pyproject.toml").write_text("[tool.importlinter]" + section)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    names = set(config["root_packages"])
    for contract in config["contracts"]:
        names |= {m for m in contract.get("forbidden_modules", []) if m.split(".")[0] in names}
        for container in contract.get("containers", []):
            names |= {
                f"{container}.{m.strip()}" for layer in contract["layers"] for m in layer.split("|")
            }
    for name in sorted(names):  # every module a contract names must exist
        package = root.joinpath(*name.split("."))
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text("")


@pytest.mark.parametrize(
    ("module", "imports", "name"),
    [
        ("core/helpers.py", "import periods", "App layers"),  # a lower layer importing a higher one
        ("periods/models.py", "import tournaments", "App layers"),
        ("rating_engine/maths.py", "import ratings.calculation", "nothing of the apps"),
        ("ratings/calculation/runs.py", "import ratings.publication", "Ratings capability layers"),
    ],
)
def test_the_contracts_catch_an_import_against_the_layers(
    tmp_path: Path, module: str, imports: str, name: str
) -> None:
    _small_tree(tmp_path)
    (tmp_path / module).write_text(imports + "\n")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    broken = [line for line in result.stdout.splitlines() if "BROKEN" in line]
    assert any(name in line for line in broken), result.stdout
