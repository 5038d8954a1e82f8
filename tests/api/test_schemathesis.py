"""The API against its own OpenAPI schema, on a live server: schemathesis' own runner
(`st run --checks all`, settings in tests/api/schemathesis.toml) as an anonymous client and
with the token of each role, every phase: the schema's examples, fuzzing (valid and invalid
requests) and the stateful phase (chains of calls following the links schemathesis finds: a
tournament registered, then read, its reports sent and read…) for every operation in every
run; the coverage phase (each parameter's and field's bounds, choices and types, just inside
and just outside: about 2,000 requests, most of the time of a run) once per operation, in the
run of the identity that gets past its rule: public operations anonymously, the others with
the token of the role they are for (COVERAGE_ROLES).

Every check runs, with no exclusion: no server error; status codes, content types, headers and
bodies as documented; every request the schema allows accepted (2xx, or 401/403/404/409/422:
the settings add 422, see there) and every request it forbids refused; a missing required
header refused; undocumented methods answered 405 with `Allow`; a resource reachable after its
creation (and not after its deletion: vacuous, the API deletes nothing); operations declared
as needing credentials refusing requests without them or with bad ones (public operations are
declared public, `{}` in their security); object-level authorization (vacuous too: it compares
the identities of one run, and each run has one).

0 failures allowed, per role."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import WSGIServer
from django.test import Client
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler

from tests.api.conftest import make_world

#: Anonymous, and one user of each role (the superuser passes every rule: left out). The
#: officer last: his calls change the most (periods calculated and published, protests decided).
ROLES = ("anonymous", "player", "arbiter", "officer")
CONFIG = Path(__file__).with_name("schemathesis.toml")
#: The four phases every role's run must have gone through (and passed).
PHASES = ("examples", "coverage", "fuzzing", "stateful")
#: A bound on one role's run: a hung server fails the test instead of holding CI.
RUN_TIMEOUT = 240
#: The role whose run covers an operation that needs credentials (the coverage phase): the
#: one it is for. Officers pass every other operation's rule.
COVERAGE_ROLES = {"POST /api/v1/protests/": "player", "POST /api/v1/tournaments/": "arbiter"}


@contextmanager
def _no_capture(**_: Any) -> Iterator[None]:
    yield  # transactional test: on_commit callbacks run at each commit already


class _OneThreadServer(LiveServerThread):
    """A live server that answers on its own thread, one request after another, and so keeps
    its database connection (CONN_MAX_AGE). Why: Django's live server answers each request
    on a new thread with a new PostgreSQL connection, which cost more than the request did
    over the runs' few thousand requests."""

    def _create_server(self, connections_override: Any = None) -> WSGIServer:
        return WSGIServer(
            (self.host, self.port), QuietWSGIRequestHandler, allow_reuse_address=False
        )


@pytest.fixture
def server_url(transactional_db: None) -> Iterator[str]:
    thread = _OneThreadServer("127.0.0.1", static_handler=StaticFilesHandler)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    yield f"http://127.0.0.1:{thread.port}"
    thread.terminate()


def _coverage_owners(schema: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(method, path) of each operation -> the role whose run covers it."""
    owners = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            label = f"{method.upper()} {path}"
            public = {} in operation.get("security", [])
            owners[method.upper(), path] = (
                "anonymous" if public else COVERAGE_ROLES.get(label, "officer")
            )
    return owners


def _config(role: str, owners: dict[tuple[str, str], str], folder: Path) -> Path:
    """tests/api/schemathesis.toml, with the coverage phase off for the operations that
    another role's run covers."""
    text = CONFIG.read_text()
    for (method, path), owner in sorted(owners.items()):
        if owner != role:
            # One filter (include-name, "METHOD /path"): separate include-* filters are OR-ed.
            text += (
                f'\n[[operations]]\ninclude-name = "{method} {path}"\n'
                "phases.coverage.enabled = false\n"
            )
    config = folder / f"{role}.toml"
    config.write_text(text)
    return config


def _start(url: str, role: str, token: str | None, folder: Path, config: Path) -> Any:
    """One role's run, started: `st run --checks all` with the role's settings, its JSON
    report and its printed output written in `folder`."""
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "--no-color",
        "run",
        url,
        "--checks",
        "all",
        "--report",
        "json",
        "--report-json-path",
        str(folder / f"{role}.json"),
    ]
    if token:
        command += ["--header", f"Authorization: Token {token}"]
    output = (folder / f"{role}.out").open("w")
    return subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, cwd=folder)


def _finish(process: Any, role: str, folder: Path) -> str | None:
    """Wait for one role's run; what went wrong in it, or None."""
    try:
        process.wait(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return f"--- {role}: still running after {RUN_TIMEOUT} s, stopped"
    output = (folder / f"{role}.out").read_text()
    report_file = folder / f"{role}.json"
    if not report_file.exists():
        return f"--- {role}: no report\n{output[-4000:]}"
    report = json.loads(report_file.read_text())
    phases = {name: (report["phases"] or {}).get(name, {}) for name in PHASES}
    operations = report["operations"]
    timings = dict(re.findall(r"(Examples|Coverage|Fuzzing|Stateful) \(in ([0-9.]+)s\)", output))
    links = re.search(r"API Links: *(.*)", output)
    print(
        f"{role}: {report['test_cases']['generated']} cases, operations "
        f"{operations['tested']}/{operations['total']}, phases "
        + ", ".join(
            f"{name} {p.get('status')} {timings.get(name.capitalize(), '?')} s"
            for name, p in phases.items()
        )
        + f"; stateful links {links.group(1) if links else '?'}"
        + f"; {report['running_time'] or 0:.0f} s"
    )
    not_passed = [name for name, p in phases.items() if p.get("status") != "success"]
    untested = operations["tested"] != operations["total"] or operations["total"] < 28
    if report["failures"] or report["errors"] or not_passed or untested or report["exit_code"]:
        return f"--- {role}: phases not passed {not_passed}\n{output[-12000:]}"
    return None


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_api_keeps_to_its_schema(server_url: str, tmp_path: Path) -> None:
    world = make_world(_no_capture)
    url = f"{server_url}/api/v1/schema/?format=json"
    owners = _coverage_owners(json.loads(Client().get("/api/v1/schema/?format=json").content))
    assert set(owners.values()) == set(ROLES)
    configs = {role: _config(role, owners, tmp_path) for role in ROLES}
    # The anonymous run alongside the others: it changes nothing (every write needs a user),
    # so the others' results do not depend on it, and it is the longest (the public
    # operations' coverage, the calculator's above all). The users' runs one after the other,
    # the officer last: his calls change the most.
    anonymous = _start(url, "anonymous", None, tmp_path, configs["anonymous"])
    problems = []
    for role in ROLES[1:]:
        process = _start(url, role, world.tokens[role], tmp_path, configs[role])
        problems.append(_finish(process, role, tmp_path))
    problems.append(_finish(anonymous, "anonymous", tmp_path))
    assert not any(problems), "\n".join(p for p in problems if p)
