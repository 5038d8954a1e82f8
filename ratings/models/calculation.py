"""Calculation runs and the draft they write (results, counted game lines, games left out)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pgtrigger
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from core.jobs import Job
from core.pg.triggers import Refuse
from periods.models import RatingPeriod
from players.models import Player

from .published import (
    IMMUTABLE_MESSAGE,
    EntryStatus,
    PublishedList,
    _published_run_rows_triggers,
    _truncate_refused,
)

# A calculation run writes a draft (DraftResult per player, DraftTournament with the counted game
# lines, DraftExcluded per game left out). Publishing turns the draft of one run into a
# PublishedList; from then on the run and its rows are part of the published record and
# PostgreSQL refuses to change them (IMMUTABLE in ratings/models/published.py). Drafts of
# unpublished runs are replaced freely.


class CalculationRun(Job):
    """One calculation of one period. At most one run per period is queued or running
    (a partial unique index), which is the database lock that refuses a second request."""

    period = models.ForeignKey(
        RatingPeriod, on_delete=models.PROTECT, related_name="runs", verbose_name=_("period")
    )
    ruleset = models.CharField(_("regulation set"), max_length=20)
    engine_version = models.CharField(_("engine version"), max_length=20)
    #: The regulation's version, ``"<ruleset>/<n>"`` (rating_engine/version.py); "" before
    #: regulations had versions (engine_version "1.0.0") and for imported ratings.
    regulation_version = models.CharField(
        _("regulation version"), max_length=30, blank=True, default="", db_default=""
    )
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
    #: feda-1996 8.11: per tournament (its id as text), the published list it was rated with,
    #: chosen by its start date, and the article: ``{"<id>": {"list": <id or null>,
    #: "article": "feda-1996 8.11"}}``. Empty: the regulation rates every tournament of the
    #: period with the list in force at its start (``facts.lists.list_in_force_at_start``).
    lists_in_force = models.JSONField(
        _("lists in force"),
        default=dict,
        blank=True,
        db_default=models.Value({}, models.JSONField()),
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
            _truncate_refused(),
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
    regulation_version = models.CharField(max_length=30, blank=True, default="", db_default="")

    @property
    def previous_status_display(self) -> str:
        """The status before the period in the reader's words (EntryStatus), not its code."""
        if self.previous_status in EntryStatus.values:
            return str(EntryStatus(self.previous_status).label)
        return self.previous_status

    class Meta:
        verbose_name = _("draft result")
        verbose_name_plural = _("draft results")
        constraints = [
            models.UniqueConstraint(fields=["run", "player"], name="draft_result_unique_player")
        ]
        # The draft list and the review of statuses read a run's drafts by rating, highest
        # first, as the published list shows them: a page of a run of 100,000 players from the
        # index instead of sorting them all (issue 29 item 4; 0.6 ms instead of 600). One
        # index more for the calculation to fill: about 1 s more per 100,000 drafts written
        # (docs/benchmarks.md); a second one, by status then rating, cost as much again.
        indexes = [
            models.Index(
                "run",
                F("rating_after").desc(nulls_last=True),
                "player",
                name="draft_result_run_rating",
            ),
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
    regulation_version = models.CharField(max_length=30, blank=True, default="", db_default="")

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
    regulation_version = models.CharField(max_length=30, blank=True, default="", db_default="")

    class Meta:
        verbose_name = _("game left out")
        verbose_name_plural = _("games left out")
        indexes = [models.Index(fields=["run", "tournament"])]
        triggers = _published_run_rows_triggers()
