"""Who may change a tournament's report: the rule, and the refusal a rated tournament gives."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.models import Tournament
from tournaments.rules import RATED_STATUSES

LOCKED = RATED_STATUSES  # only an officer changes these tournaments' reports (submit_report)
NOT_ALLOWED = gettext_noop("The tournament is rated: only a rating officer can change its report")


class ReportLocked(PermissionDenied):
    pass


def report_change_authorize(*, tournament: Tournament, user: Any) -> None:
    """The rule tournaments.submit_report; a rated tournament's refusal says why."""
    if not user.has_perm("tournaments.submit_report", tournament):
        if tournament.status in LOCKED:
            raise ReportLocked(_(NOT_ALLOWED))
        raise PermissionDenied
