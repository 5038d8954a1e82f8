"""README's production notes name every step the image and docker-compose.yml run: each
`manage.py` command, the gunicorn and Celery command lines, the files a step checks for and
the unprivileged user (a missing `collectstatic` once made every production page answer 500)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def production_notes() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("### Production without Docker")
    end = text.find("\n## ", start)
    return " ".join(text[start : end if end > 0 else None].split())


def dockerfile_commands() -> list[str]:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    commands = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("RUN "):
            commands.append(line[4:])
        elif line.startswith("CMD "):
            commands.append(" ".join(json.loads(line[4:])))
    return commands


def compose_commands() -> list[str]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    found = []
    for service in services.values():
        command = service.get("command")
        if isinstance(command, list):
            command = " ".join(command)
        if command and not command.startswith("redis-server"):
            found.append(command.removeprefix("sh -c ").strip('"'))
    return found


def test_every_manage_py_command_is_in_the_notes() -> None:
    notes = production_notes()
    commands = " ".join(dockerfile_commands() + compose_commands())
    steps = set(re.findall(r"manage\.py [a-z_]+(?: --noinput)?", commands))
    assert {"manage.py collectstatic --noinput", "manage.py migrate --noinput"} <= steps
    for step in steps:
        assert step in notes, f"README's production notes do not say to run {step!r}"


def test_the_processes_and_checks_are_in_the_notes() -> None:
    notes = production_notes()
    commands = dockerfile_commands() + compose_commands()
    for command in commands:
        for part in re.split(r"&&", command):
            part = " ".join(part.strip().strip('"').split())
            if part.startswith(("gunicorn", "celery")):
                assert part in notes, f"README's production notes miss {part!r}"
            for checked in re.findall(r"test -f (\S+)", part):
                assert checked in notes, f"README's production notes miss the check of {checked}"
            if part.startswith("useradd"):
                assert "unprivileged user" in notes
            if part.startswith("pip install"):
                assert "pip install" in notes and "pyproject.toml" in notes
