"""The production image, checked without a Docker engine (none here): the Dockerfile read
instruction by instruction, .dockerignore matched as Docker matches it, and the Dockerfile's own
dependency and collectstatic commands run on a copy of the build context."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- Dockerfile


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs: comments dropped, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    result = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def runs() -> list[str]:
    return [args for keyword, args in instructions() if keyword == "RUN"]


def test_one_small_python_stage() -> None:
    bases = [args for keyword, args in instructions() if keyword == "FROM"]
    assert len(bases) == 1
    assert re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", bases[0]), bases[0]


def test_pip_keeps_no_cache_in_the_image() -> None:
    installs = [run for run in runs() if "pip install" in run]
    assert installs
    for run in installs:
        for command in run.split("&&"):
            if "pip install" in command:
                assert "--no-cache-dir" in command, command


def test_the_processes_run_as_an_unprivileged_user() -> None:
    steps = instructions()
    users = [i for i, (keyword, _) in enumerate(steps) if keyword == "USER"]
    assert users, "no USER instruction: the processes would run as root"
    last_user = steps[users[-1]][1]
    assert last_user.split(":")[0] not in {"root", "0"}, last_user
    # Nothing runs as root after it, and no RUN follows (they would need root anyway).
    assert all(keyword != "RUN" for keyword, _ in steps[users[-1] :])
    # The user is created in the image.
    name = last_user.split(":")[0]
    assert any("useradd" in run and re.search(rf"\b{re.escape(name)}\s*$", run) for run in runs())


def test_collectstatic_runs_with_the_production_storage_and_no_secret_is_kept() -> None:
    collect = [run for run in runs() if "collectstatic" in run]
    assert len(collect) == 1
    # DEBUG=1 or STATIC_MANIFEST=0 would select the storage without the manifest that
    # production (DEBUG=0) needs: every page would answer 500.
    assert "DEBUG=0" in collect[0] and "DEBUG=1" not in collect[0]
    assert "STATIC_MANIFEST" not in collect[0]
    for keyword, args in instructions():
        if keyword in {"ENV", "ARG"}:
            assert "SECRET_KEY" not in args


def test_messages_are_committed_so_the_image_needs_no_gettext() -> None:
    """The Dockerfile does not compile messages: that is right only while the .mo files are in
    the repository (tests/project/test_translations.py checks that they match the .po files)."""
    tracked = subprocess.run(
        ["git", "ls-files", "locale"], cwd=ROOT, capture_output=True, text=True
    )
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    mo = {Path(p) for p in tracked.stdout.split() if p.endswith(".mo")}
    po = {Path(p).with_suffix(".mo") for p in tracked.stdout.split() if p.endswith(".po")}
    assert po and po <= mo
    assert not any("compilemessages" in run for run in runs())


def test_the_dependency_step_installs_exactly_pyproject_dependencies(tmp_path: Path) -> None:
    step = next(run for run in runs() if "requirements.txt" in run and "tomllib" in run)
    words = shlex.split(step)
    code = words[words.index("-c") + 1]
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert result.stdout.splitlines() == expected
    assert "django-health-check" in " ".join(expected)


# --------------------------------------------------------------------------- .dockerignore


def ignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [
        line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")
    ]
    # The matcher below covers what the file uses; an exception (!) would need more.
    assert not any(p.startswith("!") for p in patterns)
    return patterns


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """Docker's .dockerignore matching (Go filepath.Match plus `**`), paths relative to the
    context root, '/'-separated."""
    pattern = pattern.strip("/")
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out, i = out + pattern[i : end + 1], end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker leaves a path out when a pattern matches it or one of its parent directories."""
    regexes = [_pattern_regex(p) for p in patterns]
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    return any(rx.fullmatch(prefix) for rx in regexes for prefix in prefixes)


def test_the_matcher_follows_docker() -> None:
    assert ignored("a/b/__pycache__/x.pyc", ["**/__pycache__"])
    assert ignored("__pycache__/x.pyc", ["**/__pycache__"])
    assert ignored(".venv/bin/python", [".venv"])
    assert not ignored("ratings/.venv", [".venv"])  # a plain pattern is anchored at the root
    assert ignored("db.sqlite3", ["*.sqlite3"]) and not ignored("data/db.sqlite3", ["*.sqlite3"])
    assert not ignored("config/settings.py", ["**/*.py[cod]"])


@pytest.mark.parametrize(
    "path",
    [
        ".git/HEAD",
        ".venv/bin/python",
        ".env",
        ".env.production",
        ".pgdata/PG_VERSION",
        "backups/rating_office-20260101T030000Z.dump",
        ".celery/beat-schedule",
        "celerybeat-schedule.db",
        "db.sqlite3",
        "media/upload.txt",
        "staticfiles/staticfiles.json",
        "node_modules/left-pad/index.js",
        ".pytest_cache/v/x",
        ".mypy_cache/3.11/x.json",
        ".ruff_cache/x",
        ".hypothesis/examples/x",
        "ratings/__pycache__/tasks.cpython-311.pyc",
        "config/settings.pyc",
        "rating_office.egg-info/PKG-INFO",
        "tests/config/test_health.py",
        "test-artifacts/page.png",
        "bench/bench_import.py",
    ],
)
def test_local_state_and_secrets_stay_out_of_the_build_context(path: str) -> None:
    assert ignored(path, ignore_patterns()), path


def _needed_files() -> list[str]:
    needed = ["pyproject.toml", "manage.py"]
    folders = ("config", "core", "players", "tournaments", "ratings", "protests", "lists", "desk")
    for folder in (*folders, "templates", "static", "locale"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                needed.append(path.relative_to(ROOT).as_posix())
    return needed


def test_everything_the_image_runs_is_in_the_build_context() -> None:
    patterns = ignore_patterns()
    needed = _needed_files()
    assert any(p.endswith("django.mo") for p in needed) and "static/css/site.css" in needed
    left_out = [path for path in needed if ignored(path, patterns)]
    assert not left_out


def build_context(target: Path) -> None:
    """Copy what `docker build` would send (the tree less .dockerignore) into target."""
    patterns = ignore_patterns()
    for folder, dirnames, filenames in os.walk(ROOT):
        relative = Path(folder).relative_to(ROOT)
        dirnames[:] = [d for d in dirnames if not ignored((relative / d).as_posix(), patterns)]
        for name in filenames:
            path = (relative / name).as_posix()
            if not ignored(path, patterns):
                (target / relative).mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / path, target / path)


@pytest.mark.slow
def test_collectstatic_as_the_dockerfile_runs_it_writes_the_manifest(tmp_path: Path) -> None:
    """The Dockerfile's collectstatic step, run by sh in a copy of the build context with only
    the Dockerfile's environment: it must leave staticfiles/staticfiles.json, which the
    production storage reads."""
    build_context(tmp_path)
    assert not (tmp_path / "tests").exists() and (tmp_path / "manage.py").exists()
    step = next(run for run in runs() if "collectstatic" in run)
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",  # `python`: this venv's
        "PYTHONPATH": str(tmp_path),
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(tmp_path),
    }
    result = subprocess.run(
        ["sh", "-c", step], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    manifest = (tmp_path / "staticfiles" / "staticfiles.json").read_text()
    assert '"css/site.css"' in manifest and '"admin/css/base.css"' in manifest
