"""Each import contract of pyproject.toml [tool.importlinter] catches a violation.

`lint-imports` passing on the real tree (tests/project/test_precommit.py) shows only that no
contract is broken today; a contract that names a module wrongly, or a layer list that lost a
name, would pass too. So, for every contract read from pyproject.toml, this builds a stub tree
in tmp_path — one empty package per root package, per layer and per module a contract names,
nothing of the real code — checks with the real configuration, unchanged, that every contract
is kept, then adds one import that breaks the contract and checks that `lint-imports` reports
that contract broken. The stubs follow the configuration: a new app in `root_packages` or in
a layer gets its stub package without any change here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "importlinter"
]
CONTRACTS: list[dict[str, Any]] = CONFIG["contracts"]


@dataclass(frozen=True)
class Violation:
    contract: str
    importer: str
    imported: str

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported}"


def _names(layer: str) -> list[str]:
    """The modules of one layer: `a | b` (independent) or `a : b` siblings; `(a)` is optional."""
    return [name.strip().strip("()").strip() for name in re.split(r"[|:]", layer)]


def _layer_modules(contract: dict[str, Any]) -> Iterator[str]:
    for container in contract.get("containers", [""]):
        for layer in contract["layers"]:
            for name in _names(layer):
                yield f"{container}.{name}" if container else name


def _internal(module: str) -> bool:
    return module.split(".")[0] in CONFIG["root_packages"]


def stub_modules() -> set[str]:
    """Every module the contracts name, each root package and their parents: the stub tree."""
    modules = set(CONFIG["root_packages"])
    for contract in CONTRACTS:
        if contract["type"] == "layers":
            modules.update(_layer_modules(contract))
        elif contract["type"] == "forbidden":
            modules.update(contract["source_modules"])
            modules.update(m for m in contract["forbidden_modules"] if _internal(m))
        else:  # a new contract type needs its own violation below
            raise AssertionError(f"no stub for a {contract['type']!r} contract")
    for module in list(modules):
        parts = module.split(".")
        modules.update(".".join(parts[:n]) for n in range(1, len(parts)))
    return modules


def violations(contract: dict[str, Any]) -> Iterator[Violation]:
    """Imports that break the contract, the subtlest ones it forbids.

    forbidden: each source module importing the first forbidden module (the pure packages
    importing Django; the pure packages importing an app).
    layers: a layer importing the one just above it, in the middle of the list (a lower app
    importing a higher one; in a container, a lower capability importing a higher one); and
    the first independent siblings (`a | b`) importing each other.
    """
    name = contract["name"]
    if contract["type"] == "forbidden":
        for source in contract["source_modules"]:
            yield Violation(name, source, contract["forbidden_modules"][0])
        return
    containers = contract.get("containers", [""])
    layers = contract["layers"]
    middle = len(layers) // 2
    prefix = f"{containers[0]}." if containers[0] else ""
    lower, higher = _names(layers[middle])[0], _names(layers[middle - 1])[0]
    yield Violation(name, prefix + lower, prefix + higher)
    independent = [layer for layer in layers if "|" in layer]
    if independent:
        first, second = _names(independent[0])[:2]
        yield Violation(name, prefix + first, prefix + second)


def _contract_named(part: str) -> str:
    [name] = [c["name"] for c in CONTRACTS if part in c["name"]]
    return name


#: Examples from the first version of these tests (in test_precommit.py before the pure
#: packages moved out of the apps), each naming its contract by a part of the name.
EXAMPLES = [
    Violation(_contract_named("import no Django"), "rating_engine", "django"),
    Violation(_contract_named("App layers"), "core", "periods"),
    Violation(_contract_named("App layers"), "periods", "tournaments"),
    Violation(_contract_named("nothing of the apps"), "rating_engine", "ratings.calculation"),
    Violation(_contract_named("Ratings capability"), "ratings.calculation", "ratings.publication"),
]
CASES = list(dict.fromkeys([v for c in CONTRACTS for v in violations(c)] + EXAMPLES))


def _lint_imports() -> list[str]:
    script = Path(sys.executable).parent / "lint-imports"
    if script.exists():
        return [str(script)]
    found = shutil.which("lint-imports")
    if found is None:
        pytest.skip("import-linter is not installed")
    return [found]


def _build(tree: Path, violation: Violation | None) -> None:
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for module in stub_modules():
        package = tree.joinpath(*module.split("."))
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").touch()
    if violation is not None:
        importer = tree.joinpath(*violation.importer.split("."))
        (importer / "violation.py").write_text(f"import {violation.imported}\n")


def _statuses(tree: Path) -> tuple[dict[str, str], str]:
    """Each contract's KEPT/BROKEN as `lint-imports` prints it, and the whole output."""
    # lint-imports reads pyproject.toml from its working directory; wide lines, not wrapped.
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "1000"}
    result = subprocess.run(
        [*_lint_imports(), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    statuses = {}
    for contract in CONTRACTS:
        found = re.search(re.escape(contract["name"]) + r" (KEPT|BROKEN)", output)
        assert found, f"lint-imports did not check {contract['name']!r}:\n{output}"
        statuses[contract["name"]] = found[1]
    broken = any(status == "BROKEN" for status in statuses.values())
    assert result.returncode == (1 if broken else 0), output
    return statuses, output


def test_the_stub_tree_keeps_every_contract(tmp_path: Path) -> None:
    """The control: the same tree, without a violating import, breaks nothing."""
    _build(tmp_path, None)
    statuses, output = _statuses(tmp_path)
    assert set(statuses.values()) == {"KEPT"}, output


def test_every_contract_has_a_violation() -> None:
    assert {case.contract for case in CASES} == {c["name"] for c in CONTRACTS}


@pytest.mark.parametrize("violation", CASES, ids=str)
def test_the_contract_catches_the_violation(tmp_path: Path, violation: Violation) -> None:
    _build(tmp_path, violation)
    statuses, output = _statuses(tmp_path)
    assert statuses[violation.contract] == "BROKEN", output
    assert f"{violation.importer}.violation -> {violation.imported}" in output, output
