"""E-mails to the player about his protest, one per change, in his language (the one he
wrote the protest in; the site's otherwise). Written into the outbox (core.mail) in the
change's transaction, sent by a worker after it commits: a mail server that refuses does not
fail the player's request, and the message waits until the server answers."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.mail import mail_enqueue
from protests.models import Protest

#: Changes a player is told about (untranslated keys; the texts below are translated).
SUBMITTED = "submitted"
INFORMATION_REQUESTED = "information_requested"
ANSWERED = "answered"
DECIDED = "decided"
APPEALED = "appealed"
APPEAL_DECIDED = "appeal_decided"


def _recipient(protest: Protest) -> str:
    player_user = protest.player.user
    return (player_user.email if player_user is not None else "") or protest.submitted_by.email


def _texts(protest: Protest, change: str) -> tuple[str, str]:
    """(subject, first paragraph) in the active language."""
    where = str(protest.published_list)
    if change == SUBMITTED:
        return _("Your protest has been received"), _(
            "Your protest against the list %(list)s has been received."
        ) % {"list": where}
    if change == INFORMATION_REQUESTED:
        return _("Your protest: information requested"), _(
            "The rating officer asks for more information about your protest against the list "
            "%(list)s:\n\n%(request)s\n\nAnswer on the protest's page."
        ) % {"list": where, "request": protest.information_request}
    if change == ANSWERED:
        return _("Your protest: answer received"), _(
            "Your answer about your protest against the list %(list)s has been received."
        ) % {"list": where}
    if change == DECIDED:
        return _("Your protest has been decided"), _(
            "Your protest against the list %(list)s has been %(status)s.\n\nReasons:\n%(reasons)s"
        ) % {
            "list": where,
            "status": _("upheld") if protest.status == "upheld" else _("rejected"),
            "reasons": protest.decision,
        }
    if change == APPEALED:
        return _("Your appeal has been received"), _(
            "Your appeal about your protest against the list %(list)s has been received."
        ) % {"list": where}
    return _("Your appeal has been decided"), _(
        "Your appeal about your protest against the list %(list)s has been %(status)s.\n\n"
        "Reasons:\n%(reasons)s"
    ) % {
        "list": where,
        "status": _("upheld") if protest.status == "upheld" else _("rejected"),
        "reasons": protest.appeal_decision,
    }


def protest_notify(*, protest: Protest, change: str) -> None:
    """E-mail the player about ``change`` (none if he has no address): an outbox row, to be
    written in the transaction of the change, sent once that commits."""
    recipient = _recipient(protest)
    if not recipient:
        return
    with translation.override(protest.language or settings.LANGUAGE_CODE):
        subject, body = _texts(protest, change)
        link = settings.SITE_URL + reverse("ratings:protest", args=[protest.pk])
        follow = _("Follow it here: %(link)s") % {"link": link}
        message = f"{body}\n\n{follow}\n"
    mail_enqueue(kind=f"protest.{change}", subject=subject, body=message, to=[recipient])
