"""The bulk path's output as the draft writer takes it: COPY lines of the rated players' results
and their counted game lines packed per tournament (ratings.models.LINE_DTYPE)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rating_engine import ENGINE_VERSION
from rating_engine import types as et
from rating_engine.regulations.fide_2024 import REGULATION as FIDE_2024
from ratings.calculation.draft import group_lines, notes_json
from ratings.models import LINE_DTYPE, CalculationRun

#: The state query's status codes (bulk_path.players_sql_build's CASE), as stored.
STATUS_CODES = ("", "inactive", "out_of_list", "provisional", "passive")


def bulk_result_lines(
    *,
    run: CalculationRun,
    P: Any,
    out: Any,
    last: Any,
    mask: Any,
    hidden_in: dict[int, set[int]],
    floor: int,
) -> Iterable[str]:
    """COPY lines of the draft rows of the rated players in `mask`. A row with decisions to
    explain (K lowered by the 700 rule, below the floor, inactive, active again, 8.2.4) gets
    the engine's own notes (`Fide2024.rated_notes`), so both paths word them alike."""
    idx = np.nonzero(mask)[0]
    tail = f"\t{run.pk}\t{FIDE_2024.id}\t{ENGINE_VERSION}\t{FIDE_2024.version}\n"
    NULL = r"\N"
    dates: dict[int, str] = {0: NULL}
    cols = [
        idx,
        P[idx, 0],
        P[idx, 1],
        out.rating_after[idx],
        out.change[idx],
        out.k[idx],
        out.games[idx],
        out.score2[idx],
        out.expected_milli[idx],
        out.out_of_list[idx],
        out.inactive[idx],
        out.reactivated[idx],
        out.k_reduced[idx],
        P[idx, 8],
        P[idx, 2],
        last[idx],
        P[idx, 4],
        P[idx, 5],
        P[idx, 7],
        P[idx, 6],
        P[idx, 9],
    ]
    # Each note's JSON is made once per distinct wording (a semester has 100,000 rows with a
    # note but a few hundred distinct notes): the engine words one note at a time.
    made: dict[tuple[Any, ...], str] = {}

    def note(
        *,
        key: tuple[Any, ...],
        last_before: int = 0,
        was_inactive: bool = False,
        k: int = 0,
        n: int = 0,
        rating_after: int = 0,
        hidden: Sequence[str] = (),
    ) -> str:
        text = made.get(key)
        if text is None:
            code = key[0]
            notes = FIDE_2024.rated_notes(
                et.PlayerInput(
                    id="",
                    rating=0,
                    last_game_date=dt.date.fromordinal(last_before) if last_before else None,
                    status="inactive" if was_inactive else "",
                ),
                k=k,
                rule=0,
                reduced=code == "k_700",
                n=n,
                rating_after=rating_after,
                out_of_list=code == "below_floor",
                inactive=code == "inactive",
                reactivated=code == "reactivated",
                hidden_in=hidden,
                floor=floor,
            )
            text = made[key] = ", ".join(json.dumps(x) for x in notes_json(notes=notes)).replace(
                "\\", "\\\\"
            )
        return text

    def date_text(*, ordinal: int) -> str:
        d = dates.get(ordinal)
        if d is None:
            d = dates[ordinal] = dt.date.fromordinal(ordinal).isoformat()
        return d

    for (
        i,
        p,
        before,
        after,
        change,
        k,
        games,
        score2,
        exp,
        ool,
        inact,
        react,
        k700,
        prev,
        gb,
        lastd,
        r24,
        r22,
        flagged,
        last_before,
        since,
    ) in zip(*(c.tolist() for c in cols), strict=True):
        k700 = bool(k700 and games)
        hidden = hidden_in.get(i)
        if k700 or ool or inact or react or hidden:
            # In the engine's order (Fide2024.rated_notes).
            codes, parts = [], []
            if k700:
                codes.append("k_700")
                parts.append(note(key=("k_700", k, games), k=k, n=games))
            for t in sorted(map(str, hidden or ())):
                codes.append("rated_after_first_list")
                parts.append(note(key=("rated_after_first_list", t), hidden=(t,)))
            if ool:
                codes.append("below_floor")
                parts.append(
                    note(key=("below_floor", before + change), rating_after=before + change)
                )
            if inact:
                codes.append("inactive")
                parts.append(
                    note(
                        key=("inactive", last_before, prev == 1),
                        last_before=last_before,
                        was_inactive=prev == 1,
                    )
                )
            if react:
                codes.append("reactivated")
                parts.append(note(key=("reactivated",)))
            fj = json.dumps(sorted(set(codes)))
            nj = "[" + ", ".join(parts) + "]"
        else:
            fj = nj = "[]"
        status = "out_of_list" if ool else "inactive" if inact else "rated"
        d = date_text(ordinal=lastd)
        yield (
            f"{p}\t{before}\t{NULL if ool else after}\t{change}\t{k}\tfide-2024 8.3.3\t"
            f"{games}\t{score2 / 2}\t"
            f"{exp / 1000}\t{status}\t{STATUS_CODES[prev]}\t{'t' if inact else 'f'}\tf\t"
            f"{fj}\t{nj}\t{gb + games}\t"
            f"{d}\t{'t' if r24 or after >= 2400 else 'f'}\t{'t' if r22 or after >= 2200 else 'f'}\t"
            f"{flagged + 1 if inact else 0}\t[]\t{gb}\t"
            # The state it started from (the *_before columns); pooled results are not read here.
            f"{'t' if r24 else 'f'}\t{'t' if r22 else 'f'}\t{date_text(ordinal=last_before)}\t"
            f"{flagged}\t{NULL}\t"
            f"{date_text(ordinal=since)}{tail}"
        )


