"""The one exception a service raises when the office refuses a request."""

from __future__ import annotations


class Refused(Exception):
    """A request the office refuses (already running, wrong state, too late…). The message
    is a translated sentence for the user; views show it, the API answers it with 400/409."""
