"""Permissions on notices (docs/CONTRIBUTING.md, "Permissions"): each user his own."""

from __future__ import annotations

from typing import Any

import rules

from notices.models import Notice


@rules.predicate
def is_notice_owner(user: Any, notice: Notice | None) -> bool:
    if notice is None or not user.is_authenticated:
        return False
    return bool(notice.user_id == user.pk)


# "My notices" and the notice preferences: any signed-in user, his own (the selectors filter
# by user).
rules.add_perm("notices.follow_notices", rules.is_authenticated)
# Read one notice, mark it read. Object: the Notice.
rules.add_perm("notices.read_notice", is_notice_owner)
# The one-click unsubscribe page: anyone who holds the signed link (notices/tokens.py).
rules.add_perm("notices.unsubscribe", rules.always_allow)
