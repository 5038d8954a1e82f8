"""The officers' daily digest (Celery beat, NOTICES_DIGEST_HOUR): how much work waits on the
desk, counted by desk.selectors.desk_counts, to every officer who gets it. Nothing is sent on
a day when nothing waits; the key ("digest:<day>") sends it once a day whatever the beat does."""

from __future__ import annotations

import datetime as dt

from django.utils import formats, timezone

from core.rules import officer_users
from desk.selectors import desk_counts
from notices import texts
from notices.models import NoticeKind
from notices.services import Item, notices_send


def digest_send(*, today: dt.date | None = None) -> int:
    """Write today's digest for each officer who gets it; the number written."""
    today = today or timezone.localdate()
    counts = desk_counts()
    if not any(counts.values()):
        return 0

    def compose() -> texts.Message:
        # The day as the recipient's language writes it (called inside his override).
        return texts.digest(counts=counts, day=formats.date_format(today, "DATE_FORMAT"))

    officers = officer_users().order_by("pk").values_list("pk", flat=True)
    return notices_send(
        kind=NoticeKind.OFFICER_DIGEST,
        items=(
            Item(user_id=pk, key=f"digest:{today.isoformat()}", compose=compose) for pk in officers
        ),
    )
