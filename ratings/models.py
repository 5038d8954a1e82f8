"""Rating systems, periods, per-player state, published lists and protests.

A published list is never edited: PostgreSQL refuses UPDATE, DELETE and TRUNCATE on published
lists and their entries (the triggers declared in their Meta.triggers, IMMUTABLE below), and
the ORM refuses them too (ImmutableModel). A correction is a
new version of the list.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pghistory
import pgtrigger
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.jobs import Job
from core.pg.triggers import Refuse
from periods.models import RatingPeriod, RatingSystem
from players.models import Player


class RatingKind(models.TextChoices):
    UNRATED = "unrated", _("Unrated")
    PROVISIONAL = "provisional", _("Provisional")
    EFFECTIVE = "effective", _("Effective")


class Activity(models.TextChoices):
    ACTIVE = "active", _("Active")
    INACTIVE = "inactive", _("Inactive")
    PASSIVE = "passive", _("Passive")


# STATEMENT_LEVEL_REFERENCES. The two tables written in bulk (player states, list entries:
# 500,000 rows a month) declare their foreign keys with db_constraint=False. A REFERENCES
# constraint makes PostgreSQL look up the parent once per inserted row and reference; measured
# at 500,000 rows that is 6.7 s at commit, more than the insert itself. Migration 0005 keeps the
# same guarantees with triggers that check a whole statement in one anti-join (the transition
# table of new rows against the parent's primary key), plus triggers on the parents that refuse
# to delete a player or a rating system still referenced. Django's on_delete (CASCADE /
# PROTECT) works as before in the ORM.


class PlayerRating(models.Model):
    """A player's current state in one rating system, advanced when a list is published."""

    # No single-column indexes on the two keys: the unique (player, system) index serves
    # look-ups by player and the (system, -rating) index serves look-ups by system, and every
    # extra index slows the publication of a 500,000-player list.
    # The two references are checked once per statement, not once per row (db_constraint=False
    # plus the triggers of migration 0005, see STATEMENT_LEVEL_REFERENCES below).
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
        db_index=False,
        db_constraint=False,
    )
    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.CASCADE,
        related_name="player_ratings",
        verbose_name=_("rating system"),
        db_index=False,
        db_constraint=False,
    )
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    games = models.PositiveIntegerField(_("rated games in total"), default=0)
    kind = models.CharField(
        _("kind"), max_length=12, choices=RatingKind.choices, default=RatingKind.UNRATED
    )
    activity = models.CharField(
        _("activity"), max_length=10, choices=Activity.choices, default=Activity.ACTIVE
    )
    out_of_list = models.BooleanField(_("out of list"), default=False)
    # K state: FIDE 2024 8.3.3 / FIDE 2000 — once the published rating reached 2400, K is 10
    # for ever; FEDA 1996 9.53a the same at 2200.
    reached_2400 = models.BooleanField(_("has reached 2400"), default=False)
    reached_2200 = models.BooleanField(_("has reached 2200"), default=False)
    last_game_date = models.DateField(_("last rated game"), null=True, blank=True)
    # fide-2024 8.2.4 (fide-2000 10.4, cnxc-2000 12.1): a game of a tournament that ended
    # before his first published rating counts for him, not for his opponents. Set by the
    # publication that gives a first rating; NULL for the unrated and for ratings that came
    # from an imported list (rated before the office's records).
    rated_since = models.DateField(
        _("rated since"),
        null=True,
        blank=True,
        help_text=_("Date of the first list that published this rating (fide-2024 8.2.4)."),
    )
    flagged_lists = models.PositiveSmallIntegerField(
        _("lists shown while inactive"),
        default=0,
        help_text=_("fide-2000 9.23: 7 lists; feda-1996 8.22: 3 lists."),
    )
    # Results of a not-yet-rated player pooled over periods until a first rating is reached:
    # [{"opponent_rating": 1850, "score": 0.5, "tournament": "T1", "end_date": "2026-10-20"}].
    prior_results = models.JSONField(
        _("pooled results of an unrated player"), default=list, blank=True
    )
    ruleset = models.CharField(_("regulation set"), max_length=20, blank=True)
    engine_version = models.CharField(_("engine version"), max_length=20, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "system"], name="player_rating_unique"),
        ]
        # No index on any column a publication changes (rating, games, statuses): then every
        # update of a state can be a heap-only (HOT) update, which writes no index entry, given
        # room on its page, which migration 0006 keeps (fillfactor 50). Measured on 320,000
        # changed states of a 500,000-player list: 1.6 s instead of 6.2 s.
        indexes = [models.Index(fields=["system"], name="player_rating_system")]

    def __str__(self) -> str:
        return f"{self.player} — {self.system}: {self.rating or '-'}"


