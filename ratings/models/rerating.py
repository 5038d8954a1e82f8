"""A re-rating chain: after a correction of an early period, one worker job recalculates and
republishes every later period in order (ratings.rerating.chain). Its progress over the whole
chain is stored here, and the number of periods committed is written in the same transaction
as each period's new list version, so a killed worker's chain resumes from the next period."""

from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.jobs import Job
from periods.models import RatingPeriod, RatingSystem


class RerateChain(Job):
    """The periods to re-rate (ids, in order) and how many of them are published again."""

    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="rerate_chains",
        verbose_name=_("rating system"),
    )
    first_period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.PROTECT,
        related_name="rerate_chains",
        verbose_name=_("from period"),
    )
    periods = ArrayField(models.BigIntegerField(), verbose_name=_("periods"))
    #: Periods whose new list version is committed (written with the list, one transaction).
    periods_done = models.PositiveIntegerField(_("periods done"), default=0)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("re-rating chain")
        verbose_name_plural = _("re-rating chains")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["system"],
                condition=Q(status__in=["queued", "running"]),
                name="rerate_chain_one_active_per_system",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.system} · {self.first_period}"

    @property
    def period_count(self) -> int:
        return len(self.periods)
