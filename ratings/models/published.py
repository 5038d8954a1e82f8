"""Published lists and their entries, immutable once written (IMMUTABLE below)."""

from __future__ import annotations

from typing import Any

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.pg.triggers import Refuse
from core.track import history_track
from periods.models import RatingPeriod, RatingSystem
from players.models import Player

# IMMUTABLE. The published record refuses changes in PostgreSQL itself, so raw SQL is refused
# as well as the ORM, with a `restrict_violation` (SQLSTATE 23001, IntegrityError in Django):
# - published lists, list entries, and a list's ranks and filter rows (written once by the
#   task ratings.fill_list_ranks after the publication, with INSERT only): every UPDATE and
#   DELETE (row level, before the change), and TRUNCATE (statement level).
# - a calculation run once published, and its draft rows (results, game lines, games left
#   out): UPDATE and DELETE. The run's trigger has a WHEN clause (no call for unpublished
#   runs); the draft tables' are statement level and read the statement's old rows once, so
#   replacing a large unpublished draft costs one join, not a trigger call per row. TRUNCATE of
#   the runs and draft tables is refused outright (nothing truncates them).
# `manage.py flush`, which empties the whole database (the test runner uses it), is the one
# exception: ratings/management/commands/flush.py. No connection can switch these triggers off
# with pgtrigger.ignore (core/pg/triggers.py), and the site's database role can neither disable
# them nor set session_replication_role (core/pg/roles.py, docs/security.md).
# Declared with django-pgtrigger (core/pg/triggers.py); migration 0011 replaced the
# hand-written PL/pgSQL triggers of migrations 0002 and 0003 by these.
IMMUTABLE_MESSAGE = "published lists are immutable: % on % refused; publish a new version instead"


def _truncate_refused() -> Refuse:
    return Refuse(
        name="immutable_truncate",
        message=IMMUTABLE_MESSAGE,
        operation=pgtrigger.Truncate,
        level=pgtrigger.Statement,
    )


def _published_triggers() -> list[pgtrigger.Trigger]:
    return [
        Refuse(
            name="immutable",
            message=IMMUTABLE_MESSAGE,
            operation=pgtrigger.Update | pgtrigger.Delete,
        ),
        _truncate_refused(),
    ]


def _published_run_rows_triggers() -> list[pgtrigger.Trigger]:
    published_run = pgtrigger.Condition(
        "OLD.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT "
        "NULL)"
    )
    triggers: list[pgtrigger.Trigger] = [
        Refuse(
            name=f"immutable_{op.name.lower()}",
            message=IMMUTABLE_MESSAGE,
            operation=op,
            level=pgtrigger.Statement,
            condition=published_run,
        )
        for op in (pgtrigger.Update, pgtrigger.Delete)
    ]
    return [*triggers, _truncate_refused()]


class ImmutableQuerySet(models.QuerySet["Any"]):
    """Refuses bulk UPDATE and DELETE from the ORM; the database refuses raw SQL too."""

    def update(self, **kwargs: Any) -> int:
        raise ImmutableRowError(_("Published lists cannot be changed; publish a new version."))

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ImmutableRowError(_("Published lists cannot be deleted; publish a new version."))


class ImmutableRowError(Exception):
    pass


class ImmutableModel(models.Model):
    objects = ImmutableQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ImmutableRowError(_("Published lists cannot be changed; publish a new version."))
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRowError(_("Published lists cannot be deleted; publish a new version."))


# History (core/history.py, docs/audit.md): inserts only, the row never changes afterwards.
@history_track(pghistory.InsertEvent())
class PublishedList(ImmutableModel):
    """One version of a published list. A correction is version n+1 of the same period."""

    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="lists",
        verbose_name=_("rating system"),
    )
    period = models.ForeignKey(
        RatingPeriod, on_delete=models.PROTECT, related_name="lists", verbose_name=_("period")
    )
    version = models.PositiveSmallIntegerField(_("version"), default=1)
    list_date = models.DateField(_("list date"))
    published_at = models.DateTimeField(_("published at"))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )
    # Like Django's password hashers: every stored result names what produced it.
    ruleset = models.CharField(_("regulation set"), max_length=20)
    engine_version = models.CharField(_("engine version"), max_length=20)
    #: The regulation's version, ``"<ruleset>/<n>"`` (rating_engine/version.py); "" before
    #: regulations had versions (engine_version "1.0.0") and for imported ratings.
    regulation_version = models.CharField(
        _("regulation version"), max_length=30, blank=True, default="", db_default=""
    )
    note = models.TextField(_("note"), blank=True, help_text=_("Why this version was published."))
    entry_count = models.PositiveIntegerField(_("entries"), default=0)

    class Meta:
        verbose_name = _("published list")
        verbose_name_plural = _("published lists")
        ordering = ["system", "-list_date", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["period", "version"], name="list_unique_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="list_version_positive"),
        ]
        triggers = _published_triggers()

    def __str__(self) -> str:
        # As the list's page titles it, in the reader's language: "FEDA Standard — December
        # 2026", and "(version 2)" for a correction.
        when = date_format(self.list_date, "YEAR_MONTH_FORMAT")
        if self.version > 1:
            return gettext("%(system)s — %(month)s (version %(version)s)") % {
                "system": self.system,
                "month": when,
                "version": self.version,
            }
        return f"{self.system} — {when}"


