"""The FIDE -> system differential a federation computes and publishes yearly (fce 9.5; the
proposal's point 8): its figures as computed, and who published it from when
(ratings/differentials/, docs/periods.md "The FCE differential")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem


class DifferentialStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")


class Differential(models.Model):
    """One computation of a system's differential: the mean of (system rating − FIDE rating)
    over the players with both in the lists in force, overall and by bands of the FIDE rating.
    A draft until an officer publishes it with its effective date; the calculation of a period
    reads the published one with the latest effective date on or before the period's end."""

    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="differentials",
        verbose_name=_("rating system"),
    )
    computed_at = models.DateTimeField(_("computed at"))
    computed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("computed by"),
    )
    #: The players counted: with a rating in the system's list in force and a FIDE rating of
    #: the system's rate of play.
    players = models.PositiveIntegerField(_("players counted"))
    #: The exact mean (two decimals) and the value applied, the mean rounded half up.
    mean = models.DecimalField(_("mean difference"), max_digits=7, decimal_places=2)
    overall = models.SmallIntegerField(_("differential"))
    #: [{"from": 0, "to": 1599, "players": n, "sum": s, "mean": "12.34", "value": 12}, …]:
    #: by bands of the FIDE rating, ascending; "to" null for the last one. A band with fewer
    #: players than ratings.differentials.services.MIN_BAND_PLAYERS takes the overall value.
    bands = models.JSONField(_("bands"), default=list)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=DifferentialStatus.choices,
        default=DifferentialStatus.DRAFT,
    )
    effective_date = models.DateField(_("effective from"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )

    class Meta:
        verbose_name = _("differential")
        verbose_name_plural = _("differentials")
        ordering = ["system", "-computed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="draft") | Q(effective_date__isnull=False),
                name="differential_published_has_date",
            ),
            models.UniqueConstraint(
                fields=["system", "effective_date"],
                condition=Q(status="published"),
                name="differential_one_per_date",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.system} {self.overall:+d} ({self.get_status_display()})"
