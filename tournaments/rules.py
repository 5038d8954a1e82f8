"""Permissions on tournaments and their reports (docs/CONTRIBUTING.md, "Permissions").

Object: the Tournament, for every rule but the two without one (browse, register).
"""

from __future__ import annotations

from typing import Any

import rules

from core.rules import is_arbiter, is_officer
from tournaments.models import Tournament, TournamentStatus
from tournaments.part_selectors import tournament_awaits_part

#: Once rated, a tournament's report belongs to the published record: only an officer changes it
#: (and the period is then marked for recalculation, tournaments.services.report_upload).
RATED_STATUSES = (TournamentStatus.RATED, TournamentStatus.PUBLISHED)
#: A validated report is the record the rating reads: what changes it afterwards is an
#: officer's correction.
VALIDATED_STATUSES = (TournamentStatus.VALIDATED, *RATED_STATUSES)


@rules.predicate
def is_tournament_arbiter(user: Any, tournament: Tournament | None) -> bool:
    """The user registered this tournament (Tournament.arbiter): the arbiter who runs it."""
    return tournament is not None and user.is_authenticated and tournament.arbiter_id == user.pk


@rules.predicate
def is_tournament_rated(user: Any, tournament: Tournament | None) -> bool:
    return tournament is not None and tournament.status in RATED_STATUSES


# The public pages: the list and a tournament's page.
rules.add_perm("tournaments.browse_tournaments", rules.always_allow)
# Register a new tournament (no object).
rules.add_perm("tournaments.register_tournament", is_arbiter | is_officer)
# The tournament's management pages: the report, its problems, the players' matching.
rules.add_perm("tournaments.manage_tournament", is_officer | is_tournament_arbiter)


@rules.predicate
def is_tournament_awaiting_part(user: Any, tournament: Tournament | None) -> bool:
    """Rated in parts, its current part published, the tournament going on: its arbiter sends
    the next part's report (fide-2024 4.1, fide-2000 4.11)."""
    return tournament is not None and tournament_awaits_part(tournament=tournament)


# Send a report (file or crosstable form) or confirm the players' matching; after rating,
# officers only, but for the next part of a tournament rated in parts.
rules.add_perm(
    "tournaments.submit_report",
    is_officer | (is_tournament_arbiter & (~is_tournament_rated | is_tournament_awaiting_part)),
)


@rules.predicate
def is_tournament_validated(user: Any, tournament: Tournament | None) -> bool:
    return tournament is not None and tournament.status in VALIDATED_STATUSES


# Team substitutions and the norm winner (tournaments.services.substitutions): its arbiter
# while the report is not validated, officers always.
rules.add_perm(
    "tournaments.record_substitutions",
    is_officer | (is_tournament_arbiter & ~is_tournament_validated),
)
# Approve a late registration.
rules.add_perm("tournaments.approve_registration", is_officer)

# The export to FIDE (fide-2024 9.1): the TRF written from the stored, corrected data, for the
# officers and the tournament's arbiter; recording it as sent to FIDE, officers only.
rules.add_perm("tournaments.export_fide", is_officer | is_tournament_arbiter)
rules.add_perm("tournaments.record_fide_sent", is_officer)
# The officer's decisions on a tournament (tournaments.services.decisions): return for
# correction, reject, refuse to rate, override a check, authorise, exclude a game, exempt a
# withdrawal, and the decision on an appeal.
rules.add_perm("tournaments.decide_tournament", is_officer)
# The organiser's appeal against a refusal to rate (fide-2024 0.4), lodged by the tournament's
# arbiter on the organiser's behalf (or an officer).
rules.add_perm("tournaments.appeal_decision", is_officer | is_tournament_arbiter)
# The arbiters' and organisers' registry (tournaments.officials): public pages for everyone;
# arbiters register new records (pending), officers register approved ones and decide.
rules.add_perm("tournaments.browse_officials", rules.always_allow)
rules.add_perm("tournaments.register_official", is_arbiter | is_officer)
rules.add_perm("tournaments.decide_official", is_officer)
