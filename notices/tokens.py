"""The one-click unsubscribe links (RFC 8058): a signed token names the user and the kind of
notice he stops; whoever holds the link may stop that kind for that user, and nothing else.
No expiry: a link in an old e-mail must keep working."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

from notices.models import NoticeKind

SALT = "notices.unsubscribe"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: NoticeKind


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps([user_id, str(kind)], salt=SALT, compress=True)


def unsubscribe_read(*, token: str) -> Unsubscribe | None:
    """What the token asks, or None when it is not one of ours (or names no kind)."""
    try:
        user_id, kind = signing.loads(token, salt=SALT)
        return Unsubscribe(user_id=int(user_id), kind=NoticeKind(kind))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    """The absolute link, for the List-Unsubscribe header and the e-mail's text."""
    token = unsubscribe_token(user_id=user_id, kind=kind)
    return settings.SITE_URL + reverse("notices:unsubscribe", args=[token])


def unsubscribe_headers(*, user_id: int, kind: str) -> dict[str, str]:
    """RFC 8058's two headers: a mail program offers "unsubscribe" and POSTs to the link."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(user_id=user_id, kind=kind)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
