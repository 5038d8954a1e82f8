"""The round cells of a TRF `001` line: opponent, colour and result every ten columns."""

from __future__ import annotations

from ..numbers import SMALLINT_MAX
from ..problems import Problem, error, out_of_range, warning
from .pairing import RoundEntry
from .trf_base import TrfReaderBase
from .trf_layout import (
    _COLOURS,
    _FAST_SLOT,
    _OPPONENTS,
    _RESULTS,
    _ROW,
    _ROW_CELLS,
    RESULT_CODES,
    ROUND0,
    ROUND_STEP,
    _cell_columns,
    _new_entry,
)


def _cell_error(
    code: str, line: int, column: int, field: str, rnd: int, rank: int, value: str
) -> Problem:
    """An error about the ``field`` of a round cell as written (``value``)."""
    return error(code, line=line, column=column, field=field, round=rnd, rank=rank, value=value)


class RoundCells(TrfReaderBase):
    def half_bye(self, lineno: int, col: int, rnd: int, rank: int, slot: str) -> str:
        """`0000 - =` (Irish files): a half-point bye, read as H with a warning."""
        self.problems.append(
            warning(
                "bye_draw_sign",
                line=lineno,
                column=col + 7,
                field="result",
                round=rnd,
                rank=rank,
                value=slot.strip(),
            )
        )
        return "H"

    def row_entries(self, lineno: int, padded: str, rank: int) -> None:
        """The cells of a row that ``_ROW`` accepted (the fast path of every clean file)."""
        entries = self.entries
        cells = _ROW_CELLS.findall(padded)
        columns = _cell_columns(len(cells))
        rnd = last = 0
        for opp, colour, raw in cells:
            rnd += 1
            if opp == "    " and colour == " " and raw == " ":
                continue
            opponent = _OPPONENTS[opp] if opp in _OPPONENTS else (int(opp) or None)
            result = _RESULTS[raw]
            col, colour_col, result_col = columns[rnd - 1]
            if result == "=" and opponent is None:
                result = self.half_bye(lineno, col, rnd, rank, f"{opp} {colour} {raw}")
            # tuple.__new__: the named tuple without its Python-level __new__
            entries.append(
                _new_entry(
                    RoundEntry,
                    (
                        rank,
                        rnd,
                        opponent,
                        _COLOURS[colour],
                        result,
                        lineno,
                        col,
                        colour_col,
                        result_col,
                    ),
                )
            )
            last = rnd
        if last > self.max_round:
            self.max_round = last

    def round_entries(self, lineno: int, line: str, rank: int) -> None:
        tail = line[ROUND0 - 1 :]
        cells = -(-len(tail) // ROUND_STEP)
        if cells <= SMALLINT_MAX:
            padded = tail + " " * (cells * ROUND_STEP - len(tail))
            if _ROW.fullmatch(padded):
                self.row_entries(lineno, padded, rank)
                return
        k = 0
        while ROUND0 + ROUND_STEP * k <= len(line):
            col = ROUND0 + ROUND_STEP * k
            rnd = k + 1
            k += 1
            if rnd > SMALLINT_MAX:  # Game.round is a smallint: the rest of the line is junk
                self.problems.append(
                    out_of_range(line=lineno, column=col, field="round", value=rnd)
                )
                break
            slot = line[col - 1 : col + 7]
            gap = line[col + 7 : col + 9]
            if gap and not gap.isspace():
                self.gaps(lineno, line, (col + 8, col + 9), rank)
            if slot.isspace() or not slot:
                continue
            m = _FAST_SLOT.match(slot)
            if m is not None:  # fast path: a well-formed cell
                opp_text, colour, result = m.groups()
                colour = colour.lower()
                result = result.upper()
                opponent = (int(opp_text) or None) if opp_text.strip() else None
                if result == "=" and opponent is None:
                    result = self.half_bye(lineno, col, rnd, rank, slot)
                self.max_round = rnd if rnd > self.max_round else self.max_round
                self.entries.append(
                    RoundEntry(
                        rank,
                        rnd,
                        opponent,
                        "-" if colour == " " else colour,
                        "" if result == " " else result,
                        lineno,
                        col,
                        col + 5,
                        col + 7,
                    )
                )
                continue
            slot = slot.ljust(8)
            if not slot.strip():
                continue
            self.gaps(lineno, line, (col + 4, col + 6), rank)
            opp_raw, colour_raw, result_raw = slot[0:4], slot[5], slot[7]
            try:
                opp = self.number(lineno, col, "opponent", opp_raw)
            except ValueError:
                continue
            colour = colour_raw.lower()
            if colour == " ":
                colour = "-"
            if colour not in ("w", "b", "-"):
                self.problems.append(
                    _cell_error("invalid_colour", lineno, col + 5, "colour", rnd, rank, colour_raw)
                )
                colour = "-"
            result = result_raw.upper().strip()
            if result and result not in RESULT_CODES:
                self.problems.append(
                    _cell_error("invalid_result", lineno, col + 7, "result", rnd, rank, result_raw)
                )
                continue
            if result == "=" and not opp:
                result = self.half_bye(lineno, col, rnd, rank, slot)
            self.max_round = max(self.max_round, rnd)
            self.entries.append(
                RoundEntry(
                    rank=rank,
                    round=rnd,
                    opponent=opp or None,
                    colour=colour,
                    result=result,
                    line=lineno,
                    opponent_column=col,
                    colour_column=col + 5,
                    result_column=col + 7,
                )
            )
