"""Players' requests about their account (docs/accounts.md): a claim of a registry record, and
a correction of the record's data. Both are decided by a rating officer; their statuses change
only through accounts.services, and every change is kept in their history (pghistory)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.track import history_track
from players.models import Player


class RequestStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class ClaimMethod(models.TextChoices):
    FED_ID = "fed_id", _("Federation ID and birth date")
    FIDE_ID = "fide_id", _("FIDE ID")


#: The fields of a player a correction request may change (accounts.services.corrections).
CORRECTABLE_FIELDS = ("surname", "given_name", "birth_date", "birth_year", "club", "region")


class _OfficerDecides(models.Model):
    """What a request an officer decides holds besides its subject: its status, the officer's
    reason, who decided and when, and the language the user asked in."""

    status = models.CharField(
        _("status"), max_length=10, choices=RequestStatus.choices, default=RequestStatus.PENDING
    )
    reason = models.TextField(_("reason"), blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    # The user's language when he asked: his e-mails are written in it.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")

    class Meta:
        abstract = True


@history_track()
class ClaimRequest(_OfficerDecides):
    """A signed-in user asks to be linked to a registry player (Player.user). Approved, the
    account is linked and joins the player group; one pending claim per user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player_claims",
        verbose_name=_("user account"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="claims", verbose_name=_("player")
    )
    method = models.CharField(_("method"), max_length=8, choices=ClaimMethod.choices)

    class Meta:
        verbose_name = _("claim of a player record")
        verbose_name_plural = _("claims of player records")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="pending"),
                name="claim_one_pending_per_user",
            )
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="claim_status_created")]

    def __str__(self) -> str:
        return f"{self.user} → {self.player}"


@history_track()
class CorrectionRequest(_OfficerDecides):
    """A claimed player asks to correct his record: `changes` maps each field of
    CORRECTABLE_FIELDS he wants changed to its new value (dates as ISO text), `previous` keeps
    the values it had when he asked. Approved, the record changes (its own history keeps the
    change); one pending request per player."""

    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="correction_requests",
        verbose_name=_("player"),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="correction_requests",
        verbose_name=_("requested by"),
    )
    changes = models.JSONField(_("changes"), default=dict)
    previous = models.JSONField(_("previous values"), default=dict)
    note = models.TextField(_("note"), blank=True, default="")

    class Meta:
        verbose_name = _("data correction request")
        verbose_name_plural = _("data correction requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status="pending"),
                name="correction_one_pending_per_player",
            )
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="correction_status_created")]

    def __str__(self) -> str:
        return str(self.player)

    def change_rows(self) -> list[tuple[str, str, str]]:
        """(the field's name in the reader's language, the value before, the value asked)."""
        return [
            (
                str(getattr(Player._meta.get_field(f), "verbose_name", f)),
                self.previous.get(f, ""),
                value,
            )
            for f, value in self.changes.items()
        ]
