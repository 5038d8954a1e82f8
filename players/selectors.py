"""Reads of the player registry.

Player search (`player_search`, `players_matching`): the query is folded like the stored
`name_key` (players.names.fold: no accents, no case, commas and dots as spaces) and cut into
words. A query that is one word holding a digit is an ID: the federation ID or, all digits,
the FIDE ID, compared exactly (unique indexes). Otherwise every word must match the name, in
any order:

- a word of 3 letters or more anywhere in the name ("garc", "arcia"): `name_key LIKE '%w%'`,
  answered by the trigram GIN index on name_key (players/migrations/0006);
- a shorter word, an initial ("r", "ma"): at the start of a word of the name, checked on the
  rows the longer words found; a query of short words only needs the first one at the start of
  the name (the name_key b-tree serves that range: name_key is COLLATE "C").

Ranking: the folded query equal to the name, then the name starting with it, then trigram
similarity to it (closest first), then alphabetical. A broad query ("mar": 56,000 of 500,000
players) ranks at most MATCH_CAP + 1 matches plus MATCH_CAP names starting with it, and says
"more than MATCH_CAP": ranking every match would cost about a second.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from django.contrib.postgres.search import TrigramSimilarity
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When, Window

from players.models import Player
from players.names import fold

#: Words shorter than this are matched at the start of a word of the name (initials); longer
#: ones anywhere in it. pg_trgm needs 3 characters to look a LIKE pattern up in its index.
TRIGRAM_MIN = 3
#: A name search ranks at most this many matches (plus the names starting with the query):
#: more means "more than MATCH_CAP players", and the user adds letters. See players_matching.
MATCH_CAP = 1000
#: Page numbers above this are read as this (then as the last page).
MAX_PAGE = 1_000_000
_WORDS = re.compile(r"\w+")
_ID = re.compile(r"^[0-9A-Za-z\-]*[0-9][0-9A-Za-z\-]*$")

SearchKind = Literal["all", "id", "name"]


@dataclass(frozen=True)
class PlayerSearchResult:
    """One page of a player search."""

    query: str
    kind: SearchKind
    players: list[Player]
    total: int
    page: int
    per_page: int
    #: More than `cap` players match: `total` counts the ones ranked, not every match.
    capped: bool = False
    cap: int = MATCH_CAP

    @property
    def num_pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.num_pages

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.has_next else None

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.has_previous else None

    @property
    def start_index(self) -> int:
        """1-based position of the page's first player (0 when there is none)."""
        return (self.page - 1) * self.per_page + 1 if self.players else 0

    @property
    def end_index(self) -> int:
        return (self.page - 1) * self.per_page + len(self.players)


def search_kind(query: str) -> SearchKind:
    query = query.strip()
    if not query or not _WORDS.search(fold(query)):
        return "all"
    return "id" if _ID.match(query) else "name"


def players_matching(*, query: str, cap: int | None = None) -> QuerySet[Player]:
    """Players matching `query`, best first (see the module's docstring); all players by name
    for an empty query. A queryset: the API pages it itself.

    With `cap`, a name search ranks at most `cap` + 1 of the matches (any, as the index finds
    them) together with up to `cap` names that start with the query: a broad query ("mar")
    costs what `cap` matches cost rather than tens of thousands, and the closest names (equal
    to the query, starting with it) still come first. More than `cap` results then mean
    "more than `cap` matches"."""
    query = query.strip()
    kind = search_kind(query)
    if kind == "all":
        return Player.objects.order_by("name_key", "id")
    if kind == "id":
        condition = Q(fed_id__in=sorted({query, query.upper()}))
        if query.isdigit() and len(query) < 19:
            condition |= Q(fide_id=int(query))
        return Player.objects.filter(condition).order_by("name_key", "id")
    folded = " ".join(_WORDS.findall(fold(query)))
    words = folded.split()
    condition = Q()
    if all(len(w) < TRIGRAM_MIN for w in words):
        condition &= Q(name_key__startswith=words[0])
    for word in words:
        if len(word) >= TRIGRAM_MIN:
            condition &= Q(name_key__contains=word)
        else:
            condition &= Q(name_key__startswith=word) | Q(name_key__contains=f" {word}")
    matches = Player.objects.filter(condition)
    if cap is not None:
        # order_by(): no ORDER BY (the model's ordering would sort every match), so the scan
        # stops after cap + 1 rows. A name starting with the folded query holds each of its
        # words (at a word start), so the prefix part needs no other condition: it walks the
        # name_key b-tree (COLLATE "C": LIKE 'q%' is a range) in order and stops at `cap`.
        some = matches.order_by().values("id")[: cap + 1]
        prefix = (
            Player.objects.filter(name_key__startswith=folded)
            .order_by("name_key")
            .values("id")[:cap]
        )
        matches = Player.objects.filter(id__in=some.union(prefix))
    return matches.annotate(
        closeness=Case(
            When(name_key=folded, then=Value(0)),
            When(name_key__startswith=folded, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        ),
        similarity=TrigramSimilarity("name_key", folded),
    ).order_by("closeness", "-similarity", "name_key", "id")


def player_search(
    *,
    query: str,
    page: int = 1,
    per_page: int = 50,
    cap: int = MATCH_CAP,
    fields: Sequence[str] = (),
) -> PlayerSearchResult:
    """One page of the players matching `query` (by name in any order, with or without accents
    or commas, by part of a name or an initial, or exactly by federation ID or FIDE ID), with
    the number of matches. A page past the last gives the last page. A name matching more than
    `cap` players gives `capped` and the best of them (players_matching). With `fields`, the
    players are read with those fields only (what a results table shows)."""
    query = query.strip()
    kind = search_kind(query)
    per_page = max(1, per_page)
    page = max(1, min(page, MAX_PAGE))  # an OFFSET past bigint is a database error
    qs = players_matching(query=query, cap=cap if kind == "name" else None)
    if fields:
        qs = qs.only(*fields)
    if kind == "all":
        # No filter: the whole registry by name (as the home page, an exact count: about 0.1 s
        # on 500,000 players); the page comes off the name_key index.
        total = Player.objects.count()
        page = min(page, max(1, math.ceil(total / per_page)))
        start = (page - 1) * per_page
        players = list(qs[start : start + per_page])
        return PlayerSearchResult(query, kind, players, total, page, per_page)
    # The page and the number of matches in one statement (one index scan, not two).
    counted = qs.annotate(matches=Window(Count("id")))
    start = (page - 1) * per_page
    players = list(counted[start : start + per_page])
    if players:
        total = players[0].matches  # type: ignore[attr-defined]  # the Window annotation
    else:
        total = qs.count()
        if total and page > 1:
            page = max(1, math.ceil(total / per_page))
            start = (page - 1) * per_page
            players = list(counted[start : start + per_page])
    capped = kind == "name" and total > cap
    return PlayerSearchResult(query, kind, players, total, page, per_page, capped, cap)


def player_get(*, fed_id: str) -> Player:
    return Player.objects.get(fed_id=fed_id)
