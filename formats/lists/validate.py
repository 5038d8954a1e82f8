"""Raw rows checked and normalised in Python (titles, sex, names, numbers, duplicates).

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from formats.lists.rows import (
    BIRTH_MAX,
    BIRTH_MIN,
    FLAGS,
    RATING_MAX,
    RATING_MIN,
    ListRow,
    RawRow,
    problem,
)
from formats.problems import Problem

OLD_TITLES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}
VALID_TITLES = frozenset(
    {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "MN", "MF", "MC", "WMF", "MI", "WMI"}
)


def normal_title(raw: str) -> str:
    """'g' -> 'GM' (2011 codes), 'GM' -> 'GM'; an unknown title is dropped (docs/lists.md)."""
    value = OLD_TITLES.get(raw, raw.upper())
    return value if value in VALID_TITLES else ""


def normal_sex(raw_sex: str, flag: str) -> str:
    """The Sex column if given; otherwise the flag (FIDE marks women with 'w')."""
    s = raw_sex.strip().upper()[:1]
    if s in ("M", "F"):
        return s
    return "F" if "w" in flag.lower() else "M"


#: The given name of a player known by one name only (FIDE writes ", Vardharajan" or
#: "Vardharajan"): the registry needs one, and the arbiter's matching writes the same
#: (tournaments.services.matching).
NO_GIVEN_NAME = "-"


def split_name(name: str) -> tuple[str, str]:
    """'Andreikin, Dmitry' -> ('Andreikin', 'Dmitry'). A one-word name, with or without its
    comma (', Vardharajan', 'Vardharajan'), is the surname, never an empty one:
    ('Vardharajan', '-')."""
    surname, _sep, given = name.partition(",")
    surname, given = surname.strip(), given.strip()
    if not surname:
        return given, NO_GIVEN_NAME if given else ""
    return surname, given or NO_GIVEN_NAME


_DIGITS = re.compile(r"^[0-9]{1,9}$")  # imports.py: the same patterns in SQL
_ID_DIGITS = re.compile(r"^[0-9]{1,18}$")


def validate_rows(raw_rows: Iterable[RawRow]) -> tuple[list[ListRow], list[Problem]]:
    """Python checks (a reader's oracle for the tests); imports.py runs the same checks in SQL."""
    out: list[ListRow] = []
    problems: list[Problem] = []
    seen: dict[int, int] = {}

    def number(raw: RawRow, fld: str) -> int | None:
        value = raw.values.get(fld, "")
        if value == "":
            return None
        if not (_ID_DIGITS if fld == "fide_id" else _DIGITS).match(value):
            problems.append(
                problem("bad_number", row=raw.row, column=raw.labels.get(fld, fld), value=value)
            )
            return None
        return int(value)

    for raw in raw_rows:
        v = raw.values
        lab = raw.labels
        before = len(problems)
        fide_id = number(raw, "fide_id")
        if fide_id is None and v.get("fide_id", "") == "":
            problems.append(problem("missing_id", row=raw.row, column=lab.get("fide_id", "ID")))
        rating = number(raw, "rating")
        if rating == 0:
            rating = None
        if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
            problems.append(
                problem(
                    "rating_out_of_range",
                    row=raw.row,
                    column=lab["rating"],
                    value=rating,
                    min=RATING_MIN,
                    max=RATING_MAX,
                )
            )
        games = number(raw, "games")
        k = number(raw, "k")
        birth = number(raw, "birth_year")
        if birth == 0:
            birth = None
        if birth is not None and not BIRTH_MIN <= birth <= BIRTH_MAX:
            problems.append(
                problem(
                    "birth_out_of_range",
                    row=raw.row,
                    column=lab["birth_year"],
                    value=birth,
                    min=BIRTH_MIN,
                    max=BIRTH_MAX,
                )
            )
        flag = v.get("flag", "").lower()
        if flag not in FLAGS:
            problems.append(
                problem(
                    "bad_flag", row=raw.row, column=lab.get("flag", "Flag"), value=v.get("flag", "")
                )
            )
        fed = v.get("fed", "").upper()
        if len(fed) > 3:
            problems.append(
                problem(
                    "bad_federation",
                    row=raw.row,
                    column=lab.get("fed", "Fed"),
                    value=v.get("fed", ""),
                )
            )
        if fide_id is not None:
            if fide_id in seen:
                problems.append(
                    problem(
                        "duplicate_id",
                        row=raw.row,
                        column=lab.get("fide_id", "ID"),
                        value=fide_id,
                        first=seen[fide_id],
                    )
                )
            else:
                seen[fide_id] = raw.row
        if len(problems) > before:
            continue
        out.append(
            ListRow(
                fide_id=fide_id,
                name=v.get("name", ""),
                fed=fed,
                sex=normal_sex(v.get("sex", ""), flag),
                title=normal_title(v.get("title", "")),
                w_title=v.get("w_title", ""),
                o_title=v.get("o_title", ""),
                foa_title=v.get("foa_title", ""),
                rating=rating,
                games=games or 0,
                k=k,
                birth_year=birth,
                flag=flag,
                fed_id=v.get("fed_id", ""),
            )
        )
    return out, problems


def sort_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.code))
