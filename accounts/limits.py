"""Counters in the cache that stop a client from repeating an action too often (sign-ups from
one address, confirmation e-mails to one mailbox, claims that match nothing). Logins have
django-axes; these are for what axes does not see."""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache

from core.redis_cache import UNREACHABLE

log = logging.getLogger(__name__)


def limit_exceeded(*, scope: str, who: str, limit: int, seconds: int) -> bool:
    """Count one more `scope` action by `who` and say whether that makes more than `limit` in
    the window of `seconds` (started by the first one). `who` is hashed: an e-mail address
    is not kept in the cache in clear. With the cache unreachable nothing is counted and the
    action is let through (the same choice as the API's throttles: fail open)."""
    digest = hashlib.sha256(who.strip().lower().encode()).hexdigest()[:32]
    key = f"accounts:limit:{scope}:{digest}"
    try:
        cache.add(key, 0, timeout=seconds)
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, 1, timeout=seconds)
        count = 1
    except UNREACHABLE:
        log.warning("accounts: the cache is unreachable, %s not counted", scope)
        return False
    return count > limit
