"""The "sent to FIDE" state of a rated tournament (fide-2024 9.1: the federation's rating
officer uploads each rated tournament's TRF to the FIDE Rating Server), recorded by the
officer with the date; the tournament's history keeps who set it and when."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from core.history import history_context
from tournaments.models import Tournament
from tournaments.rules import RATED_STATUSES


def tournament_fide_sent_record(
    *, tournament: Tournament, user: Any, sent_on: dt.date | None = None
) -> Tournament:
    """Record that the officer sent the tournament's TRF to FIDE on ``sent_on`` (today by
    default); recording it again replaces the date (the history keeps both)."""
    if not user.has_perm("tournaments.record_fide_sent", tournament):
        raise PermissionDenied(_("Only a rating officer records what was sent to FIDE."))
    if tournament.status not in RATED_STATUSES:
        raise Refused(_("Only a rated tournament is sent to FIDE."))
    sent_on = sent_on or timezone.localdate()
    if sent_on > timezone.localdate():
        raise Refused(_("The date it was sent cannot be in the future."))
    with transaction.atomic(), history_context(user=user.pk, reason="fide-2024 9.1"):
        Tournament.objects.filter(pk=tournament.pk).update(fide_sent_on=sent_on, fide_sent_by=user)
    tournament.refresh_from_db()
    return tournament
