"""The e-mails of accounts (docs/accounts.md), in the user's language, written into the outbox
(core.mail) in the transaction of the change that causes them and sent by a worker after it
commits: the sign-up's confirmation link, the note to an address that already has an account,
and the decisions on claims and correction requests."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import ClaimRequest, CorrectionRequest, RequestStatus
from core.mail import mail_enqueue


def _link(name: str, *args: object) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def signup_confirmation_send(*, email: str, username: str, token: str, language: str) -> None:
    """The link that confirms the address and opens the account."""
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = _("Confirm your e-mail address")
        body = _(
            "Someone (we hope you) opened the account “%(username)s” at the rating office with "
            "this address. To confirm it, open this link within %(days)s days:\n\n%(link)s\n\n"
            "If it was not you, ignore this message: the account stays closed."
        ) % {
            "username": username,
            "days": settings.ACCOUNTS_CONFIRM_DAYS,
            "link": _link("accounts:signup_confirm", token),
        }
    mail_enqueue(kind="accounts.signup", subject=subject, body=body, to=[email])


def signup_existing_send(*, email: str, language: str) -> None:
    """To an address that already has an account: the sign-up page says the same for every
    address, and only the mailbox's owner learns that it was already used."""
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = _("You already have an account")
        body = _(
            "Someone (we hope you) tried to open an account at the rating office with this "
            "address, which already has one. Log in with it: %(login)s\n\nForgotten your "
            "password? Ask for a new one: %(reset)s\n\nIf it was not you, ignore this message."
        ) % {"login": _link("login"), "reset": _link("password_reset")}
    mail_enqueue(kind="accounts.signup_existing", subject=subject, body=body, to=[email])


def claim_decided_send(*, claim: ClaimRequest) -> None:
    email = claim.user.email
    if not email:
        return
    with translation.override(claim.language or settings.LANGUAGE_CODE):
        if claim.status == RequestStatus.APPROVED:
            subject = _("Your claim of a player record is approved")
            body = _(
                "Your account is now linked to the player %(player)s (federation ID %(fed_id)s). "
                "Your card: %(link)s"
            ) % {
                "player": claim.player,
                "fed_id": claim.player.fed_id,
                "link": _link("players:detail", claim.player.fed_id),
            }
        else:
            subject = _("Your claim of a player record is refused")
            body = _(
                "The rating office refused your claim of the player %(player)s.\n\nReason:\n"
                "%(reason)s\n\nYou may claim again: %(link)s"
            ) % {"player": claim.player, "reason": claim.reason, "link": _link("accounts:claim")}
    mail_enqueue(kind=f"accounts.claim_{claim.status}", subject=subject, body=body, to=[email])


def correction_decided_send(*, correction: CorrectionRequest) -> None:
    user = correction.player.user or correction.requested_by
    if not user.email:
        return
    with translation.override(correction.language or settings.LANGUAGE_CODE):
        if correction.status == RequestStatus.APPROVED:
            subject = _("Your data correction is accepted")
            body = _(
                "The rating office corrected your record as you asked. Your card: %(link)s"
            ) % {"link": _link("players:detail", correction.player.fed_id)}
        else:
            subject = _("Your data correction is refused")
            body = _(
                "The rating office refused your data correction request.\n\nReason:\n%(reason)s"
                "\n\nYour requests: %(link)s"
            ) % {"reason": correction.reason, "link": _link("accounts:corrections")}
    mail_enqueue(
        kind=f"accounts.correction_{correction.status}", subject=subject, body=body, to=[user.email]
    )
