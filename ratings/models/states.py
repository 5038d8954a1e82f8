"""A player's state in a rating system: rating, kind, activity, what the next list reads."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem
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
    #: The regulation's version, ``"<ruleset>/<n>"`` (rating_engine/version.py); "" before
    #: regulations had versions (engine_version "1.0.0") and for imported ratings.
    regulation_version = models.CharField(
        _("regulation version"), max_length=30, blank=True, default="", db_default=""
    )
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
