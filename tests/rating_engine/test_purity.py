"""The pure packages, rating_engine and formats, stay pure (no Django/DRF/Celery). Their
mypy --strict flags are checked with the whole project by tests/project/test_lint.py (one
mypy run, one cache)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rating_engine"
FORMATS = ROOT / "formats"
FORBIDDEN = ("django", "rest_framework", "celery")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(
            node.func, "attr", getattr(node.func, "id", "")
        ) in (
            "import_module",
            "__import__",
        ):
            names.extend(
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            )
    return names


def test_pure_modules_exist() -> None:
    assert len(list(ENGINE.rglob("*.py"))) >= 10
    assert len(list(FORMATS.rglob("*.py"))) >= 20


@pytest.mark.parametrize(
    "path",
    sorted([*ENGINE.rglob("*.py"), *FORMATS.rglob("*.py")]),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_framework_imports(path: Path) -> None:
    bad = [n for n in _imports(path) if n.split(".")[0] in FORBIDDEN]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_detector_catches_django(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import os\nfrom django.db import models\n", encoding="utf-8")
    assert "django.db" in _imports(sample)
