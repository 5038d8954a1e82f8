"""Reads of the player registry.

Player search (`player_search`, `player_search_sql`): the query is folded like the stored
`name_key` (players.names.fold: no accents, no case, commas and dots as spaces) and cut into
words. A query that is one word holding a digit is an ID: the federation ID or, all digits,
the FIDE ID, compared exactly (unique indexes). Otherwise every word must match the name, in
any order:

- a word of 3 letters or more anywhere in the name ("garc", "arcia"), as `name_key LIKE
  '%w%'` would find it: the words of the registry's names holding it (NameWord, a trigram
  index), then the players whose name has one of those words (a GIN on the name's words,
  players/migrations/0013). The same players: a typed word has no space, so it can only lie
  inside one word of the name;
- a shorter word, an initial ("r", "ma"): at the start of a word of the name, checked on the
  rows the longer words found; a query of short words only needs the first one at the start of
  the name (the name_key b-tree serves that range: name_key is COLLATE "C").

Ranking: the folded query equal to the name, then the name starting with it, then trigram
similarity to it (closest first), then alphabetical. A broad query ("mar": 56,000 of 500,000
players) ranks at most MATCH_CAP + 1 matches plus MATCH_CAP names starting with it, and says
"more than MATCH_CAP": ranking every match would cost about a second.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, cast

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet
from django.utils import timezone

from players.models import NAME_WORDS_SQL, Licence, Player, Season
from players.names import fold

#: Words shorter than this are matched at the start of a word of the name (initials); longer
#: ones anywhere in it. pg_trgm needs 3 characters to look a LIKE pattern up in its index.
TRIGRAM_MIN = 3
#: A name search ranks at most this many matches (plus the names starting with the query):
#: more means "more than MATCH_CAP players", and the user adds letters. See player_search_sql.
MATCH_CAP = 1000
#: Page numbers above this are read as this (then as the last page).
MAX_PAGE = 1_000_000
_WORDS = re.compile(r"\w+")
_ID = re.compile(r"^[0-9A-Za-z\-]*[0-9][0-9A-Za-z\-]*$")

SearchKind = Literal["all", "id", "name"]


#: A player as a search reads him: the model (player_search) or his fields by name
#: (player_search_rows).
_Found = TypeVar("_Found", Player, dict[str, Any])


@dataclass(frozen=True)
class PlayerSearchResult(Generic[_Found]):
    """One page of a player search."""

    query: str
    kind: SearchKind
    players: list[_Found]
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


#: The words of a matched player's name, as the player_name_words index holds them.
_WORDS_OF_M = NAME_WORDS_SQL.format("m.name_key")


def _like(word: str) -> str:
    """`word` as text inside a LIKE pattern (its % _ \\ taken literally), as Django's lookups
    escape it."""
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@functools.cache
def _column(attname: str) -> str:
    """The players table's column of the field `attname`."""
    return {f.attname: f.column for f in Player._meta.concrete_fields}[attname]


