"""Live ratings: a player's pending change in a period not yet published, computed when a
report of the period is validated or changed (ratings.live), provisional until the list."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from periods.models import RatingPeriod, RatingSystem
from players.models import Player


class LiveRating(models.Model):
    """A player's whole change in one unpublished period over the validated tournaments he
    played in it, as the period's calculation would give it (same inputs, same regulation).

    One row per player and period, replaced whenever one of his tournaments is validated or
    changes. ``lines`` holds the counted games as the draft packs them (ratings.models.
    LINE_DTYPE, one object per line with its tournament), ``excluded`` the games left out."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    system = models.ForeignKey(RatingSystem, on_delete=models.CASCADE, related_name="+")
    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="+")
    rating_before = models.SmallIntegerField(null=True, blank=True)
    rating_after = models.SmallIntegerField(null=True, blank=True)
    change = models.SmallIntegerField(default=0)
    k = models.SmallIntegerField(null=True, blank=True)
    k_article = models.CharField(max_length=40, blank=True)
    games = models.IntegerField(default=0)
    score = models.FloatField(default=0)
    expected = models.FloatField(default=0)
    status = models.CharField(_("status"), max_length=12)
    notes = models.JSONField(default=list, blank=True)
    lines = models.JSONField(default=list, blank=True)
    excluded = models.JSONField(default=list, blank=True)
    #: The tournaments of the period the figure counts (validated when it was computed).
    tournaments = models.JSONField(default=list, blank=True)
    regulation_version = models.CharField(max_length=40)
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "period"], name="live_one_per_player_period")
        ]
        indexes = [models.Index(fields=["period", "computed_at"], name="live_period_computed")]
        verbose_name = _("live rating")
        verbose_name_plural = _("live ratings")

    def __str__(self) -> str:
        return f"{self.player_id} {self.period_id}: {self.rating_after} ({self.change:+d})"
