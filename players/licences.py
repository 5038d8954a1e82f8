"""The licence roll and the deceased flag (docs/lists.md, "Licensed and deceased players"):
seasons, each player's licence for a season (category, club, date), written by officers and
by a CSV import, and a player's death (fide-2024 10.2).

The lists read them at publication (ratings.publication.services): a regulation whose facts
say so (``lists.licensed_players``, fce 9.2) lists every player licensed for the season in
force on the list date, unrated ones without a rating; a deceased player leaves every list
from the next publication and keeps his record.

The CSV (UTF-8, comma or semicolon, a header line first) has the columns
``fed_id,category,club,licensed_on``; ``licensed_on`` is ``YYYY-MM-DD`` or ``DD/MM/YYYY``,
``club`` may be empty. One transaction: a line in error (named by its number) and nothing is
written; a preview counts what would be written and writes nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from core.history import history_context
from core.pg.copy import copy_in_rows
from players.models import Licence, Player, Season

#: The CSV's columns, in this order, named by its header line.
CSV_COLUMNS = ("fed_id", "category", "club", "licensed_on")
#: Errors reported at most (the first ones, by line).
MAX_ERRORS = 50


@dataclass
class LicenceImport:
    """What an import did (or, for a preview, would do)."""

    lines: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    preview: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def written(self) -> bool:
        return not self.preview and not self.errors


def _may_manage(user: Any) -> None:
    if not user.has_perm("players.manage_licences"):
        raise PermissionDenied


def season_create(*, user: Any, name: str, start: dt.date, end: dt.date) -> Season:
    """A new season; its dates may not overlap another's (a list date names one season)."""
    _may_manage(user)
    if end < start:
        raise Refused(_("A season ends on or after its start."))
    with transaction.atomic():
        if Season.objects.filter(name=name).exists():
            raise Refused(_("There is already a season of that name."))
        if Season.objects.filter(start__lte=end, end__gte=start).exists():
            raise Refused(_("A season's dates may not overlap another season's."))
        with history_context(user=getattr(user, "pk", None)):
            return Season.objects.create(name=name, start=start, end=end)


def licence_set(
    *,
    user: Any,
    player: Player,
    season: Season,
    category: str,
    club: str = "",
    licensed_on: dt.date,
) -> Licence:
    """The player's licence for the season, created or changed."""
    _may_manage(user)
    category = category.strip()
    if not category:
        raise Refused(_("A licence needs a category."))
    with transaction.atomic(), history_context(user=getattr(user, "pk", None)):
        licence, _created = Licence.objects.update_or_create(
            player=player,
            season=season,
            defaults={"category": category, "club": club.strip(), "licensed_on": licensed_on},
        )
        # The card shows the licence: its cache key follows the record's updated_at.
        Player.objects.filter(pk=player.pk).update(updated_at=timezone.now())
    return licence


def licence_delete(*, user: Any, licence: Licence) -> None:
    """Withdraw a licence (typed by mistake): the record is removed, its history kept
    (pghistory), and the player's card shows it no more."""
    if not user.has_perm("players.withdraw_licence", licence):
        raise PermissionDenied
    with transaction.atomic(), history_context(user=getattr(user, "pk", None)):
        player_id = licence.player_id
        licence.delete()
        # The card shows the licence: its cache key follows the record's updated_at.
        Player.objects.filter(pk=player_id).update(updated_at=timezone.now())


def player_deceased_set(*, user: Any, player: Player, deceased_on: dt.date | None) -> Player:
    """Record (or, with None, clear) a player's death (fide-2024 10.2: the federation reports
    it). Kept in the player's history; he leaves the lists from the next publication and
    keeps his record, games and published entries."""
    if not user.has_perm("players.record_death"):
        raise PermissionDenied
    if deceased_on is not None and deceased_on > timezone.localdate():
        raise Refused(_("The date of death cannot be in the future."))
    with transaction.atomic(), history_context(user=getattr(user, "pk", None)):
        player.deceased_on = deceased_on
        player.save(update_fields=["deceased_on", "updated_at"])
    return player


# --------------------------------------------------------------------------- the CSV import


