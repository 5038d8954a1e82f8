"""Writes for the arbiter's flow: registration, uploads, matching, validation.

Decisions (docs/arbiters.md):
- An upload whose bytes cannot be read, whose content does not match its declared format or
  whose parser finds an error is *rejected*: one Report row (status rejected, the problems) and
  nothing else.
- An accepted upload supersedes the previous accepted report of the same kind (the FEDA ASCII
  file of feda-1996 10.31 is a companion of the TRF/CSV report, not a replacement), and its
  lines are written in the same transaction, matched to the registry where the match is sure.
- "Validated" = the current report and the regulation checks have no error AND every line is
  matched to a registry player. Only then are the games written (set-based).
One module per step of the arbiter's flow; the public functions are importable from
``tournaments.services``.
"""

from .access import LOCKED, ReportLocked, report_change_authorize
from .crosstable_form import crosstable_form_cells, crosstable_form_to_csv
from .decisions import (
    corrections_lapse,
    decision_appeal,
    decision_appeal_decide,
    tournament_authorise_long_event,
    tournament_decide,
    tournament_exclude_game,
    tournament_exempt_withdrawal,
    tournament_override_check,
    tournament_refuse_rating,
    tournament_reject_registration,
    tournament_return_for_correction,
)
from .fide_sent import tournament_fide_sent_record
from .matching import MatchingRefused, players_confirm
from .period_moves import tournament_period_follow, tournament_rate_as_correction
from .problems import problem_plain, problem_to_dict
from .registration import tournament_approve_late, tournament_assign_period, tournament_register
from .substitutions import substitution_create, substitution_delete, tournament_winner_set
from .upload_jobs import (
    report_receive,
    report_upload_enqueue,
    report_upload_job_progress,
    report_upload_job_run,
    report_upload_jobs_watch,
)
from .uploads import rejected_bytes_drop, report_reject_oversize, report_upload
from .validation import (
    GAME_DELETE_EVENT,
    report_lines_write,
    tournament_facts,
    tournament_revalidate,
)

__all__ = [
    "GAME_DELETE_EVENT",
    "LOCKED",
    "MatchingRefused",
    "ReportLocked",
    "corrections_lapse",
    "crosstable_form_cells",
    "crosstable_form_to_csv",
    "decision_appeal",
    "decision_appeal_decide",
    "players_confirm",
    "problem_plain",
    "problem_to_dict",
    "rejected_bytes_drop",
    "report_change_authorize",
    "report_lines_write",
    "report_receive",
    "report_reject_oversize",
    "report_upload",
    "report_upload_enqueue",
    "report_upload_job_progress",
    "report_upload_job_run",
    "report_upload_jobs_watch",
    "substitution_create",
    "substitution_delete",
    "tournament_approve_late",
    "tournament_assign_period",
    "tournament_authorise_long_event",
    "tournament_decide",
    "tournament_exclude_game",
    "tournament_exempt_withdrawal",
    "tournament_facts",
    "tournament_fide_sent_record",
    "tournament_override_check",
    "tournament_period_follow",
    "tournament_rate_as_correction",
    "tournament_refuse_rating",
    "tournament_register",
    "tournament_reject_registration",
    "tournament_return_for_correction",
    "tournament_revalidate",
    "tournament_winner_set",
]