# IMMUTABLE. The published record refuses changes in PostgreSQL itself, so raw SQL is refused
# as well as the ORM, with a `restrict_violation` (SQLSTATE 23001, IntegrityError in Django):
# - published lists and list entries: every UPDATE and DELETE (row level, before the change),
#   and TRUNCATE (statement level). `manage.py flush`, which empties the whole database (the
#   test runner uses it), is the one exception: ratings/management/commands/flush.py.
# - a calculation run once published, and its draft rows (results, game lines, games left
#   out): UPDATE and DELETE. The run's trigger has a WHEN clause (no call for unpublished
#   runs); the draft tables' are statement level and read the statement's old rows once, so
#   replacing a large unpublished draft costs one join, not a trigger call per row.
# Declared with django-pgtrigger (core/pg/triggers.py); migration 0011 replaced the
# hand-written PL/pgSQL triggers of migrations 0002 and 0003 by these.
IMMUTABLE_MESSAGE = "published lists are immutable: % on % refused; publish a new version instead"


def _published_triggers() -> list[pgtrigger.Trigger]:
    return [
        Refuse(
            name="immutable",
            message=IMMUTABLE_MESSAGE,
            operation=pgtrigger.Update | pgtrigger.Delete,
        ),
        Refuse(
            name="immutable_truncate",
            message=IMMUTABLE_MESSAGE,
            operation=pgtrigger.Truncate,
            level=pgtrigger.Statement,
        ),
    ]


def _published_run_rows_triggers() -> list[pgtrigger.Trigger]:
    published_run = pgtrigger.Condition(
        "OLD.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT "
        "NULL)"
    )
    return [
        Refuse(
            name=f"immutable_{op.name.lower()}",
            message=IMMUTABLE_MESSAGE,
            operation=op,
            level=pgtrigger.Statement,
            condition=published_run,
        )
        for op in (pgtrigger.Update, pgtrigger.Delete)
    ]


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
@pghistory.track(pghistory.InsertEvent(), level=pghistory.Statement)
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
        return f"{self.system} {self.list_date:%Y-%m-%d} v{self.version}"


class EntryStatus(models.TextChoices):
    RATED = "rated", _("Rated")
    NEW = "new", _("New")
    UNRATED = "unrated", _("Unrated")
    OUT_OF_LIST = "out_of_list", _("Out of list")
    INACTIVE = "inactive", _("Inactive")
    PROVISIONAL = "provisional", _("Provisional")
    PASSIVE = "passive", _("Passive")


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
    # entries" with one probe per published list (ratings.selectors.player_list_history), and
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

    class Meta:
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")
        ordering = ["-rating"]
        constraints = [
            models.UniqueConstraint(
                fields=["published_list", "player"], name="entry_unique_player"
            ),
        ]
        triggers = _published_triggers()

    def __str__(self) -> str:
        return f"{self.player}: {self.rating}"


class ProtestStatus(models.TextChoices):
    SUBMITTED = "submitted", _("Submitted")
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")
    WITHDRAWN = "withdrawn", _("Withdrawn")


