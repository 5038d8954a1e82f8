"""Counters in the cache that stop a client from repeating an action too often (sign-ups from
one address, confirmation e-mails to one mailbox, claims that match nothing). Logins have
django-axes; these are for what axes does not see.

With the cache unreachable nothing is counted and the action is let through: the same choice as
the API's throttles. The cache fails open (django-redis with DJANGO_REDIS_IGNORE_EXCEPTIONS,
config/settings.py): `incr` and `get` answer None instead of raising, and None is "not
counted" here."""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache

log = logging.getLogger(__name__)


def _key(scope: str, who: str) -> str:
    # Hashed: an e-mail address is not kept in the cache in clear.
    digest = hashlib.sha256(who.strip().lower().encode()).hexdigest()[:32]
    return f"accounts:limit:{scope}:{digest}"


def limit_count(*, scope: str, who: str, seconds: int) -> int:
    """Count one more `scope` action by `who`; the count in the window of `seconds` (started by
    the first one), 0 when the cache cannot be reached."""
    key = _key(scope, who)
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, 1, timeout=seconds)
        return 1
    if count is None:  # the cache is unreachable (it answers None, see above)
        # One line per action, not per cache call: sign-ups and claims are rare, and an
        # operator should see that a limit was not applied.
        log.warning("accounts: the cache is unreachable, %s not counted", scope)
        return 0
    return int(count)


def limit_reached(*, scope: str, who: str, limit: int) -> bool:
    """Whether `who` has done `limit` or more `scope` actions in the current window (nothing
    counted, or the cache unreachable: False)."""
    return int(cache.get(_key(scope, who)) or 0) >= limit


def limit_exceeded(*, scope: str, who: str, limit: int, seconds: int) -> bool:
    """Count one more and say whether that makes more than `limit` in the window."""
    return limit_count(scope=scope, who=who, seconds=seconds) > limit