def _date(text: str) -> dt.date | None:
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _rows(data: bytes, result: LicenceImport) -> list[tuple[int, str, str, str, dt.date]]:
    """The CSV's lines as (line, fed_id, category, club, date); the lines in error are
    named in ``result.errors`` instead."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        result.errors.append(_("The file is not UTF-8 text."))
        return []
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [h.strip().lower() for h in next(reader, [])]
    if tuple(header) != CSV_COLUMNS:
        result.errors.append(
            _("Line 1: the header must be %(columns)s.") % {"columns": ",".join(CSV_COLUMNS)}
        )
        return []
    rows: list[tuple[int, str, str, str, dt.date]] = []
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue
        result.lines += 1
        if len(values) != len(CSV_COLUMNS):
            result.errors.append(
                _("Line %(line)s: %(found)s columns, %(expected)s expected.")
                % {"line": line, "found": len(values), "expected": len(CSV_COLUMNS)}
            )
            continue
        fed_id, category, club, when = (v.strip() for v in values)
        licensed_on = _date(when)
        if not fed_id or not category:
            result.errors.append(
                _("Line %(line)s: the federation ID and the category are required.")
                % {"line": line}
            )
        elif licensed_on is None:
            result.errors.append(
                _("Line %(line)s: %(value)s is not a date (YYYY-MM-DD or DD/MM/YYYY).")
                % {"line": line, "value": when}
            )
        elif len(fed_id) > 16 or len(category) > 40 or len(club) > 120:
            result.errors.append(_("Line %(line)s: a value is too long.") % {"line": line})
        else:
            rows.append((line, fed_id, category, club, licensed_on))
    return rows


_UNKNOWN_SQL = """
    SELECT t.line, t.fed_id FROM licence_import t
    LEFT JOIN players_player p ON p.fed_id = t.fed_id
    WHERE p.id IS NULL ORDER BY t.line LIMIT %s
"""
_TWICE_SQL = """
    SELECT min(line), max(line), fed_id FROM licence_import
    GROUP BY fed_id HAVING count(*) > 1 ORDER BY 1 LIMIT %s
"""
# A merged record's licence goes to the kept one (docs/registry.md).
_RESOLVED_SQL = """
    SELECT COALESCE(p.merged_into_id, p.id) AS player_id, t.category, t.club, t.licensed_on
    FROM licence_import t JOIN players_player p ON p.fed_id = t.fed_id
"""
_COUNT_SQL = f"""
    SELECT count(*) FILTER (WHERE l.id IS NULL),
           count(*) FILTER (WHERE l.id IS NOT NULL AND (l.category, l.club, l.licensed_on)
                            IS DISTINCT FROM (r.category, r.club, r.licensed_on)),
           count(*) FILTER (WHERE l.id IS NOT NULL AND (l.category, l.club, l.licensed_on)
                            IS NOT DISTINCT FROM (r.category, r.club, r.licensed_on))
    FROM ({_RESOLVED_SQL}) r
    LEFT JOIN players_licence l ON l.player_id = r.player_id AND l.season_id = %s
"""
_WRITE_SQL = f"""
    INSERT INTO players_licence (player_id, season_id, category, club, licensed_on)
    SELECT r.player_id, %s, r.category, r.club, r.licensed_on FROM ({_RESOLVED_SQL}) r
    ON CONFLICT (player_id, season_id) DO UPDATE
    SET category = EXCLUDED.category, club = EXCLUDED.club, licensed_on = EXCLUDED.licensed_on
    WHERE (players_licence.category, players_licence.club, players_licence.licensed_on)
          IS DISTINCT FROM (EXCLUDED.category, EXCLUDED.club, EXCLUDED.licensed_on)
"""
_TOUCH_SQL = f"""
    UPDATE players_player p SET updated_at = %s FROM ({_RESOLVED_SQL}) r WHERE p.id = r.player_id
"""


def licences_import(*, user: Any, season: Season, data: bytes, preview: bool) -> LicenceImport:
    """Import the season's licences from a CSV (the module's docstring): set-based (COPY into
    a temporary table, one INSERT … ON CONFLICT). Every line is checked first; with any error
    nothing is written. ``preview``: the counts only."""
    _may_manage(user)
    result = LicenceImport(preview=preview)
    rows = _rows(data, result)
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Dropped first: a caller's outer transaction (a test's) may still hold the last.
            cursor.execute("DROP TABLE IF EXISTS pg_temp.licence_import")
            cursor.execute(
                "CREATE TEMPORARY TABLE licence_import (line integer, fed_id varchar(16), "
                "category varchar(40), club varchar(120), licensed_on date) ON COMMIT DROP"
            )
            copy_in_rows("licence_import", ("line", *CSV_COLUMNS), rows)
            cursor.execute(_UNKNOWN_SQL, [MAX_ERRORS])
            for line, fed_id in cursor.fetchall():
                result.errors.append(
                    _("Line %(line)s: no player with federation ID %(fed_id)s.")
                    % {"line": line, "fed_id": fed_id}
                )
            cursor.execute(_TWICE_SQL, [MAX_ERRORS])
            for first, last, fed_id in cursor.fetchall():
                result.errors.append(
                    _("Line %(line)s: federation ID %(fed_id)s already on line %(first)s.")
                    % {"line": last, "fed_id": fed_id, "first": first}
                )
            if result.errors:
                result.errors = result.errors[:MAX_ERRORS]
                return result
            cursor.execute(_COUNT_SQL, [season.pk])
            result.created, result.updated, result.unchanged = cursor.fetchone()
            if preview:
                return result
            with history_context(user=getattr(user, "pk", None), task="licences_import"):
                cursor.execute(_WRITE_SQL, [season.pk])
                cursor.execute(_TOUCH_SQL, [timezone.now()])
    return result