class EntryStatus(models.TextChoices):
    RATED = "rated", _("Rated")
    NEW = "new", _("New")
    UNRATED = "unrated", _("Unrated")
    OUT_OF_LIST = "out_of_list", _("Out of list")
    INACTIVE = "inactive", _("Inactive")
    PROVISIONAL = "provisional", _("Provisional")
    PASSIVE = "passive", _("Passive")


#: Statuses of a player who is on the list and active (fide 2024: rated, new or provisional):
#: the "active only" filter, the active rank (ratings.lists.filters, ratings.publication.ranks).
ACTIVE_ENTRY_STATUSES = (EntryStatus.RATED, EntryStatus.NEW, EntryStatus.PROVISIONAL)

#: The age groups a list page filters by (ratings.lists.filters), by year of birth against the
#: list's year as FIDE's lists do: (code, label, age); "u" under that age (born in or after
#: list year - age), "s" that age and over (born in or before list year - age).
LIST_AGE_GROUPS: list[tuple[str, Any, int]] = [
    ("u8", _("Under 8"), 8),
    ("u10", _("Under 10"), 10),
    ("u12", _("Under 12"), 12),
    ("u14", _("Under 14"), 14),
    ("u16", _("Under 16"), 16),
    ("u18", _("Under 18"), 18),
    ("u20", _("Under 20 (juniors)"), 20),
    ("s50", _("50 and over (seniors)"), 50),
    ("s65", _("65 and over"), 65),
]


def games_at_k25(*, k: int | None, total_games: int) -> int | None:
    """fide-2000 9.12c: the games accumulated, shown only while K is 25."""
    return total_games if k == 25 else None


