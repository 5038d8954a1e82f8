"""The scale's health (feda-1996 11.1-11.2, fide-2000 12.1-12.3): the figures of each published
list, computed at its publication (ratings.statistics), and each rating system's drift check
settings, which the officer edits."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem

from .published import PublishedList


class StatisticsScope(models.TextChoices):
    ALL = "all", _("Whole list")
    REGION = "region", _("Region")
    AGE = "age", _("Age band")


class AgeBand(models.TextChoices):
    """Bands by year of birth against the list's year, as the list's age groups count them
    (ratings.lists.filters.AGE_GROUPS): under 20 born in or after (year - 20), 65 and over born
    in or before (year - 65)."""

    JUNIORS = "u20", _("Under 20 (juniors)")
    ADULTS = "a20", _("20 to 49")
    SENIORS = "s50", _("50 to 64")
    VETERANS = "s65", _("65 and over")
    UNKNOWN = "unknown", _("Birth year unknown")


class ListStatistics(models.Model):
    """The figures of one published list, for the whole list, one region or one age band: the
    rated players on it (rating set, not out of the list), the active and new among them, the
    mean, median and deciles of their ratings, the average of the top 50 and the top 10 (all of
    them when fewer), and the mean change of those who played in the period. Written once, by
    one statement, when the list is published (ratings.statistics.services)."""

    published_list = models.ForeignKey(
        PublishedList,
        on_delete=models.CASCADE,
        related_name="statistics",
        verbose_name=_("list"),
        db_index=False,
    )
    system = models.ForeignKey(
        RatingSystem, on_delete=models.CASCADE, related_name="+", verbose_name=_("rating system")
    )
    list_date = models.DateField(_("list date"))
    scope = models.CharField(_("scope"), max_length=10, choices=StatisticsScope.choices)
    #: The region's name or the age band's code; "" for the whole list (and for players
    #: without a region).
    group = models.CharField(_("group"), max_length=80, blank=True)
    players = models.PositiveIntegerField(_("players"))
    active = models.PositiveIntegerField(_("active"))
    new = models.PositiveIntegerField(_("new"))
    mean = models.FloatField(_("mean"), null=True)
    median = models.FloatField(_("median"), null=True)
    #: The 1st to 9th deciles of the ratings (continuous percentiles).
    deciles = ArrayField(models.FloatField(), size=9, default=list, verbose_name=_("deciles"))
    top50 = models.FloatField(_("top-50 average"), null=True)
    top10 = models.FloatField(_("top-10 average"), null=True)
    mean_change = models.FloatField(_("mean change"), null=True)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        verbose_name = _("list statistics")
        verbose_name_plural = _("list statistics")
        ordering = ["system", "-list_date", "scope", "group"]
        constraints = [
            models.UniqueConstraint(
                fields=["published_list", "scope", "group"], name="list_statistics_unique"
            )
        ]
        indexes = [
            models.Index(fields=["system", "scope", "list_date"], name="list_statistics_series")
        ]

    def __str__(self) -> str:
        return f"{self.published_list_id} {self.scope} {self.group}".strip()


class ScaleMonitoring(models.Model):
    """A rating system's drift check (feda-1996 11.1, fide-2000 12.3): the top-50 average may
    move at most ``threshold`` rating points over ``lists`` lists before the officers are told.
    The officer sets both; the watched group and the article come from the regulation's facts
    (``facts.lists.scale_monitoring``)."""

    system = models.OneToOneField(
        RatingSystem,
        on_delete=models.CASCADE,
        related_name="scale_monitoring",
        verbose_name=_("rating system"),
    )
    threshold = models.FloatField(
        _("threshold (rating points)"),
        default=10.0,
        validators=[MinValueValidator(0.1), MaxValueValidator(1000)],
        help_text=_("The top-50 average may move this much before the officers are told."),
    )
    lists = models.PositiveSmallIntegerField(
        _("number of lists"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("The movement is measured from this many lists before the newest one."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )

    class Meta:
        verbose_name = _("scale monitoring")
        verbose_name_plural = _("scale monitoring")
        ordering = ["system"]

    def __str__(self) -> str:
        return f"{self.system}: {self.threshold} / {self.lists}"
