"""The calibration of a calculation against an external list (cnxc-2000 7.3), kept per run so
the review page shows what it did: the list read, the players in both lists with their two
ratings, the mean difference, whether it was applied (or why not), and each effective rating
before and after (ratings/calculation/calibration.py writes it)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from periods.models import RatingPeriod
from players.models import ExternalList, Player

from .calculation import CalculationRun


class CalibrationReason(models.TextChoices):
    """Why a calibration was applied or not (7.3 b)."""

    APPLIED = "applied", _("Applied")
    TOO_FEW = "too_few_players", _("Fewer players in both lists than the regulation needs")
    NO_LIST = "no_list", _("No list of this source was imported in force on that day")
    ALREADY_USED = "already_used", _("This list was already applied to an earlier period")


class Calibration(models.Model):
    """One run's calibration (the period's is its latest run's)."""

    run = models.OneToOneField(
        CalculationRun,
        on_delete=models.CASCADE,
        related_name="calibration",
        verbose_name=_("calculation run"),
    )
    period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.CASCADE,
        related_name="calibrations",
        verbose_name=_("rating period"),
    )
    article = models.CharField(_("article"), max_length=40)
    source = models.CharField(_("list"), max_length=4)
    # The day whose list in force is read (7.3: the day after the period's last day).
    read_on = models.DateField(_("list in force on"))
    external_list = models.ForeignKey(
        ExternalList,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="calibrations",
        verbose_name=_("external list"),
    )
    list_date = models.DateField(_("list date"), null=True, blank=True)
    players = models.PositiveIntegerField(_("players in both lists"), default=0)
    minimum_players = models.PositiveSmallIntegerField(_("players needed"), default=0)
    mean_difference = models.DecimalField(
        _("mean difference"), max_digits=8, decimal_places=3, null=True, blank=True
    )
    shift = models.SmallIntegerField(_("points added"), default=0)
    applied = models.BooleanField(_("applied"), default=False)
    reason = models.CharField(_("outcome"), max_length=20, choices=CalibrationReason.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("calibration")
        verbose_name_plural = _("calibrations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.period} calibration ({self.reason})"


class CalibrationEntry(models.Model):
    """A player of a calibration: in both lists (7.3 a) and/or shifted (7.3 b)."""

    calibration = models.ForeignKey(
        Calibration,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("calibration"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("player"),
    )
    in_both_lists = models.BooleanField(_("in both lists"), default=False)
    reference = models.SmallIntegerField(_("rating in the external list"), null=True, blank=True)
    rating_before = models.SmallIntegerField(_("rating before"))
    rating_after = models.SmallIntegerField(_("rating after"))

    class Meta:
        verbose_name = _("calibration entry")
        verbose_name_plural = _("calibration entries")
        ordering = ["calibration", "-in_both_lists", "player"]

    def __str__(self) -> str:
        return f"{self.calibration}: {self.player_id}"
