"""A user's notices and his choices: which kinds he gets, in which language, which rating
systems' new lists he follows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem


class NoticeKind(models.TextChoices):
    """What a notice is about; each is a choice on the preferences page and has its own
    one-click unsubscribe. The protests' e-mails are not notices (protests/notify.py)."""

    LIST_PUBLISHED = "list_published", _("A new rating list is published")
    EVENT_RATED = "event_rated", _("A tournament I played or ran is rated")
    LIVE_RATING = "live_rating", _("My live rating changes")
    REPORT = "report", _("A report of my tournament needs me")
    OFFICER_DIGEST = "officer_digest", _("The daily digest of the office's work (officers)")


#: NoticePreference's field for each kind: on unless the user turns it off.
KIND_FIELDS = {kind: kind.value for kind in NoticeKind}


class NoticePreference(models.Model):
    """One user's choices; a user without a row gets every kind, by e-mail, in the site's
    language (settings.LANGUAGE_CODE)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notice_preference",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The language of your e-mails; empty: the site's."),
    )
    by_email = models.BooleanField(_("send me e-mails"), default=True)
    list_published = models.BooleanField(NoticeKind.LIST_PUBLISHED.label, default=True)
    event_rated = models.BooleanField(NoticeKind.EVENT_RATED.label, default=True)
    live_rating = models.BooleanField(NoticeKind.LIVE_RATING.label, default=True)
    report = models.BooleanField(NoticeKind.REPORT.label, default=True)
    officer_digest = models.BooleanField(NoticeKind.OFFICER_DIGEST.label, default=True)
    systems = models.ManyToManyField(
        RatingSystem,
        blank=True,
        related_name="+",
        verbose_name=_("rating systems I follow"),
        help_text=_("Tell me about every new list of these systems, even when I am not on it."),
    )

    class Meta:
        verbose_name = _("notice preferences")
        verbose_name_plural = _("notice preferences")

    def __str__(self) -> str:
        return str(self.user)

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, KIND_FIELDS[NoticeKind(kind)]))


class Notice(models.Model):
    """One thing the office told one user, shown on his "my notices" page (and e-mailed to him
    if he chose so)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notices",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=NoticeKind.choices)
    subject = models.CharField(_("subject"), max_length=200)
    text = models.TextField(_("text"))
    #: Where the notice leads, a path of the site ("/ratings/lists/12/").
    link = models.CharField(_("link"), max_length=500, blank=True)
    #: What the notice is about ("list:12", "report:40:problems"): a user gets one notice per
    #: key, so a task or a signal that comes twice does not tell him twice. Empty: no such key.
    key = models.CharField(_("key"), max_length=100, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"], name="notice_user_created")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], condition=~models.Q(key=""), name="notice_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return self.subject


class ListNotices(models.Model):
    """The notices of a published list, asked for in the publication's transaction and done
    by a worker (notices.tasks): a row left undone (the broker was away) is sent again by the
    watchdog."""

    published_list = models.OneToOneField(
        "ratings.PublishedList",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("published list"),
    )
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notices of a list")
        verbose_name_plural = _("notices of lists")

    def __str__(self) -> str:
        return f"{self.published_list_id}"
