"""Writes: notices (a row on the user's page, and an e-mail in the outbox when he gets them by
e-mail), many at once and set-based; a user's preferences; marking notices read; the one-click
unsubscribe.

Every notice goes through `notices_send`: the recipients and their choices are read in one
query per chunk, each notice is worded in its recipient's language, and each chunk is one
transaction with one INSERT of notices and one of outbox rows (core.mail.mail_enqueue_many:
sent by one task per chunk once it commits). A key ("list:12") makes a notice once per user:
a task run twice, or a signal sent at every revalidation, does not tell him twice."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from core.mail import MailDraft, mail_enqueue_many
from notices import selectors, texts
from notices.models import KIND_FIELDS, Notice, NoticeKind, NoticePreference
from notices.tokens import unsubscribe_headers, unsubscribe_url

log = logging.getLogger(__name__)

#: Notices written (and e-mails queued, and sent by one task) per transaction.
CHUNK = 500


@dataclass(frozen=True)
class Item:
    """One notice to write: to whom, its key (may be empty), and its words, composed in the
    recipient's language (`compose` is called inside translation.override)."""

    user_id: int
    key: str
    compose: Callable[[], texts.Message]


def notices_send(*, kind: str, items: Iterable[Item]) -> int:
    """Write the notices of `kind` for `items`, CHUNK at a time, each chunk in its own
    transaction; skipped: users who turned the kind off, inactive ones, and (user, key) pairs
    already told. The number written."""
    NoticeKind(kind)  # a kind that does not exist is a bug: refuse it here
    written = 0
    iterator = iter(items)
    while chunk := list(islice(iterator, CHUNK)):
        written += _chunk_send(kind=kind, chunk=chunk)
    return written


def _chunk_send(*, kind: str, chunk: Sequence[Item]) -> int:
    user_ids = {item.user_id for item in chunk}
    with transaction.atomic():
        recipients = selectors.recipients_for(user_ids=user_ids, kind=kind)
        told = selectors.keys_taken(
            user_ids=user_ids, keys={item.key for item in chunk if item.key}
        )
        notices: list[Notice] = []
        mails: list[MailDraft] = []
        for item in chunk:
            recipient = recipients.get(item.user_id)
            if recipient is None or (item.key and (item.user_id, item.key) in told):
                continue
            if item.key:
                told.add((item.user_id, item.key))
            with translation.override(recipient.language):
                message = item.compose()
                if recipient.by_email and recipient.email:
                    mails.append(_mail(recipient=recipient, kind=kind, message=message))
            notices.append(
                Notice(
                    user_id=item.user_id,
                    kind=kind,
                    subject=message.subject[:200],
                    text=message.text,
                    link=message.link,
                    key=item.key,
                )
            )
        Notice.objects.bulk_create(notices)
        mail_enqueue_many(mails=mails)
    return len(notices)


def _mail(*, recipient: selectors.Recipient, kind: str, message: texts.Message) -> MailDraft:
    url = unsubscribe_url(user_id=recipient.user_id, kind=kind)
    email = texts.email(message=message, kind=kind, unsubscribe=url)
    return MailDraft(
        kind=f"notice.{kind}",
        subject=message.subject,
        body=email.body,
        html=email.html,
        to=[recipient.email],
        headers=unsubscribe_headers(user_id=recipient.user_id, kind=kind),
    )


def notice_create(
    *, user: Any, kind: str, compose: Callable[[], texts.Message], key: str = ""
) -> Notice | None:
    """One notice of `kind` for `user` (and its e-mail if he gets them), in the current
    transaction, worded by `compose` in his language: for the apps that tell one user
    something (the live ratings, later). None when he turned the kind off or was told `key`
    already. A receiver in this app calls it: the apps below send a signal (docs/notices.md)."""
    try:
        with transaction.atomic():
            written = _chunk_send(
                kind=kind, chunk=[Item(user_id=user.pk, key=key, compose=compose)]
            )
    except IntegrityError:
        # The same key written by another transaction meanwhile: he was told once.
        log.info("notice %s for user %s already written", key, user.pk)
        return None
    if not written:
        return None
    return Notice.objects.filter(user=user, kind=kind).order_by("-id").first()


def preference_update(*, user: Any, **fields: Any) -> NoticePreference:
    """Change the user's preferences (the fields of NoticePreference; `systems`: the rating
    systems he follows), creating his row on the first change."""
    systems = fields.pop("systems", None)
    with transaction.atomic():
        preference, _created = NoticePreference.objects.get_or_create(user=user)
        for name, value in fields.items():
            setattr(preference, name, value)
        preference.full_clean(exclude=["user"])
        preference.save()
        if systems is not None:
            preference.systems.set(systems)
    return preference


def kind_stop(*, user_id: int, kind: str) -> bool:
    """The one-click unsubscribe: the user no longer gets notices of `kind`. Whether he
    existed."""
    if not get_user_model().objects.filter(pk=user_id).exists():
        return False
    with transaction.atomic():
        preference, _created = NoticePreference.objects.get_or_create(user_id=user_id)
        setattr(preference, KIND_FIELDS[NoticeKind(kind)], False)
        preference.save()
    return True


def notices_mark_read(*, user: Any, ids: Iterable[int] | None = None) -> int:
    """Mark the user's unread notices read (those of `ids`, or all). How many."""
    unread = Notice.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())
