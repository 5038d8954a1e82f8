"""Sign-up with e-mail confirmation (docs/accounts.md).

The account is created inactive: Django refuses to log an inactive user in, so nothing can be
done with it until the address is confirmed. The confirmation link carries a token signed with
the site's secret (django.core.signing) naming the user and the address, valid
ACCOUNTS_CONFIRM_DAYS days; confirming activates the account. A link works once: an account
that was activated and has logged in is not opened again by an old link (nor is one an
administrator closed later).

An address already used by an account gets no second one: the sign-up answers the same as for
a new address (the page does not tell who has an account here), and the address receives a
note instead (or, for an account never confirmed, a new link). A user name, on the other hand,
is public on the site (the nav, the officers' pages) and is refused when taken.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import notify
from accounts.limits import limit_exceeded
from core.errors import Refused
from core.pg.locks import advisory_lock

#: The signer's salt: a token made for something else with the same secret is not accepted.
SALT = "accounts.signup.confirm"
#: Advisory-lock namespace (core.pg.locks): one sign-up at a time per e-mail address.
SIGNUP_LOCK = 7310


@dataclass(frozen=True)
class SignupResult:
    """What a sign-up did; the page and the API show the same for both, by design."""

    user: Any  # the new account, or None when the address had one already
    mail_sent: bool


def _address_key(email: str) -> int:
    """The address as a 32-bit lock key (PostgreSQL's advisory lock takes int4 keys)."""
    return zlib.crc32(email.lower().encode()) - 2**31


def signup_token(*, user: Any) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.lower()}, salt=SALT, compress=True)


def signup_check(*, username: str, email: str, password: str) -> None:
    """Refuse (ValidationError by field) a taken user name, a malformed address, or a password
    Django's validators (AUTH_PASSWORD_VALIDATORS) reject."""
    errors: dict[str, list[str]] = {}
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        errors["username"] = [_("This user name is taken; choose another.")]
    try:
        validate_email(email)
    except ValidationError as exc:
        errors["email"] = list(exc.messages)
    try:
        password_validation.validate_password(password, User(username=username, email=email))
    except ValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise ValidationError(errors)


def account_sign_up(
    *, username: str, email: str, password: str, address: str, language: str = ""
) -> SignupResult:
    """Open an inactive account and e-mail its confirmation link (the outbox), or, when the
    address already has an account, e-mail that address a note (or a new link if it was never
    confirmed). Refused when `address` (the client's IP) asked too often this hour; an address
    receives at most ACCOUNTS_MAILS_PER_ADDRESS_PER_HOUR of these e-mails an hour."""
    username, email = username.strip(), email.strip()
    if limit_exceeded(
        scope="signup", who=address, limit=settings.ACCOUNTS_SIGNUPS_PER_HOUR, seconds=3600
    ):
        raise Refused(_("Too many sign-ups from your address. Try again in an hour."))
    signup_check(username=username, email=email, password=password)
    User = get_user_model()
    # One at a time per address: two sign-ups racing with one address make one account.
    with advisory_lock(SIGNUP_LOCK, _address_key(email)), transaction.atomic():
        existing = User.objects.filter(email__iexact=email).order_by("id").first()
        user = None
        if existing is None:
            user = User(username=username, email=email, is_active=False)
            user.set_password(password)
            user.save()
        if limit_exceeded(
            scope="mail",
            who=email,
            limit=settings.ACCOUNTS_MAILS_PER_ADDRESS_PER_HOUR,
            seconds=3600,
        ):
            return SignupResult(user=user, mail_sent=False)
        target = user or existing
        if target is not None and _unconfirmed(target):
            notify.signup_confirmation_send(
                email=target.email,
                username=target.get_username(),
                token=signup_token(user=target),
                language=language,
            )
        else:
            notify.signup_existing_send(email=email, language=language)
    return SignupResult(user=user, mail_sent=True)


def _unconfirmed(user: Any) -> bool:
    """Never activated: inactive and never logged in."""
    return not user.is_active and user.last_login is None


def account_confirm(*, token: str) -> Any:
    """The account the link opens, activated. Refused for a link that is altered, expired,
    used already, or for an address changed since."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.ACCOUNTS_CONFIRM_DAYS * 86400)
    except signing.SignatureExpired as exc:
        raise Refused(
            _("This link has expired. Sign up again with the same address for a new one.")
        ) from exc
    except signing.BadSignature as exc:
        raise Refused(_("This link is not valid. Copy the whole link from the e-mail.")) from exc
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data.get("u")).first()
        if user is None or user.email.lower() != data.get("e"):
            raise Refused(_("This link is not valid. Copy the whole link from the e-mail."))
        if not _unconfirmed(user):
            raise Refused(_("This address is confirmed already: log in."))
        user.is_active = True
        user.save(update_fields=["is_active"])
    return user
