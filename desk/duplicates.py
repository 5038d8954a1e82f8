"""The registry's likely duplicates (issue 24 item 7; docs/registry.md): records an officer may
want to merge (desk.merges.player_merge). Read-only.

One set-based statement finds the groups, each with its reason:

- ``name_birth``: the same folded name (players.names: accents, case and punctuation ignored)
  and the same birth year — a player typed twice by two reports. Grouped from the partial
  index ``player_name_birth_idx`` (name_key, birth_year) in order.
- ``fide_id``: a record whose federation ID is "FIDE-<n>" (a list import made it) while another
  record carries the FIDE ID n — the same FIDE ID typed twice, once in each field.
- ``fed_id``: federation IDs equal but for case, hyphens and leading zeros ("e-12", "E12";
  "0123", "123").

Merged records (``merged_into`` set) are left out. The groups (at most MAX_GROUPS, in a fixed
order) are found by one statement and kept in the cache for CACHE_SECONDS; a page is a slice
of them, and a merge forgets them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from players.models import Player

#: The reasons a group is listed, as the page and the API name them.
REASONS = {
    "name_birth": _("Same name and birth year"),
    "fide_id": _("Same FIDE ID in the FIDE ID of one and the federation ID of the other"),
    "fed_id": _("Same federation ID written differently"),
}

#: Groups kept at most (far more than an office reviews; a registry with more is cut here).
MAX_GROUPS = 10_000
#: The groups are found by one pass over the registry (about a second on 500,000 players on
#: the 2-core test machine): kept this long in the cache, so the pages after the first are a
#: slice of it; a merge forgets them (desk.merges).
CACHE_SECONDS = 300
CACHE_KEY = "registry-duplicates:v1"

# Three grouped scans, no CTE (a CTE read three times is materialised and loses the indexes):
# the name-and-year groups come off player_name_birth_idx in order; the FIDE-<n> federation
# IDs are hash-joined to the FIDE IDs; the federation IDs are folded with upper/translate/ltrim
# (cheap C functions, not a regular expression) and hashed. JIT is off (compiling cost more
# than the scans).
DUPLICATES_SQL = """
SELECT reason, key, ids FROM (
  SELECT 'name_birth' AS reason, name_key || ' ' || birth_year AS key,
         array_agg(id ORDER BY id) AS ids
  FROM players_player WHERE merged_into_id IS NULL AND birth_year IS NOT NULL
  GROUP BY name_key, birth_year HAVING count(*) > 1
  UNION ALL
  SELECT 'fide_id', q.fide_id::text, ARRAY[q.id, p.id]
  FROM players_player p JOIN players_player q ON q.fide_id = substr(p.fed_id, 6)::bigint
  WHERE p.fed_id ~ '^FIDE-[0-9]{1,18}$' AND p.merged_into_id IS NULL
    AND q.merged_into_id IS NULL AND p.id <> q.id
  UNION ALL
  SELECT 'fed_id', key, array_agg(id ORDER BY id)
  FROM (SELECT id, ltrim(translate(upper(fed_id), '-', ''), '0') AS key FROM players_player
        WHERE merged_into_id IS NULL) f
  GROUP BY key HAVING count(*) > 1
) found
ORDER BY reason, key COLLATE "C"
LIMIT %s
"""


@dataclass
class DuplicateGroup:
    reason: str
    key: str
    players: list[Player] = field(default_factory=list)

    @property
    def reason_label(self) -> str:
        return str(REASONS.get(self.reason, self.reason))


@dataclass(frozen=True)
class DuplicatePage:
    groups: list[DuplicateGroup]
    total: int
    page: int
    per_page: int

    @property
    def num_pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.num_pages else None


def _groups() -> list[tuple[str, str, list[int]]]:
    """Every group (reason, key, ids), from the cache or one statement."""
    found = cache.get(CACHE_KEY)
    if found is None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
            cursor.execute(DUPLICATES_SQL, [MAX_GROUPS])
            found = [(reason, key, list(ids)) for reason, key, ids in cursor.fetchall()]
        cache.set(CACHE_KEY, found, CACHE_SECONDS)
    return list(found)


def player_duplicates_forget() -> None:
    """The registry changed (a merge): the next page finds the groups again.

    With the cache's Redis unreachable the delete is dropped (the cache fails open,
    config/settings.py), so groups kept before the outage may come back with Redis for the
    rest of their CACHE_SECONDS: `player_duplicates` leaves merged records out of what it shows,
    so such a group is not offered for a second merge."""
    cache.delete(CACHE_KEY)


def player_duplicates(*, offset: int = 0, limit: int = 50) -> tuple[list[DuplicateGroup], int]:
    """Groups ``offset``.. ``offset + limit`` of the likely duplicates and the number of groups;
    each group's players are read with one query, with ``tournaments`` (how many tournaments
    each played) annotated."""
    found = _groups()
    rows = found[offset : offset + limit]
    ids = {pid for _reason, _key, group in rows for pid in group}
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=ids, merged_into__isnull=True).annotate(
            tournaments=Count("tournament_entries__tournament", distinct=True)
        )
    }
    # A group kept from before a merge (see player_duplicates_forget) shows its records still
    # unmerged, and is left out once fewer than two remain.
    groups = []
    for reason, key, group in rows:
        shown: list[Player] = [players[pid] for pid in group if pid in players]
        if len(shown) > 1:
            groups.append(DuplicateGroup(reason, key, shown))
    return groups, len(found)


def player_duplicates_page(*, page: int = 1, per_page: int = 25) -> DuplicatePage:
    """One page of groups (the page's numbering from 1; a page past the last gives the
    last)."""
    page = max(1, min(page, 100_000))
    groups, total = player_duplicates(offset=(page - 1) * per_page, limit=per_page)
    last = max(1, -(-total // per_page))
    if page > last:
        page = last
        groups, total = player_duplicates(offset=(page - 1) * per_page, limit=per_page)
    return DuplicatePage(groups, total, page, per_page)
