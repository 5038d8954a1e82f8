"""API tokens for programs: created and revoked by their user on the tokens page
(core/views.py). Only a SHA-256 digest is stored; the key is shown once, when created."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import Refused

#: The key's visible start, kept to tell tokens apart on the page ("ro_" + 8 characters).
PREFIX_LENGTH = 11
#: A user may hold this many tokens at once.
MAX_TOKENS_PER_USER = 20


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=80)
    prefix = models.CharField(_("key starts with"), max_length=PREFIX_LENGTH)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user"], name="apitoken_user")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


def token_create(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns it with its key (shown once, never stored)."""
    if not name.strip():
        raise Refused(gettext("Give the token a name."))
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
        raise Refused(
            gettext("You have %(n)s tokens already: revoke one first.") % {"n": MAX_TOKENS_PER_USER}
        )
    key = "ro_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip()[:80], prefix=key[:PREFIX_LENGTH], digest=key_digest(key)
    )
    return token, key


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Delete one of the user's own tokens; False when he has none of that id."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0


def token_user(*, key: str) -> tuple[Any, ApiToken] | None:
    """The active user a key belongs to, and its token; None for an unknown key."""
    token = (
        ApiToken.objects.select_related("user").filter(digest=key_digest(key)).first()
        if key.startswith("ro_")
        else None
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        # At most one write a minute per token: a program's every request is not a write.
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


def tokens_of(*, user: Any) -> models.QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