def bulk_tournament_rows(
    *,
    w: Any,
    b: Any,
    ws2: Any,
    t: Any,
    pid: Any,
    rating: Any,
    out: Any,
    white_counts: Any = None,
    black_counts: Any = None,
) -> list[tuple[Any, ...]]:
    """Both sides of every counted game (a side that does not count, 8.2.4, is left out),
    packed per tournament: in each tournament the white lines in game order, then the black
    lines (as `tournament_rows` orders them). Written into the packed array in place:
    building the line arrays first and sorting them took half a gigabyte for a semester."""
    n = len(t)
    if n == 0:
        return []
    go = np.argsort(t, kind="stable")
    tg = t[go]
    first = np.r_[True, tg[1:] != tg[:-1]]
    seg_start = np.flatnonzero(first)
    seg_len = np.diff(np.r_[seg_start, n])
    seg = np.cumsum(first) - 1
    pw = (
        np.arange(n) + seg_start[seg]
    )  # white line of sorted game i: its tournament's block start + i
    pb = pw + seg_len[seg]  # black lines follow the tournament's white lines
    del first, seg
    W, B = w[go], b[go]
    e = out.white_expected_milli[go]
    s2 = ws2[go]
    kw, kb = out.k[W], out.k[B]
    lines = np.empty(2 * n, dtype=np.dtype(LINE_DTYPE))
    ts = np.empty(2 * n, dtype=np.int64)
    change = np.empty(2 * n, dtype=np.float64)
    ts[pw] = tg
    ts[pb] = tg
    lines["player"][pw], lines["player"][pb] = pid[W], pid[B]
    lines["opponent"][pw], lines["opponent"][pb] = pid[B], pid[W]
    lines["opponent_rating"][pw], lines["opponent_rating"][pb] = rating[B], rating[W]
    lines["score2"][pw], lines["score2"][pb] = s2, 2 - s2
    lines["k"][pw], lines["k"][pb] = kw, kb
    lines["expected"][pw], lines["expected"][pb] = e / 1000, (1000 - e) / 1000
    change[pw] = kw * (s2 * 500 - e) / 1000
    change[pb] = kb * (e - s2 * 500) / 1000
    lines["change"] = change
    if (
        white_counts is not None
        and black_counts is not None
        and not (white_counts.all() and black_counts.all())
    ):
        keep = np.empty(2 * n, dtype=bool)
        keep[pw], keep[pb] = white_counts[go], black_counts[go]
        ts, lines, change = ts[keep], lines[keep], change[keep]
        if not len(ts):
            return []
    return group_lines(ts=ts, lines=lines, change=change)