@functools.cache
def _columns(fields: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """The players' fields a search reads, `fields` (and the key) or all of them, and their
    select list."""
    column = {f.attname: f.column for f in Player._meta.concrete_fields}
    wanted = {"id", *fields} if fields else set(column)
    names = tuple(name for name in column if name in wanted)
    return names, ", ".join(f'p."{column[name]}"' for name in names)


def player_search_sql(
    *, query: str, cap: int = MATCH_CAP, fields: Sequence[str] = ()
) -> tuple[str, list[str | int]]:
    """The statement of a name or ID search (see the module's docstring), without its LIMIT
    and OFFSET: the players matching `query`, best first, each with `matches` (the last
    column), the number of players it finds (all of them: a window count over the result, so
    one statement gives a page and the total). Only `fields` are read (all with none).

    A name search ranks at most `cap` + 1 of the matches (any, as the index finds them)
    together with up to `cap` names that start with the query: a broad query ("mar") costs
    what `cap` matches cost rather than tens of thousands, and the closest names (equal to
    the query, starting with it) still come first. More than `cap` results then mean "more
    than `cap` matches".

    Written as SQL rather than built with the ORM: on a first request the ORM spent about
    1 ms compiling this statement, a quarter of the search page's Python time, and issue 13
    asks 600 first searches a second (docs/benchmarks.md, "Cold searches"). It is the
    statement the ORM built (the same conditions, casts and order; the plans in
    docs/benchmarks.md, "Player search", stand, but for the vocabulary of name words),
    checked against the ORM's lookups by tests/players/test_search.py."""
    query = query.strip()
    columns = _columns(tuple(fields))[1]
    if search_kind(query) == "id":
        ids = sorted({query, query.upper()})
        condition = f"p.fed_id IN ({', '.join(['%s'] * len(ids))})"
        params: list[str | int] = list(ids)
        if query.isdigit() and len(query) < 19:
            condition += " OR p.fide_id = %s"
            params.append(int(query))
        return (
            f"SELECT {columns}, COUNT(p.id) OVER () AS matches FROM players_player p "
            f"WHERE {condition} ORDER BY p.name_key ASC, p.id ASC",
            params,
        )
    folded = " ".join(_WORDS.findall(fold(query)))
    words = folded.split()
    conditions: list[str] = []
    params = []
    if all(len(w) < TRIGRAM_MIN for w in words):
        conditions.append("m.name_key::text LIKE %s")
        params.append(f"{_like(words[0])}%")
    for word in words:
        if len(word) >= TRIGRAM_MIN:
            # The name holds the word (name_key LIKE '%word%'): a typed word has no space, so
            # it lies inside one word of the name; the vocabulary's words holding it, then the
            # players with one of those words (the player_name_words GIN).
            conditions.append(
                f"{_WORDS_OF_M} && ARRAY(SELECT n.word::text FROM players_nameword n "
                "WHERE n.word::text LIKE %s)"
            )
            params.append(f"%{_like(word)}%")
        else:
            conditions.append("(m.name_key::text LIKE %s OR m.name_key::text LIKE %s)")
            params += [f"{_like(word)}%", f"% {_like(word)}%"]
    # No ORDER BY in the first part, so the scan stops after cap + 1 rows. A name starting
    # with the folded query holds each of its words (at a word start), so the second part
    # needs no other condition: it walks the name_key b-tree (COLLATE "C": LIKE 'q%' is a
    # range) in order and stops at `cap`.
    prefix = f"{_like(folded)}%"
    return (
        f"SELECT {columns}, "
        "CASE WHEN p.name_key = %s THEN 0 WHEN p.name_key::text LIKE %s THEN 1 ELSE 2 END "
        "AS closeness, SIMILARITY(p.name_key, %s) AS similarity, "
        "COUNT(p.id) OVER () AS matches FROM players_player p WHERE p.id IN ("
        f"(SELECT m.id FROM players_player m WHERE {' AND '.join(conditions)} LIMIT %s) "
        "UNION (SELECT m.id FROM players_player m WHERE m.name_key::text LIKE %s "
        "ORDER BY m.name_key ASC LIMIT %s)) "
        "ORDER BY closeness ASC, similarity DESC, p.name_key ASC, p.id ASC",
        [folded, prefix, folded, *params, cap + 1, prefix, cap],
    )


def player_search(
    *,
    query: str,
    page: int = 1,
    per_page: int = 50,
    cap: int = MATCH_CAP,
    fields: Sequence[str] = (),
) -> PlayerSearchResult[Player]:
    """One page of the players matching `query` (by name in any order, with or without accents
    or commas, by part of a name or an initial, or exactly by federation ID or FIDE ID), with
    the number of matches. A page past the last gives the last page. A name matching more than
    `cap` players gives `capped` and the best of them (player_search_sql). With `fields`, the
    players are read with those fields only (what a results table shows)."""
    names = _columns(tuple(fields))[0]
    return _player_search(
        query=query,
        page=page,
        per_page=per_page,
        cap=cap,
        fields=fields,
        found=lambda values: Player.from_db(DEFAULT_DB_ALIAS, names, list(values.values())),
        everyone=lambda players: players.only(*fields) if fields else players,
    )


def player_search_rows(
    *,
    query: str,
    fields: Sequence[str],
    page: int = 1,
    per_page: int = 50,
    cap: int = MATCH_CAP,
) -> PlayerSearchResult[dict[str, Any]]:
    """player_search's page with each player as his `fields` (and `id`) by name, no model
    built: what a page of results shows (players/views.py). Building 50 models with all
    their other fields deferred cost about as much CPU as the search's statement."""
    return _player_search(
        query=query,
        page=page,
        per_page=per_page,
        cap=cap,
        fields=fields,
        found=lambda values: values,
        everyone=lambda players: players.values(*_columns(tuple(fields))[0]),
    )


def _player_search(
    *,
    query: str,
    page: int,
    per_page: int,
    cap: int,
    fields: Sequence[str],
    found: Callable[[dict[str, Any]], _Found],
    everyone: Callable[[QuerySet[Player]], QuerySet[Any]],
) -> PlayerSearchResult[_Found]:
    """player_search and player_search_rows: `found` makes a player of his fields by name,
    `everyone` what the whole registry's page (an empty query) reads of the players."""
    query = query.strip()
    kind = search_kind(query)
    per_page = max(1, per_page)
    page = max(1, min(page, MAX_PAGE))  # an OFFSET past bigint is a database error
    if kind == "all":
        # No filter: the whole registry by name (as the home page, an exact count: about 0.1 s
        # on 500,000 players); the page comes off the name_key index.
        total = Player.objects.count()
        page = min(page, max(1, math.ceil(total / per_page)))
        start = (page - 1) * per_page
        players = list(
            everyone(Player.objects.order_by("name_key", "id"))[start : start + per_page]
        )
        return PlayerSearchResult(query, kind, players, total, page, per_page)
    statement = player_search_sql(query=query, cap=cap, fields=fields)
    sql: str = statement[0]
    params: list[str | int] = statement[1]
    # Each field with its column, in the order _columns gives (Player.from_db's).
    named = [(name, _column(name)) for name in _columns(tuple(fields))[0]]

    def read(start: int, count: int) -> tuple[list[_Found], int]:
        """The players of rows start.. of the statement, and the number of matches (its
        `matches` column)."""
        with connection.cursor() as cursor:
            cursor.execute(f"{sql} LIMIT %s OFFSET %s", [*params, count, start])
            columns = [column.name for column in cursor.description or ()]
            rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        players = [found({name: row[column] for name, column in named}) for row in rows]
        return players, (int(rows[0]["matches"]) if rows else 0)

    players, total = read((page - 1) * per_page, per_page)
    if not players:
        total = read(0, 1)[1]
        if total and page > 1:
            page = max(1, math.ceil(total / per_page))
            players = read((page - 1) * per_page, per_page)[0]
    capped = kind == "name" and total > cap
    return PlayerSearchResult(query, kind, players, total, page, per_page, capped, cap)


#: Seconds the registry's size (the home page's figure) is kept in Django's cache: counting
#: 500,000 rows on every signed-in visit of the home page costs tens of milliseconds.
PLAYER_COUNT_TTL = 300


def player_count() -> int:
    """How many players the registry holds, counted at most every PLAYER_COUNT_TTL seconds."""
    return cast(int, cache.get_or_set("players:count", Player.objects.count, PLAYER_COUNT_TTL))


def player_get(*, fed_id: str) -> Player:
    return Player.objects.get(fed_id=fed_id)


# --------------------------------------------------------------------------- licences


def season_on(*, day: dt.date) -> Season | None:
    """The season in force on ``day`` (fce 9.2 "l'actual temporada"), if any."""
    return Season.objects.filter(start__lte=day, end__gte=day).order_by("-start").first()


def licence_current(*, player: Player, day: dt.date | None = None) -> Licence | None:
    """The player's licence for the season in force today (or ``day``), else his latest one:
    what his card shows."""
    day = day or timezone.localdate()
    # One statement (issue 29, the card's first render): the season in force first.
    in_force = Q(season__start__lte=day, season__end__gte=day)
    return (
        Licence.objects.filter(player=player)
        .select_related("season")
        .annotate(in_force=ExpressionWrapper(in_force, output_field=BooleanField()))
        .order_by("-in_force", "-season__start", "pk")
        .first()
    )


def season_licence_counts() -> list[Season]:
    """Every season, newest first, with its number of licences (``licence_count``)."""
    return list(Season.objects.annotate(licence_count=Count("licences")).order_by("-start"))
