"""Protests against a published list, and their attachments (docs/protests.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.track import history_track
from players.models import Player
from ratings.models import PublishedList
from tournaments.models import Game, Tournament


class ProtestStatus(models.TextChoices):
    SUBMITTED = "submitted", _("Submitted")
    WAITING = "waiting", _("Waiting for your information")
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    APPEALED = "appealed", _("Appealed")


#: Not decided yet: at most one of these per player and list (the constraint below).
OPEN_STATUSES = (ProtestStatus.SUBMITTED, ProtestStatus.WAITING, ProtestStatus.APPEALED)
#: Decided (an appeal may still reopen an upheld or rejected protest, cnxc-2000 4.3).
DECIDED_STATUSES = (ProtestStatus.UPHELD, ProtestStatus.REJECTED, ProtestStatus.WITHDRAWN)


#: What the player writes when he submits a protest (protests.services.protest_submit);
#: every other field is a later step's, written by the services alone.
PROTEST_SUBMISSION_FIELDS = (
    "published_list",
    "player",
    "submitted_by",
    "submitted_at",
    "tournament",
    "game",
    "subject",
    "text",
    "language",
)


# The list page shows its protests' events: indexed by list. The tables keep the names they had
# when protests were part of the ratings app (migrations/0001_move_protests.py).
@history_track(
    meta={
        "db_table": "ratings_protestevent",
        "indexes": [models.Index(fields=["published_list"], name="protestevent_list")],
    },
)
class Protest(models.Model):
    """A protest against a player's entry in a published list, within its deadline (fce 9.3:
    25 days; cnxc-2000 4.3: 30 days). Its status changes only through
    protests.services; every change is kept in its history (pghistory)."""

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
    # What the protest is about: a tournament, or one game of it (or ``subject`` below).
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    #: The tournament or game in the player's words, when it is not one of the period's.
    subject = models.CharField(_("tournament or game named"), max_length=200, blank=True)
    text = models.TextField(_("grounds"))
    #: The language the player wrote in: his e-mails are sent in it ("" : the site's).
    language = models.CharField(_("language"), max_length=8, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=ProtestStatus.choices, default=ProtestStatus.SUBMITTED
    )
    information_request = models.TextField(_("information requested"), blank=True)
    information_requested_at = models.DateTimeField(
        _("information requested at"), null=True, blank=True
    )
    information_answer = models.TextField(_("player's answer"), blank=True)
    information_answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
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
    # The appeal against the decision (cnxc-2000 4.3), with its deposit.
    appealed_at = models.DateTimeField(_("appealed at"), null=True, blank=True)
    appeal_text = models.TextField(_("grounds of the appeal"), blank=True)
    appeal_deposit = models.DecimalField(
        _("appeal deposit"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    appeal_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("appeal decided by"),
    )
    appeal_decided_at = models.DateTimeField(_("appeal decided at"), null=True, blank=True)
    appeal_decision = models.TextField(_("appeal decision"), blank=True)
    deposit_returned_at = models.DateTimeField(_("deposit returned at"), null=True, blank=True)
    #: The corrected version of the list this protest caused (set when it is published).
    corrected_list = models.ForeignKey(
        PublishedList,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="protests_corrected",
        verbose_name=_("corrected list"),
    )

    class Meta:
        db_table = "ratings_protest"
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        ordering = ["-submitted_at"]
        constraints = [
            # One open protest per player and list entry; the service refuses a second one
            # with a message first (protest_submit), this catches a race.
            models.UniqueConstraint(
                fields=["published_list", "player"],
                condition=Q(status__in=[s.value for s in OPEN_STATUSES]),
                name="protest_one_open_per_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} / {self.published_list}"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class ProtestAttachment(models.Model):
    """The optional document of a protest (PDF or image, checked by content). Kept apart from
    the tracked protest so its bytes are not copied into every history event."""

    protest = models.OneToOneField(
        Protest, on_delete=models.CASCADE, related_name="attachment", verbose_name=_("protest")
    )
    name = models.CharField(_("file name"), max_length=200)
    content_type = models.CharField(_("content type"), max_length=40)
    data = models.BinaryField(_("content"))
    size = models.PositiveIntegerField(_("size"))

    class Meta:
        db_table = "ratings_protestattachment"
        verbose_name = _("protest attachment")
        verbose_name_plural = _("protest attachments")

    def __str__(self) -> str:
        return self.name
