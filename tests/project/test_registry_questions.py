"""No code outside the engine compares a ruleset id or an article string (issue 22, point 3).

Callers ask the registry (``rating_engine.registry.get_regulation``) what a regulation does:
its bulk rater, the inputs it needs, the facts of its windows. A comparison such as
``system.ruleset == "fide-2024"`` or ``window.article == "fide-2024 9.1"`` hides a fact of the
regulation in a caller; this test reads every module of the apps (its syntax tree, not its
text: comments and docstrings citing articles are welcome) and fails on such a comparison:
``==``, ``!=``, ``in``, ``not in`` against a literal (or a tuple, list or set of literals), a
``match`` case, or ``startswith``/``endswith`` of one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from rating_engine.registry import available_rulesets

ROOT = Path(__file__).resolve().parents[2]
#: Not scanned: the engine itself (it owns the ids and articles), the tests, migrations.
SKIPPED = {"rating_engine", "tests", "migrations", "node_modules", "static", "locale"}


def _literal_pattern(rulesets: tuple[str, ...]) -> re.Pattern[str]:
    """A ruleset id alone (``"fide-2024"``) or an article of it (``"fide-2024 9.1"``,
    ``"fce (office rule)"``)."""
    ids = "|".join(re.escape(r) for r in sorted(rulesets, key=len, reverse=True))
    return re.compile(rf"^(?:{ids})(?:\s.*)?$", re.DOTALL)


PATTERN = _literal_pattern(available_rulesets())


def _strings(node: ast.AST) -> Iterator[str]:
    """The string literals a comparison operand is or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from _strings(element)


def _pattern_strings(pattern: ast.pattern) -> Iterator[str]:
    if isinstance(pattern, ast.MatchValue):
        yield from _strings(pattern.value)
    elif isinstance(pattern, ast.MatchOr):
        for alternative in pattern.patterns:
            yield from _pattern_strings(alternative)
    elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        yield from _pattern_strings(pattern.pattern)


_COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def comparisons(source: str, pattern: re.Pattern[str] = PATTERN) -> list[tuple[int, str]]:
    """``(line, literal)`` of every comparison in ``source`` against a ruleset id or an
    article string."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        literals: list[str] = []
        if isinstance(node, ast.Compare):
            if any(isinstance(op, _COMPARISONS) for op in node.ops):
                for operand in (node.left, *node.comparators):
                    literals.extend(_strings(operand))
        elif isinstance(node, ast.match_case):
            literals.extend(_pattern_strings(node.pattern))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith")
        ):
            for argument in node.args:
                literals.extend(_strings(argument))
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.match_case):
            line = node.pattern.lineno
        found.extend((line, literal) for literal in literals if pattern.match(literal))
    return sorted(found)


def app_modules() -> list[Path]:
    """Every Python module of the project outside the engine, the tests and migrations."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIPPED or part.startswith(".") for part in parts):
            continue
        out.append(path)
    return out


def test_the_scanner_finds_every_kind_of_comparison() -> None:
    sample = """
if system.ruleset == "fide-2024":
    pass
if window.article != "fide-2024 9.1":
    pass
if system.ruleset in ("fide-2000", "feda-1996"):
    pass
if "cnxc-2000" not in rulesets:
    pass
if article.startswith("fce"):
    pass
match system.ruleset:
    case "fce" | "fide-2000":
        pass
    case _:
        pass
"""
    assert comparisons(sample) == [
        (2, "fide-2024"),
        (4, "fide-2024 9.1"),
        (6, "feda-1996"),
        (6, "fide-2000"),
        (8, "cnxc-2000"),
        (10, "fce"),
        (13, "fce"),
        (13, "fide-2000"),
    ]


def test_the_scanner_leaves_other_strings_alone() -> None:
    sample = '''
"""fide-2024 9.1: a docstring citing an article."""
ruleset = "fide-2024"  # an id passed on, not compared
EXAMPLE = {"ruleset": "fide-2024"}
if regulation.bulk is not None and status == "fide-2024x":
    check(ruleset="fide-2024")
if code in ("fcex", "rated"):
    pass
'''
    assert comparisons(sample) == []


def test_the_scanner_reads_the_apps() -> None:
    modules = {path.relative_to(ROOT).as_posix() for path in app_modules()}
    assert "periods/selectors.py" in modules
    assert "ratings/calculation/runs.py" in modules
    assert not any(m.startswith(("rating_engine/", "tests/")) for m in modules)
    assert not any("/migrations/" in m for m in modules)


def test_no_ruleset_id_or_article_is_compared_outside_the_engine() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {literal!r}"
        for path in app_modules()
        for line, literal in comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "ask the registry instead:\n" + "\n".join(found)
