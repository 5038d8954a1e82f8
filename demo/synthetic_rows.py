"""The synthetic federation's building blocks: a COPY writer per table (checked against the
model's columns) and the Elo-drawn results and circle-method pairings of its Swiss events."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import connection, models

from core.pg.copy import copy_from_text, copy_text
from core.pg.ids import reserve_ids

# --------------------------------------------------------------------------- writing rows


class CopyWriter:
    """Writes rows of one table by COPY."""

    def __init__(self, model: type[models.Model], columns: Sequence[str]):
        concrete = {f.column for f in model._meta.concrete_fields}
        if set(columns) != concrete:  # the model changed: fail loudly rather than write nulls
            raise RuntimeError(
                f"{model._meta.db_table}: generator columns differ from the model "
                f"(missing {sorted(concrete - set(columns))}, unknown "
                f"{sorted(set(columns) - concrete)})"
            )
        self.model = model
        self.table = model._meta.db_table
        self.columns = tuple(columns)
        self.rows = 0

    def reserve_ids(self, n: int) -> int:
        """First id of ``n`` consecutive ids nobody else will use."""
        with connection.cursor() as cursor:
            return reserve_ids(cursor, self.table, n)

    def write(self, rows: Iterable[Sequence[Any]]) -> int:
        qn = connection.ops.quote_name
        count = 0

        def lines() -> Iterator[str]:
            nonlocal count
            for row in rows:
                count += 1
                yield "\t".join(map(copy_text, row)) + "\n"

        copy_from_text(
            f"COPY {qn(self.table)} ({', '.join(qn(c) for c in self.columns)}) FROM STDIN", lines()
        )
        self.rows += count
        return count


def elo_result(rng: random.Random, white: int, black: int) -> tuple[str, str, str]:
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.32 * (1 - abs(expected - 0.5) * 1.4)
    roll = rng.random()
    if roll < draw:
        return "1/2-1/2", "0.5", "0.5"
    if roll < draw + (1 - draw) * expected:
        return "1-0", "1.0", "0.0"
    return "0-1", "0.0", "1.0"


def circle_rounds(n: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Pairings without rematches (rounds <= n - 1) by the circle method; n even."""
    idx = list(range(n))
    out = []
    for r in range(rounds):
        out.append(
            [
                (idx[i], idx[n - 1 - i]) if (r + i) % 2 == 0 else (idx[n - 1 - i], idx[i])
                for i in range(n // 2)
            ]
        )
        idx = [idx[0], idx[-1], *idx[1:-1]]
    return out
