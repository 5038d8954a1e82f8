"""Golden periods: one per regulation, kept with the version that made its output.

``golden/<ruleset>.json`` holds a period (``input``, in the calculator's JSON), what the
regulation made of it (``output``) and the regulation's ``version`` then. test_golden.py rates
the input again: an output that changed while ``VERSION`` did not fails ("bump VERSION"), and so
does a ``VERSION`` that changed while the golden was not regenerated (docs/engine.md "Versions:
when to bump").

Regenerate after bumping a version (refused while the output differs under the same version)::

    PYTHONPATH=$PWD python -m tests.rating_engine.golden_periods --write fide-2024

``--write`` with no ruleset regenerates every golden whose version changed; ``--check`` prints
what test_golden.py would report.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rating_engine import rate_period
from rating_engine.jsonio import period_from_dict, result_to_dict
from rating_engine.registry import all_regulations, get_regulation
from rating_engine.regulations.base import Regulation

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
ROOT = Path(__file__).resolve().parents[2]
COMMAND = "PYTHONPATH=$PWD python -m tests.rating_engine.golden_periods --write"


def golden_path(ruleset: str) -> Path:
    return GOLDEN_DIR / f"{ruleset}.json"


def golden_load(ruleset: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden_path(ruleset).read_text(encoding="utf-8"))
    return data


def golden_rate(golden: dict[str, Any]) -> dict[str, Any]:
    """The output the regulation makes today of the golden's input (plain JSON values)."""
    out: dict[str, Any] = json.loads(
        json.dumps(result_to_dict(rate_period(period_from_dict(golden["input"]))))
    )
    return out


def version_home(regulation: Regulation) -> str:
    """The module that declares the regulation's ``VERSION`` (next to ``REGULATION``)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("rating_engine.regulations.") and (
            getattr(module, "REGULATION", None) is regulation
        ):
            path = Path(module.__file__ or name)
            return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    return f"the module of {type(regulation).__qualname__}"


def differences(expected: Any, got: Any, path: str = "output") -> Iterator[str]:
    """Where ``got`` differs from ``expected``, one line per differing leaf."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(expected.keys() | got.keys()):
            if key not in got:
                yield f"{path}.{key}: missing (was {expected[key]!r})"
            elif key not in expected:
                yield f"{path}.{key}: new ({got[key]!r})"
            else:
                yield from differences(expected[key], got[key], f"{path}.{key}")
    elif isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            yield f"{path}: {len(got)} items (was {len(expected)})"
        for i, (a, b) in enumerate(zip(expected, got, strict=False)):
            yield from differences(a, b, f"{path}[{i}]")
    elif expected != got or type(expected) is not type(got):
        yield f"{path}: {got!r} (was {expected!r})"


def golden_problems(golden: dict[str, Any], *, limit: int = 10) -> list[str]:
    """Why the golden no longer holds (empty: it holds). The output is compared without its
    ``regulation_version``, which the first check covers."""
    ruleset = golden["input"]["ruleset"]
    regulation = get_regulation(ruleset)
    if golden["version"] != regulation.version:
        return [
            f"{ruleset}: VERSION is {regulation.version!r} but golden/{ruleset}.json was made by "
            f"{golden['version']!r}; regenerate it: {COMMAND} {ruleset}"
        ]
    expected = {k: v for k, v in golden["output"].items() if k != "regulation_version"}
    got = {k: v for k, v in golden_rate(golden).items() if k != "regulation_version"}
    found = list(differences(expected, got))
    if not found:
        return []
    shown = found[:limit] + ([f"... and {len(found) - limit} more"] if len(found) > limit else [])
    return [
        f"{ruleset}: the output changed but VERSION is still {regulation.version!r}: bump VERSION "
        f'in {version_home(regulation)} (docs/engine.md "Versions: when to bump"), then '
        f"regenerate: {COMMAND} {ruleset}",
        *shown,
    ]


def golden_write(ruleset: str) -> str:
    """Rate the golden's input again and store the output with the current version; refused
    while the output changed under the version the golden names."""
    golden = golden_load(ruleset)
    regulation = get_regulation(ruleset)
    if "output" in golden and golden["version"] == regulation.version:
        problems = golden_problems(golden)
        if problems:
            raise SystemExit("\n".join(["refused:", *problems]))
        return f"{ruleset}: unchanged ({regulation.version})"
    golden["version"] = regulation.version
    golden["output"] = golden_rate(golden)
    golden_path(ruleset).write_text(golden_dumps(golden), encoding="utf-8")
    return f"{ruleset}: written ({regulation.version})"


def golden_dumps(golden: dict[str, Any]) -> str:
    """The golden as JSON with one player, tournament, game line or exclusion a line (a
    regenerated golden's diff shows what changed)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    def section(part: dict[str, Any]) -> str:
        lines = []
        for key, value in part.items():
            if isinstance(value, list) and value:
                items = ",\n".join(f"   {dump(item)}" for item in value)
                lines.append(f"  {dump(key)}: [\n{items}\n  ]")
            else:
                lines.append(f"  {dump(key)}: {dump(value)}")
        return "{\n" + ",\n".join(lines) + "\n }"

    top = [
        f" {dump(key)}: {section(value) if key in ('input', 'output') else dump(value)}"
        for key, value in golden.items()
    ]
    return "{\n" + ",\n".join(top) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ("--write", "--check"):
        print(f"usage: {COMMAND} [RULESET ...]  |  --check", file=sys.stderr)
        return 2
    rulesets = args[1:] or sorted(all_regulations())
    if args[0] == "--check":
        problems = [p for r in rulesets for p in golden_problems(golden_load(r))]
        print("\n".join(problems) or "every golden holds")
        return 1 if problems else 0
    for ruleset in rulesets:
        print(golden_write(ruleset))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