class ListEntry(ImmutableModel):
    # The unique (list, player) index serves look-ups by list; no second index on the list.
    # Both references are checked once per statement (see STATEMENT_LEVEL_REFERENCES).
    published_list = models.ForeignKey(
        PublishedList,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("list"),
        db_index=False,
        db_constraint=False,
    )
    # No index on the player alone: the unique (list, player) index answers "this player's
    # entries" with one probe per published list (ratings.lists.selectors.player_list_history), and
    # a third index costs a publication about a second (migration 0007).
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="list_entries",
        verbose_name=_("player"),
        db_constraint=False,
        db_index=False,
    )
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    change = models.SmallIntegerField(_("change"), default=0)
    k = models.PositiveSmallIntegerField(_("K"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games in the period"), default=0)
    total_games = models.PositiveIntegerField(_("rated games in total"), default=0)
    status = models.CharField(_("status"), max_length=12, choices=EntryStatus.choices)
    inactive = models.BooleanField(_("inactive"), default=False)
    provisional = models.BooleanField(_("provisional"), default=False)
    ruleset = models.CharField(_("regulation set"), max_length=20)
    engine_version = models.CharField(_("engine version"), max_length=20)
    #: The regulation's version, ``"<ruleset>/<n>"`` (rating_engine/version.py); "" before
    #: regulations had versions (engine_version "1.0.0") and for imported ratings.
    regulation_version = models.CharField(
        _("regulation version"), max_length=30, blank=True, default="", db_default=""
    )
    # Issue 24 (docs/lists.md "Layouts"): what the list publishes of the player, as he was at
    # the publication (a published list is a snapshot), and where the entry is published.
    # Null (section "") in lists published before: their pages and downloads show the
    # player's fields as they always did.
    #: The section (rating_engine.list_layout.Section): active, inactive (feda-1996 8.22b),
    #: titled_unrated (fide-2000 9.22), left_out (cnxc-2000 5.2, fide-2000 9.23b).
    section = models.CharField(_("section"), max_length=14, blank=True, default="", db_default="")
    #: Lists published with him inactive, this one included (fide-2000 9.23b, feda-1996 8.22b).
    inactive_lists = models.PositiveSmallIntegerField(_("lists while inactive"), null=True)
    title = models.CharField(_("title"), max_length=4, null=True, blank=True)
    federation = models.CharField(_("federation"), max_length=3, null=True, blank=True)
    region = models.CharField(_("region"), max_length=80, null=True, blank=True)
    club = models.CharField(_("club"), max_length=120, null=True, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    # Issue 27 item 1 (docs/lists.md "Ranks and filter columns"): the entry's ranks (by rating,
    # ties share a rank) and what a list page filters and sorts it by, computed by the statement
    # that writes the entries (window functions, ratings.publication.services), so a list is
    # never shown without them and nothing rewrites them. Null in lists published before
    # (their ranks and filter rows are ListRank and ListFilterRow, written by a task).
    #: Among the list's rated entries; in his region and club (the snapshot above) when he has
    #: one; among active entries when he is active (ratings.lists.filters.ACTIVE_STATUSES).
    rank_national = models.PositiveIntegerField(_("national rank"), null=True, blank=True)
    rank_region = models.PositiveIntegerField(_("rank in his region"), null=True, blank=True)
    rank_club = models.PositiveIntegerField(_("rank in his club"), null=True, blank=True)
    rank_active = models.PositiveIntegerField(_("rank among active players"), null=True, blank=True)
    #: The player's folded name (players.names.fold), sex, and whether the entry is active.
    name_key = models.CharField(_("name key"), max_length=250, null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, null=True, blank=True)
    active = models.BooleanField(_("active"), null=True, blank=True)

    class Meta:
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")
        ordering = ["-rating"]
        constraints = [
            models.UniqueConstraint(
                fields=["published_list", "player"], name="entry_unique_player"
            ),
        ]
        # A list page by rating (the default sort, unrated last) and a rank (entries rated
        # above a player) walk this index instead of sorting the list: about 1 s more per
        # publication of 500,000 entries (docs/benchmarks.md, public pages). Issue 27 item 1:
        # the filter columns after the (list, rating, player) key (they never change its order:
        # the player is unique in a list), so a filtered page by rating is an index-only walk of
        # the list's range, with no table of filter rows to write; the name sort and the name
        # filter have their own (list, name key) index. Key columns, not INCLUDE, which
        # `manage.py check` warns about without a database. docs/benchmarks.md, "A list version
        # written once".
        indexes = [
            models.Index(
                F("published_list"),
                F("rating").desc(nulls_last=True),
                F("player"),
                *[F(f) for f in ("active", "sex", "birth_year", "region", "club")],
                name="entry_list_rating_rows",
            ),
            models.Index(fields=["published_list", "name_key", "player"], name="entry_name"),
        ]
        triggers = _published_triggers()

    def __str__(self) -> str:
        return f"{self.player}: {self.rating}"

    def published(self, name: str) -> Any:
        """What the list published of the player: the entry's own field, else (lists
        published before issue 24) the player's."""
        value = getattr(self, name)
        return getattr(self.player, name) if value is None else value

    @property
    def published_title(self) -> str:
        return str(self.published("title") or "")

    @property
    def published_federation(self) -> str:
        return str(self.published("federation") or "")

    @property
    def published_region(self) -> str:
        return str(self.published("region") or "")

    @property
    def published_club(self) -> str:
        return str(self.published("club") or "")

    @property
    def published_birth_date(self) -> Any:
        return self.published("birth_date")

    @property
    def published_birth_year(self) -> Any:
        return self.published("birth_year")


class _PerListPlayer(models.Model):
    """A row derived from one published list for one player, written after the publication
    (ranks, filter rows): no foreign-key constraint nor single-column index, the tables are
    written in bulk and read through their own composite indexes."""

    published_list = models.ForeignKey(
        PublishedList,
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )

    class Meta:
        abstract = True


class ListRank(_PerListPlayer):
    """A player's ranks in one published list (by rating; ties share a rank): national, in
    his region, in his club, among active players. Derived from the list once, after it is
    published (ratings.lists.ranks, a Celery task), so the player card reads them with one
    probe instead of counting a 500,000-entry list per view; region and club are the player's
    when the ranks were written."""

    national = models.PositiveIntegerField()
    region = models.PositiveIntegerField(null=True)
    club = models.PositiveIntegerField(null=True)
    active = models.PositiveIntegerField(null=True)

    class Meta:
        verbose_name = _("ranks in a list")
        verbose_name_plural = _("ranks in lists")
        constraints = [
            models.UniqueConstraint(fields=["published_list", "player"], name="list_rank_unique")
        ]
        # Written once (INSERT … ON CONFLICT DO NOTHING), never changed: IMMUTABLE above.
        triggers = _published_triggers()


class ListFilterRow(_PerListPlayer):
    """What a list page filters and sorts one entry by: the entry's rating, change and games,
    the player's name key, region, club, sex, title and birth year, and whether the entry is
    active. Written once per published list (ratings.lists.ranks, with the ranks), so a
    filtered or name-sorted page is one range of an index on this narrow table instead of a
    join of every entry to its player. The player's fields are his when the rows were
    written, as the region and club ranks are (a published list is a snapshot)."""

    rating = models.PositiveSmallIntegerField(_("rating"), null=True)
    change = models.SmallIntegerField(_("change"))
    games = models.PositiveIntegerField(_("games in the period"))
    name_key = models.CharField(_("name key"), max_length=250)
    region = models.CharField(_("region"), max_length=80)
    club = models.CharField(_("club"), max_length=120)
    sex = models.CharField(_("sex"), max_length=1)
    title = models.CharField(_("title"), max_length=4)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True)
    active = models.BooleanField(_("active"))

    class Meta:
        verbose_name = _("list filter row")
        verbose_name_plural = _("list filter rows")
        constraints = [
            models.UniqueConstraint(fields=["published_list", "player"], name="list_row_unique")
        ]
        # Written once (INSERT … ON CONFLICT DO NOTHING), never changed: IMMUTABLE above.
        triggers = _published_triggers()
        # One per filter a page is commonly asked for, by rating as the page sorts by default
        # (with "active" and the birth year last, so a second filter reads the index only;
        # key columns, not INCLUDE, which `manage.py check` warns about without a database),
        # one for the age groups (a range of birth years, then sorted: the age groups are
        # small) and one for the name sort; other sorts read one of these and sort.
        indexes = [
            models.Index(
                F("published_list"),
                F(field),
                F("rating").desc(nulls_last=True),
                F("player"),
                *[F(f) for f in ("active", "birth_year") if f != field],
                name=f"list_row_{field}_rating",
            )
            for field in ("region", "club", "sex", "active")
        ] + [
            models.Index(
                fields=["published_list", "birth_year", "rating", "player", "active"],
                name="list_row_birth_year",
            ),
            models.Index(fields=["published_list", "name_key", "player"], name="list_row_name"),
        ]


class ListFilterCount(models.Model):
    """How many entries of one section of a published list a filter of its page keeps (issue 29:
    the page read them on first request, counting the list): the whole section, each sex,
    title, region, club and age group (LIST_AGE_GROUPS), each with the number of its active
    entries too (the "active only" box and the top lists). Written by the publication's
    own step (ratings.publication.counts), one set-based statement in its transaction, so they
    are there when the list is; immutable like the list (IMMUTABLE above)."""

    published_list = models.ForeignKey(
        PublishedList,
        on_delete=models.PROTECT,
        related_name="+",
        db_constraint=False,
        db_index=False,
        verbose_name=_("list"),
    )
    #: The section of the list ("active" for the list itself, and for lists without sections).
    section = models.CharField(_("section"), max_length=14)
    #: The filter: "" for none, else "sex", "title", "region", "club" or "age".
    dimension = models.CharField(_("filter"), max_length=10, blank=True)
    #: The filter's value (a sex, a title, a region or club as published, an age group's code).
    value = models.CharField(_("value"), max_length=120, blank=True)
    entries = models.PositiveIntegerField(_("entries"))
    active_entries = models.PositiveIntegerField(_("active entries"))

    class Meta:
        verbose_name = _("list filter count")
        verbose_name_plural = _("list filter counts")
        constraints = [
            models.UniqueConstraint(
                fields=["published_list", "section", "dimension", "value"],
                name="list_filter_count_unique",
            )
        ]
        triggers = _published_triggers()

    def __str__(self) -> str:
        return f"{self.published_list_id} {self.section} {self.dimension}={self.value}"
