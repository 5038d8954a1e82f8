"""Arbiters and organisers as records; each waits for an officer's approval when an arbiter
registers it (``RecordState``; changes only through tournaments.officials.services)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.track import history_track


class RecordState(models.TextChoices):
    PENDING = "pending", _("Pending the officer's approval")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class ArbiterTitle(models.TextChoices):
    """FIDE's arbiter titles (feda-1996 1.1's "Arbitro Titulado")."""

    IA = "IA", _("International Arbiter (IA)")
    FA = "FA", _("FIDE Arbiter (FA)")
    NA = "NA", _("National Arbiter (NA)")


class ArbiterCategory(models.TextChoices):
    """The federation's categories of arbiter, matched to the levels of event of feda-1996 1.11
    (national and international), 1.12 (autonómica) and 1.13 (provincial)."""

    NATIONAL = "national", _("National arbiter")
    REGIONAL = "regional", _("Regional (autonomous community) arbiter")
    PROVINCIAL = "provincial", _("Provincial arbiter")


class OfficialRecord(models.Model):
    """What an arbiter and an organiser share: who registered it and the officer's decision."""

    name = models.CharField(_("name"), max_length=120)
    federation = models.CharField(_("federation"), max_length=3, default="ESP")
    state = models.CharField(
        _("state"), max_length=10, choices=RecordState.choices, default=RecordState.PENDING
    )
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registered by"),
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        abstract = True
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


@history_track()
class Arbiter(OfficialRecord):
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True, unique=True)
    title = models.CharField(
        _("FIDE title"), max_length=2, choices=ArbiterTitle.choices, blank=True, default=""
    )
    category = models.CharField(
        _("category"), max_length=12, choices=ArbiterCategory.choices, blank=True, default=""
    )

    class Meta(OfficialRecord.Meta):
        verbose_name = _("arbiter")
        verbose_name_plural = _("arbiters")
        indexes = [models.Index(fields=["state"], name="arbiter_state")]


@history_track()
class Organiser(OfficialRecord):
    contact = models.CharField(
        _("contact"), max_length=200, blank=True, help_text=_("An e-mail address or a telephone.")
    )

    class Meta(OfficialRecord.Meta):
        verbose_name = _("organiser")
        verbose_name_plural = _("organisers")
        indexes = [models.Index(fields=["state"], name="organiser_state")]
