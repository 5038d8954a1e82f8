"""Pages of the API: ``?limit=&offset=`` with a hard cap (a larger limit is read as the cap)."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

#: No page of any list is longer than this.
MAX_LIMIT = 200


class LimitOffset(LimitOffsetPagination):
    default_limit = 50
    max_limit = MAX_LIMIT