# The list page shows its protests' events: indexed by list.
@pghistory.track(
    pghistory.InsertEvent(),
    pghistory.UpdateEvent(),
    pghistory.DeleteEvent(),
    level=pghistory.Statement,
    meta={"indexes": [models.Index(fields=["published_list"], name="protestevent_list")]},
)
class Protest(models.Model):
    """A protest against a published list, within its deadline (e.g. fce 9.3: 25 days)."""

    published_list = models.ForeignKey(
        PublishedList, on_delete=models.PROTECT, related_name="protests", verbose_name=_("list")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="protests",
        verbose_name=_("player concerned"),
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="protests",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    text = models.TextField(_("grounds"))
    status = models.CharField(
        _("status"), max_length=12, choices=ProtestStatus.choices, default=ProtestStatus.SUBMITTED
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision = models.TextField(_("decision"), blank=True)

    class Meta:
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        ordering = ["-submitted_at"]

    def __str__(self) -> str:
        return f"{self.player} / {self.published_list}"


# --------------------------------------------------------------------------- calculations
# A calculation run writes a draft (DraftResult per player, DraftTournament with the counted game
# lines, DraftExcluded per game left out). Publishing turns the draft of one run into a
# PublishedList;
# from then on the run and its rows are part of the published record and PostgreSQL refuses to
# change them (IMMUTABLE above). Drafts of unpublished runs are replaced freely.


class CalculationRun(Job):
    """One calculation of one period. At most one run per period is queued or running
    (a partial unique index), which is the database lock that refuses a second request."""

    period = models.ForeignKey(
        RatingPeriod, on_delete=models.PROTECT, related_name="runs", verbose_name=_("period")
    )
    ruleset = models.CharField(_("regulation set"), max_length=20)
    engine_version = models.CharField(_("engine version"), max_length=20)
    method = models.CharField(_("method"), max_length=10, blank=True, help_text=_("bulk or engine"))
    player_count = models.PositiveIntegerField(_("players"), default=0)
    game_count = models.PositiveIntegerField(_("games counted"), default=0)
    excluded_count = models.PositiveIntegerField(_("games left out"), default=0)
    published_list = models.OneToOneField(
        PublishedList,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="run",
        verbose_name=_("published as"),
    )

    class Meta:
        verbose_name = _("calculation run")
        verbose_name_plural = _("calculation runs")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["period"],
                condition=Q(status__in=["queued", "running"]),
                name="run_one_active_per_period",
            ),
        ]
        triggers = [
            Refuse(
                name="immutable",
                message=IMMUTABLE_MESSAGE,
                operation=pgtrigger.Update | pgtrigger.Delete,
                condition=pgtrigger.Q(old__published_list__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period} run {self.pk} ({self.status})"


class DraftResult(models.Model):
    """A player's result in one run: what the list will say if this run is published."""

    # No FK constraint or single-column index: COPY of a million rows skips the per-row RI
    # check, and the composite indexes below start with run.
    run = models.ForeignKey(
        CalculationRun,
        on_delete=models.CASCADE,
        related_name="results",
        db_constraint=False,
        db_index=False,
    )
    # Read by (run, player) only: the unique index below serves it.
    player = models.ForeignKey(
        Player, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    rating_before = models.SmallIntegerField(null=True, blank=True)
    rating_after = models.SmallIntegerField(null=True, blank=True)
    change = models.SmallIntegerField(default=0)
    k = models.SmallIntegerField(null=True, blank=True)
    k_article = models.CharField(max_length=40, blank=True)
    games = models.IntegerField(default=0)
    score = models.FloatField(default=0)
    expected = models.FloatField(default=0)
    status = models.CharField(_("status"), max_length=12, choices=EntryStatus.choices)
    previous_status = models.CharField(max_length=12, blank=True)
    inactive = models.BooleanField(default=False)
    provisional = models.BooleanField(default=False)
    flags = models.JSONField(default=list, blank=True, help_text=_("Codes of the notes applied."))
    notes = models.JSONField(default=list, blank=True)
    # The state PlayerRating takes when this run is published.
    total_games = models.IntegerField(default=0)
    games_before = models.IntegerField(default=0)
    last_game_date = models.DateField(null=True, blank=True)
    reached_2400 = models.BooleanField(default=False)
    reached_2200 = models.BooleanField(default=False)
    flagged_lists = models.SmallIntegerField(default=0)
    prior_results = models.JSONField(null=True, blank=True)
    # The state the run started from, for the fields a list does not carry (rating, games and
    # status are rating_before, games_before, previous_status): a re-run of the period once
    # published starts from it, not from PlayerRating, which has moved on (states.state_source).
    # NULL in rows written before they existed (reached_2400_before tells), and
    # prior_results_before where the path does not read pooled results (bulk path, rated).
    reached_2400_before = models.BooleanField(null=True, blank=True)
    reached_2200_before = models.BooleanField(null=True, blank=True)
    last_game_date_before = models.DateField(null=True, blank=True)
    flagged_lists_before = models.SmallIntegerField(null=True, blank=True)
    prior_results_before = models.JSONField(null=True, blank=True)
    rated_since_before = models.DateField(null=True, blank=True)
    ruleset = models.CharField(max_length=20)
    engine_version = models.CharField(max_length=20)

    class Meta:
        verbose_name = _("draft result")
        verbose_name_plural = _("draft results")
        constraints = [
            models.UniqueConstraint(fields=["run", "player"], name="draft_result_unique_player")
        ]
        triggers = _published_run_rows_triggers()


#: One counted game line of one player, packed (little-endian) for DraftTournament.lines.
#: `opponent` is a registry player id, or minus the TournamentPlayer id of a player outside the
#: registry; `score2` is twice the score; `change` is K x (score - expected) before rounding.
LINE_DTYPE = [
    ("player", "<i4"),
    ("opponent", "<i4"),
    ("opponent_rating", "<i2"),
    ("score2", "i1"),
    ("k", "<i2"),
    ("expected", "<f4"),
    ("change", "<f4"),
]


class DraftTournament(models.Model):
    """The counted game lines of one tournament in a run (per game and player: opponent,
    rating, score, expected score, change, K), packed in one row per tournament: a FIDE-scale
    semester has millions of lines, and one row per line costs more to write than to compute.
    Totals per tournament are columns, for the review page."""

    run = models.ForeignKey(
        CalculationRun,
        on_delete=models.CASCADE,
        related_name="tournament_lines",
        db_constraint=False,
        db_index=False,
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    lines = models.BinaryField(_("game lines (packed)"))
    line_count = models.PositiveIntegerField(default=0)
    player_count = models.PositiveIntegerField(default=0)
    change_sum = models.FloatField(default=0)
    change_max = models.FloatField(null=True, blank=True)
    change_min = models.FloatField(null=True, blank=True)
    ruleset = models.CharField(max_length=20)
    engine_version = models.CharField(max_length=20)

    class Meta:
        verbose_name = _("draft game lines of a tournament")
        verbose_name_plural = _("draft game lines of tournaments")
        constraints = [
            models.UniqueConstraint(fields=["run", "tournament"], name="draft_tournament_unique"),
        ]
        triggers = _published_run_rows_triggers()

    def decode(self) -> Any:
        """The lines as a NumPy structured array (LINE_DTYPE)."""
        return np.frombuffer(bytes(self.lines), dtype=np.dtype(LINE_DTYPE))


class DraftExcluded(models.Model):
    """A game left out of a run, with the reason and the article."""

    run = models.ForeignKey(
        CalculationRun,
        on_delete=models.CASCADE,
        related_name="excluded",
        db_constraint=False,
        db_index=False,
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    white_key = models.CharField(max_length=20)
    black_key = models.CharField(max_length=20)
    round = models.SmallIntegerField(default=0)
    code = models.CharField(max_length=40)
    reason = models.CharField(max_length=200)
    article = models.CharField(max_length=40)
    ruleset = models.CharField(max_length=20)
    engine_version = models.CharField(max_length=20)

    class Meta:
        verbose_name = _("game left out")
        verbose_name_plural = _("games left out")
        indexes = [models.Index(fields=["run", "tournament"])]
        triggers = _published_run_rows_triggers()


class ListImportJob(Job):
    """One import of an existing rating list (ratings/import_jobs.py), run by a Celery worker.

    The uploaded file waits in ListImportChunk rows until the worker has read it; they are
    deleted when the job finishes, whatever the outcome. ``problems`` keeps what a failed
    import reported (the first lf.MAX_PROBLEMS, ``problem_total`` counts them all) as
    untranslated templates with their params, so each reader sees them in their language.
    """

    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="import_jobs",
        verbose_name=_("rating system"),
    )
    format = models.CharField(_("format"), max_length=10)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    # ratings.lists.imports.ListImportResult, once it succeeded.
    rows = models.PositiveIntegerField(_("rows"), null=True, blank=True)
    players_created = models.PositiveIntegerField(_("players created"), null=True, blank=True)
    players_updated = models.PositiveIntegerField(_("players completed"), null=True, blank=True)
    ratings_written = models.PositiveIntegerField(_("ratings written"), null=True, blank=True)
    method = models.CharField(_("method"), max_length=10, blank=True)
    # When it failed: [{"line", "field", "code", "template", "params"}, …], or ``error`` for
    # anything else (the exception, for the office's technicians).
    problems = models.JSONField(_("problems"), default=list, blank=True)
    problem_total = models.PositiveIntegerField(_("problems in all"), default=0)

    class Meta:
        verbose_name = _("list import")
        verbose_name_plural = _("list imports")
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"{self.system} import {self.pk} ({self.status})"


class ListImportChunk(models.Model):
    """A piece (at most 1 MiB) of an uploaded list file, until its import job has read it.

    In the database rather than on disk because the worker may run on another machine than
    the web server, and a table of its own rather than a BinaryField on the job so that
    (1) the file is written a piece at a time from the upload, never held whole in the web
    process, (2) the job row that the progress page polls and the worker updates stays
    small, and (3) dropping the file is a plain DELETE of these rows.
    """

    # Read by (job, seq) only: the unique index below serves it.
    job = models.ForeignKey(
        ListImportJob, on_delete=models.CASCADE, related_name="chunks", db_index=False
    )
    seq = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        verbose_name = _("list import file piece")
        verbose_name_plural = _("list import file pieces")
        constraints = [
            models.UniqueConstraint(fields=["job", "seq"], name="list_import_chunk_job_seq")
        ]
