"""Property tests: render → parse round trip, and fuzzing the real samples."""

from __future__ import annotations

import dataclasses
import os
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formats.reports import (
    ParsedReport,
    ReportDecodeError,
    ReportGame,
    ReportHeader,
    ReportPlayer,
    decode_report,
    parse_report,
    parse_trf,
    render_trf,
)
from tests.formats.reports.helpers import DATA

POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
PAIRS = {
    "played": [("1", "0"), ("0", "1"), ("=", "=")],
    "forfeit": [("+", "-"), ("-", "+"), ("-", "-")],
    "short": [("W", "L"), ("L", "W"), ("D", "D")],
}
BYES = {
    "bye_half": ("H", 0.5),
    "bye_full": ("F", 1.0),
    "bye_pab": ("U", 1.0),
    "bye_zero": ("Z", 0.0),
    "absent": ("-", 0.0),
}

names = st.from_regex(r"[A-Z][a-z]{1,8}(-[A-Z][a-z]{1,5})?, [A-Z][a-z]{1,8}", fullmatch=True)


@st.composite
def tournaments(draw: st.DrawFn) -> ParsedReport:
    n = draw(st.integers(2, 16))
    rounds = draw(st.integers(1, 9))
    games: list[ReportGame] = []
    points = dict.fromkeys(range(1, n + 1), 0.0)
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, n + 1))))
        pairs = draw(st.integers(0, n // 2))
        for i in range(pairs):
            a, b = order[2 * i], order[2 * i + 1]
            kind = draw(st.sampled_from(["played", "played", "forfeit", "short"]))
            ra, rb = draw(st.sampled_from(PAIRS[kind]))
            known = draw(st.booleans())
            if not known:
                a, b = min(a, b), max(a, b)
                if a != order[2 * i]:
                    ra, rb = rb, ra
            games.append(
                ReportGame(
                    round=rnd,
                    white_rank=a,
                    black_rank=b,
                    result=ra,
                    white_score=POINTS[ra],
                    black_score=POINTS[rb],
                    kind=kind,  # type: ignore[arg-type]
                    colours_known=known,
                )
            )
            points[a] += POINTS[ra]
            points[b] += POINTS[rb]
        pab_used = False
        for r in order[2 * pairs :]:
            drawn = draw(st.sampled_from([None, *BYES]))
            if drawn is None or (drawn == "bye_pab" and pab_used):
                continue
            kind = drawn
            pab_used = pab_used or kind == "bye_pab"
            code, score = BYES[kind]
            games.append(
                ReportGame(
                    round=rnd,
                    white_rank=r,
                    black_rank=None,
                    result=code,
                    white_score=score,
                    black_score=None,
                    kind=kind,  # type: ignore[arg-type]
                    colours_known=False,
                )
            )
            points[r] += score
    players = []
    for rank in range(1, n + 1):
        birth_date = draw(st.none() | st.dates(date(1920, 1, 1), date(2020, 12, 31)))
        birth_year = birth_date.year if birth_date else draw(st.none() | st.integers(1920, 2020))
        players.append(
            ReportPlayer(
                start_rank=rank,
                name=draw(names),
                sex=draw(st.sampled_from(["m", "w", ""])),
                title=draw(
                    st.sampled_from(["", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"])
                ),
                rating=draw(st.none() | st.integers(1000, 2899)),
                federation=draw(st.sampled_from(["", "ESP", "POR", "GER"])),
                fide_id=draw(st.sampled_from(["", str(1000 + 7 * rank), str(24000000 + rank)])),
                birth_date=birth_date,
                birth_year=birth_year,
                declared_points=draw(st.sampled_from([None, points[rank]])),
                rank=draw(st.none() | st.integers(1, n)),
            )
        )
    start = draw(st.dates(date(2000, 1, 1), date(2040, 1, 1)))
    header = ReportHeader(
        name=draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .]{0,40}[a-z]", fullmatch=True)),
        city="Madrid",
        federation="ESP",
        start_date=start,
        end_date=start,
        chief_arbiter="IA Someone",
        deputy_arbiters=("One", "Two"),
        time_control="90+30",
        rounds=rounds,
        round_dates=(start,) * rounds,
        tournament_type="Swiss",
        format="trf16",
    )
    games.sort(key=lambda g: (g.round, g.white_rank))
    return ParsedReport(header=header, players=tuple(players), games=tuple(games))


def _strip(x: object) -> object:
    if isinstance(x, ReportGame):  # a named tuple
        return x._replace(line=None)
    return dataclasses.replace(x, line=None)  # type: ignore[type-var]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_render_parse_round_trip(t: ParsedReport) -> None:
    text = render_trf(t)
    back = parse_trf(text)
    assert back.problems == ()
    assert [_strip(p) for p in back.players] == list(t.players)
    assert [_strip(g) for g in back.games] == list(t.games)
    h = back.header
    assert (h.name, h.start_date, h.rounds, h.round_dates, h.deputy_arbiters) == (
        t.header.name,
        t.header.start_date,
        t.header.rounds,
        t.header.round_dates,
        t.header.deputy_arbiters,
    )
    assert render_trf(back) == text


def _samples() -> list[bytes]:
    if not DATA.is_dir():
        return []
    return [p.read_bytes() for p in sorted(DATA.glob("*.trf"))]


SAMPLES = _samples()


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(
            st.sampled_from(
                [
                    "flip",
                    "delete_line",
                    "dup_line",
                    "truncate",
                    "insert",
                    "swap_lines",
                    "blank_slot",
                ]
            )
        )
        if not data:
            break
        if op == "flip":
            i = draw(st.integers(0, len(data) - 1))
            data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1 :]
        elif op == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif op == "insert":
            i = draw(st.integers(0, len(data)))
            data = data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
        else:
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "delete_line":
                del lines[i]
            elif op == "dup_line":
                lines.insert(i, lines[i])
            elif op == "swap_lines":
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            else:  # overwrite an 8-character slot with another sample's text
                col = draw(st.integers(0, 240))
                lines[i] = (
                    lines[i][:col]
                    + draw(
                        st.sampled_from(
                            [
                                b"  12 w 1",
                                b"0000 - +",
                                b"   x b =",
                                b"  -1 w 0",
                                b"9999 b +",
                                b"     w  ",
                                b"    1 1 ",
                            ]
                        )
                    )
                    + lines[i][col + 8 :]
                )
            data = b"\n".join(lines)
    return data


@pytest.mark.skipif(not SAMPLES, reason="shared samples not available")
@settings(
    # 400 mutations in the suite (a few seconds); FUZZ_EXAMPLES=5000 for a deeper run.
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "400")),
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(mutated())
def test_fuzz_real_samples(data: bytes) -> None:
    try:
        text = decode_report(data)
    except ReportDecodeError:
        return
    report = parse_report(text)
    assert isinstance(report, ParsedReport)
    for p in report.problems:
        assert p.severity in ("error", "warning")
        assert isinstance(p.message, str)
