"""Bad uploads, generated, and the probe that sends them through the real views.

Seeds: the regression corpus (tests/formats/reports/corpus/), a clean TRF16, a clean CSV
crosstable and FEDA lines; each bad upload is a seed with 1–4 mutations (junk numbers such as
``²``, 4,301 digits, ``inf``, ``1e308``; NUL and control characters; junk in separator
columns; lines dropped, doubled, cut, swapped; random bytes; UTF-16; truncation), or a
crosstable-form POST with junk in its fields. ``probe_one`` posts one through the upload view
(or the crosstable form) with Django's test client and checks: no 5xx, and when nothing was
accepted, no row written but the rejection record itself (one Report, status rejected).
bench/bench_bad_uploads.py sends thousands; tests/tournaments/test_bad_upload_probe.py a few,
drawn by hypothesis.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client

from tests.fuzzing import JUNK_CONTROLS, JUNK_NUMBERS, JUNK_QUOTES
from tests.tournaments.test_flow import sample_trf
from tournaments.models import Report, ReportStatus

CORPUS = Path(__file__).resolve().parents[1] / "formats" / "reports" / "corpus"
CSV_SEED = (
    b'No,Name,FIDE ID,Fed ID,Rating,1,2,3,Pts\n1,"Roca, Pau",,24001,2000,x,1,1,2\n'
    b'2,"Sala, Eva",,24002,1900,0,x,=,0.5\n3,"Puig, Joan",,,,0,=,x,0.5\n'
)
FEDA_SEED = (
    b"00000001,Roca Pau,M,ESP,01-02-85,4.5,9,1850\n00000002,Sala Eva,F,ESP,02-03-90,4.0,9,1800\n"
)
JUNK = [
    *JUNK_NUMBERS,
    "9223372036854775808",
    "-1",
    *JUNK_CONTROLS,
    "\ufffd",
    "\t",
    *JUNK_QUOTES,
    "16 by0",
    "0000 - HA",
    "é",
    "\r",
    "x" * 300,
]
# Tables an upload may write; after a rejection only reports may have one more row.
TABLES = (
    "tournaments_report",
    "tournaments_tournamentplayer",
    "tournaments_game",
    "players_player",
    "tournaments_reportuploadjob",
)


def seeds() -> list[tuple[str, bytes]]:
    found = [(p.name, p.read_bytes()) for p in sorted(CORPUS.iterdir()) if p.is_file()]
    return [*found, ("ok.trf", sample_trf()), ("rr.csv", CSV_SEED), ("list.asc", FEDA_SEED)]


def mutate(rng: random.Random, data: bytes) -> bytes:
    lines = data.decode("utf-8", "replace").split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        line = lines[i]
        op = rng.randrange(8)
        if op == 0:  # junk somewhere in a line
            c = rng.randrange(len(line) + 1)
            lines[i] = line[:c] + rng.choice(JUNK) + line[c + rng.randint(0, 6) :]
        elif op == 1:  # a number replaced by junk
            numbers = list(re.finditer(r"\d+(?:\.\d)?", line))
            if numbers:
                m = rng.choice(numbers)
                lines[i] = line[: m.start()] + rng.choice(JUNK) + line[m.end() :]
        elif op == 2:
            del lines[i]
            if not lines:
                lines = [""]
        elif op == 3:
            lines.insert(i, line)
        elif op == 4:
            lines[i] = line[: rng.randrange(len(line) + 1)]
        elif op == 5:
            lines.insert(
                i, "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randint(1, 90)))
            )
        elif op == 6:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:  # a whole record code changed
            lines[i] = rng.choice(["001", "012", "XXR", "013", "132", "###", "No,"]) + line[3:]
    out = "\n".join(lines).encode("utf-8")
    roll = rng.random()
    if roll < 0.05:
        out = "\n".join(lines).encode("utf-16")
    elif roll < 0.10:
        out = bytes(rng.randrange(256) for _ in range(rng.randint(0, 600)))
    elif roll < 0.14:
        out = out[: rng.randrange(len(out) + 1)]
    elif roll < 0.16:
        out = b""
    return out


CELLS = ["1", "0", "½", "=", "+", "-", "2", "1 1 0", "", "nan", "\x00"]


def form_post(rng: random.Random) -> dict[str, Any]:
    size = rng.choice(["2", "3", "4", "20", "21", "-1", "²", "9" * 40, "x", ""])
    data: dict[str, Any] = {"size": size}
    n = 4
    for i in range(1, n + 1):
        data[f"name_{i}"] = rng.choice(["Roca, Pau", "", "A" * 200, "Sala\x01, Eva", "ü, ö"])
        data[f"fed_id_{i}"] = rng.choice(["", "24001", "²²", "9" * 30])
        data[f"fide_id_{i}"] = rng.choice(["", "2200001", "²²", "-5", "9" * 30])
        data[f"rating_{i}"] = rng.choice(["", "2000", "inf", "nan", "1e308", "-99999", "²"])
        for j in range(1, n + 1):
            if i != j:
                data[f"cell_{i}_{j}"] = rng.choice(
                    ["1", "0", "½", "=", "+", "-", "2", "1 1 0", "", "nan"]
                )
    return data


@dataclass
class ProbeStats:
    sent: int = 0
    rejected: int = 0
    accepted: int = 0
    form_refused: int = 0
    server_errors: list[str] = field(default_factory=list)
    stray_rows: list[str] = field(default_factory=list)
    worst_seconds: float = 0.0
    worst_case: str = ""
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)


def counts() -> tuple[int, ...]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES))
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)


def probe_one(
    client: Client, tournament: Any, rng: random.Random, stats: ProbeStats, *, kind: str
) -> None:
    """Send one generated bad upload of ``kind`` (upload or form) and check the outcome."""
    before = counts()
    last_report = Report.objects.filter(tournament=tournament).order_by("-submission").first()
    if kind == "form":
        label = "crosstable form"
        url = f"/tournaments/{tournament.pk}/crosstable/"
        payload: dict[str, Any] = form_post(rng)
    else:
        name, seed = rng.choice(seeds())
        data = mutate(rng, seed)
        ext = rng.choice([name.rsplit(".", 1)[-1], "trf", "csv", "asc", "txt", "bin"])
        fmt = rng.choice(["auto", "auto", "trf16", "trf26", "feda", "csv"])
        label = f"{name} ({len(data)} bytes as .{ext}, {fmt})"
        url = f"/tournaments/{tournament.pk}/upload/"
        payload = {"file": SimpleUploadedFile(f"probe.{ext}", data), "format": fmt}
    started = time.perf_counter()
    response = client.post(url, payload)
    seconds = time.perf_counter() - started
    stats.sent += 1
    stats.seconds.append(seconds)
    stats.statuses[response.status_code] = stats.statuses.get(response.status_code, 0) + 1
    if seconds > stats.worst_seconds:
        stats.worst_seconds, stats.worst_case = seconds, label
    if response.status_code >= 500:
        stats.server_errors.append(f"{label}: {response.status_code}")
        return
    newest = Report.objects.filter(tournament=tournament).order_by("-submission").first()
    new_report = newest if newest is not None and newest != last_report else None
    if new_report is not None and new_report.status != ReportStatus.REJECTED:
        stats.accepted += 1  # a mutation that left a valid report: not a bad upload
        return
    after = counts()
    allowed = list(before)
    if new_report is not None:
        stats.rejected += 1
        allowed[0] += 1
    else:
        stats.form_refused += 1
    if after != tuple(allowed):
        changed = {t: (b, a) for t, b, a in zip(TABLES, before, after, strict=True) if b != a}
        stats.stray_rows.append(f"{label}: {response.status_code}, rows {changed}")
