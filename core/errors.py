"""The exceptions a service raises when the office refuses a request or cannot serve it now."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext

#: Seconds a client is asked to wait (Retry-After) before trying again after a 503: a dropped
#: database connection is replaced on the next request, a restarted Redis answers in seconds.
RETRY_AFTER_SECONDS = 10


class Refused(Exception):
    """A request the office refuses (already running, wrong state, too late…). The message
    is a translated sentence for the user; views show it, the API answers it with 400/409."""


class Unavailable(Exception):
    """A part of the office the request needs (the database, the workers' broker) cannot be
    reached for now, and nothing of the request was kept. The message is a translated
    sentence; views and the API answer 503 with Retry-After (RETRY_AFTER_SECONDS), so a
    client may try again (docs/security.md, "Faults")."""


def unavailable(exc: BaseException | None) -> Unavailable | None:
    """`exc` as an Unavailable when it is a passing outage rather than a bug: an Unavailable,
    or a lost database connection (psycopg's OperationalError or InterfaceError, as Django
    raises them; the interrupted transaction was rolled back by PostgreSQL). None otherwise."""
    if isinstance(exc, Unavailable):
        return exc
    if isinstance(exc, OperationalError | InterfaceError):
        return Unavailable(
            gettext(
                "The office could not reach its database for a moment. Try again in a few seconds."
            )
        )
    return None
