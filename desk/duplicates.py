"""The registry's likely duplicates (issue 24 item 7; docs/registry.md): records an officer may
want to merge (desk.merges.player_merge). Read-only.

One set-based statement finds the groups, each with its reason:

- ``name_birth``: the same folded name (players.names: accents, case and punctuation ignored)
  and the same birth year — a player typed twice by two reports. Grouped from the partial
  index ``player_name_birth_idx`` (name_key, birth_year) in order.
- ``fide_id``: a record whose federation ID is "FIDE-<n>" (a list import made it) while another
  record carries the FIDE ID n — the same FIDE ID typed twice, once in each field.
- ``fed_id``: federation IDs equal but for case, hyphens and the zeros before the number
  ("e-0123", "E123").

Merged records (``merged_into`` set) are left out. A page is LIMIT/OFFSET over the groups in
a fixed order, with the number of groups as a window count (one statement per page).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from players.models import Player
from tournaments.models import TournamentPlayer

#: The reasons a group is listed, as the page and the API name them.
REASONS = {
    "name_birth": _("Same name and birth year"),
    "fide_id": _("Same FIDE ID in the FIDE ID of one and the federation ID of the other"),
    "fed_id": _("Same federation ID written differently"),
}

DUPLICATES_SQL = """
WITH live AS (
  SELECT id, name_key, birth_year, fed_id, fide_id FROM players_player
  WHERE merged_into_id IS NULL
), found AS (
  SELECT 'name_birth' AS reason, name_key || ' ' || birth_year AS key,
         array_agg(id ORDER BY id) AS ids
  FROM live WHERE birth_year IS NOT NULL
  GROUP BY name_key, birth_year HAVING count(*) > 1
  UNION ALL
  SELECT 'fide_id', q.fide_id::text, ARRAY[q.id, p.id]
  FROM live p JOIN live q ON p.fed_id = 'FIDE-' || q.fide_id::text AND p.id <> q.id
  WHERE p.fed_id LIKE 'FIDE-%%'
  UNION ALL
  SELECT 'fed_id', key, array_agg(id ORDER BY id)
  FROM (SELECT id, regexp_replace(regexp_replace(upper(fed_id), '[^A-Z0-9]', '', 'g'),
                                   '^([A-Z]*)0+', '\\1') AS key FROM live) f
  GROUP BY key HAVING count(*) > 1
)
SELECT reason, key, ids, count(*) OVER () FROM found
ORDER BY reason, key COLLATE "C"
LIMIT %s OFFSET %s
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


def player_duplicates(*, offset: int = 0, limit: int = 50) -> tuple[list[DuplicateGroup], int]:
    """Groups ``offset``.. ``offset + limit`` of the likely duplicates and the number of groups;
    each group's players are read with one query, with ``tournaments`` (how many tournaments
    each played) annotated."""
    with connection.cursor() as cursor:
        cursor.execute(DUPLICATES_SQL, [limit, offset])
        rows = cursor.fetchall()
    total = int(rows[0][3]) if rows else (_count() if offset else 0)
    ids = {pid for row in rows for pid in row[2]}
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=ids).annotate(
            tournaments=Count("tournament_entries__tournament", distinct=True)
        )
    }
    groups = [
        DuplicateGroup(reason, key, [players[pid] for pid in ids_ if pid in players])
        for reason, key, ids_, _total in rows
    ]
    return groups, total


def _count() -> int:
    """The number of groups (a page past the last has no row to carry it)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({DUPLICATES_SQL}) d", [None, 0])
        return int(cursor.fetchone()[0])


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


def player_tournament_counts(*, ids: Sequence[int]) -> dict[int, int]:
    """How many tournaments each of ``ids`` played."""
    rows = (
        TournamentPlayer.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(n=Count("tournament_id", distinct=True))
    )
    return {r["player_id"]: r["n"] for r in rows}
