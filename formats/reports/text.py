"""The lines of a report, and the characters no report may contain.

Every parser reads its text through :func:`report_lines`: newlines are normalised, a
trailing DOS end-of-file mark (``\\x1a``) is dropped, and each line holding a control
character (C0 other than tab, DEL, C1, or a lone surrogate) gets one ``control_character``
error at the first one. The characters are then replaced by U+FFFD, one for one, so the
columns of everything else stay right and no problem parameter carries a NUL (PostgreSQL
refuses NUL in text and jsonb).
"""

from __future__ import annotations

import re

from ..problems import ProblemList, error

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _control_problems(text: str) -> ProblemList:
    problems = ProblemList()
    line = 1
    line_start = 0  # index of the first character of ``line``
    scanned = 0  # newlines before this index are counted
    last_line = 0
    for m in _CONTROL.finditer(text):
        pos = m.start()
        newlines = text.count("\n", scanned, pos)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", scanned, pos) + 1
        scanned = pos
        if line == last_line:
            continue  # one problem per line
        last_line = line
        problems.append(
            error(
                "control_character",
                line=line,
                column=pos - line_start + 1,
                value=f"U+{ord(m.group()):04X}",
            )
        )
    return problems


def report_lines(text: str) -> tuple[list[str], ProblemList]:
    """Split ``text`` into lines (``\\n``, ``\\r\\n`` or ``\\r``); the problems are one
    ``control_character`` error per line that holds one."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff").rstrip("\x1a")
    problems = ProblemList()
    if _CONTROL.search(text) is not None:
        problems = _control_problems(text)
        text = _CONTROL.sub("\ufffd", text)
    return text.split("\n"), problems
