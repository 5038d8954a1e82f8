"""Reads: a user's notices and preferences, and who gets a notice of a kind (with his address
and language), many users at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from notices.models import KIND_FIELDS, Notice, NoticeKind, NoticePreference


@dataclass(frozen=True)
class Recipient:
    user_id: int
    email: str
    language: str
    by_email: bool


def preference_for(*, user: Any) -> NoticePreference:
    """The user's preferences: his row, or the defaults (unsaved) when he has none."""
    found = NoticePreference.objects.filter(user=user).first()
    return found or NoticePreference(user=user)


def notices_for_user(*, user: Any) -> QuerySet[Notice]:
    """His notices, newest first."""
    return Notice.objects.filter(user=user).order_by("-created_at", "-id")


def notices_unread_count(*, user: Any) -> int:
    return Notice.objects.filter(user=user, read_at__isnull=True).count()


def recipients_for(*, user_ids: Iterable[int], kind: str) -> dict[int, Recipient]:
    """The active users among `user_ids` who get notices of `kind` (those without preferences
    get every kind), by id, each with his address, his language (the site's when he chose
    none) and whether he gets e-mails. One query."""
    field = KIND_FIELDS[NoticeKind(kind)]
    rows = (
        get_user_model()
        .objects.filter(pk__in=list(user_ids), is_active=True)
        .exclude(**{f"notice_preference__{field}": False})
        .values_list("pk", "email", "notice_preference__language", "notice_preference__by_email")
    )
    return {
        pk: Recipient(
            user_id=pk,
            email=email or "",
            language=language or settings.LANGUAGE_CODE,
            by_email=by_email is not False,
        )
        for pk, email, language, by_email in rows
    }


def keys_taken(*, user_ids: Iterable[int], keys: Iterable[str]) -> set[tuple[int, str]]:
    """The (user, key) pairs among these that already have their notice."""
    return set(
        Notice.objects.filter(user_id__in=list(user_ids), key__in=set(keys)).values_list(
            "user_id", "key"
        )
    )
