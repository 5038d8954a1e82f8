"""What a list import reads and answers: its formats, its phases (shown on the job's page), its
result and its error (nothing written), and the decoding of the file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from formats import lists as lf
from formats.problems import Problem
from periods.models import RatingSystem

FORMATS = ("txt", "csv", "xml")

#: Where an import writes the list's ratings (sql.TARGET_FIDE, TARGET_SYSTEM).
TARGETS = ("fide", "system")

#: Which rows of the file may create a player (issue 24 item 7, docs/lists.md "Which players
#: an import creates"): none (only players already in the registry, by FIDE ID, are updated),
#: the federation's own (the row's federation is settings.FEDERATION_CODE), or every row.
PLAYERS_UPDATE = "update"
PLAYERS_FEDERATION = "federation"
PLAYERS_ALL = "all"
PLAYER_CHOICES = (PLAYERS_UPDATE, PLAYERS_FEDERATION, PLAYERS_ALL)


FED_ID_PREFIX = "FIDE-"


#: pghistory's insert tracker on Player (players/models.py).
PLAYER_INSERT_EVENT = "players.Player:insert_insert"
#: The vocabulary of name words' trigger on inserts (players.models.NAME_WORDS_TRIGGERS): an
#: import writes its new players' words itself, from the words its Python fold produced.
PLAYER_NAME_WORDS_INSERT = "players.Player:name_words_insert"
#: …and on updates: an import's updates (completions, FIDE ratings) never change a name.
PLAYER_NAME_WORDS_UPDATE = "players.Player:name_words_update"


ENGINE_VERSION = "import"


# progress(percent, message): called as the import goes on; the message is an untranslated
# msgid (the page translates it). lists/imports/jobs.py stores them on the job row.
Progress = Callable[[int, str], None]


READING = gettext_noop("Reading the file")


CHECKING = gettext_noop("Checking the rows")


WRITING = gettext_noop("Writing players and ratings")


SAVING = gettext_noop("Saving")


# After each step of the PostgreSQL path (its StepTimer names): percent done, what comes next.
_PG_STEPS = {
    "read + COPY": (35, CHECKING),
    "staged": (50, CHECKING),
    "checks": (58, WRITING),
    "name keys": (62, WRITING),
    "players completed": (66, WRITING),
    "players updated": (70, WRITING),
    "players inserted": (78, WRITING),
    "ratings inserted": (88, SAVING),
    "indexes rebuilt": (94, SAVING),
    "ratings updated": (96, SAVING),
    "commit": (98, SAVING),
}


def _step_progress(progress: Progress | None) -> Callable[[str], None] | None:
    if progress is None:
        return None

    def on_step(name: str) -> None:
        if name in _PG_STEPS:
            progress(*_PG_STEPS[name])

    return on_step


@dataclass(frozen=True)
class ListImportResult:
    rows: int
    players_created: int
    players_updated: int
    ratings_written: int
    method: str  # "copy" (PostgreSQL) or "python"
    target: str = "system"  # "fide": ratings_written counts players whose FIDE ratings changed
    #: Rows of players not in the registry that the choice of players did not let create one.
    players_skipped: int = 0
    players: str = PLAYERS_ALL
    #: Seconds this call spent, after its commit, building the read-only indexes it left
    #: (core.pg.indexes, after_commit): the rows were committed and searchable before.
    indexes_after_commit_seconds: float = 0.0


class ListImportError(Exception):
    """Nothing was written. ``problems`` holds the first MAX_PROBLEMS, ``total`` the count."""

    def __init__(self, problems: list[Problem], total: int | None = None) -> None:
        self.problems = problems
        self.total = len(problems) if total is None else total
        super().__init__("; ".join(p.message for p in problems[:5]))


def decode_list(data: bytes) -> str:
    """UTF-8 (with or without BOM); anything else is read as Latin-1 (FIDE's old files)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _rate(system: RatingSystem) -> str:
    return system.rate_of_play if system.rate_of_play in ("rapid", "blitz") else "standard"


def _fail(problems: list[Problem]) -> ListImportError:
    ordered = lf.sort_problems(problems)
    shown = ordered[: lf.MAX_PROBLEMS]
    return ListImportError(shown, total=len(ordered))
