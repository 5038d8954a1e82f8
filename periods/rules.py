"""Permissions on rating systems and periods (docs/CONTRIBUTING.md, "Permissions")."""

from __future__ import annotations

import rules

from core.rules import is_officer

# A period's pages and work: close, calculate (and follow the progress), review the draft.
# Object: the RatingPeriod.
rules.add_perm("periods.manage_period", is_officer)
# Open the next period of a rating system. Object: the RatingSystem.
rules.add_perm("periods.open_period", is_officer)
# Add an entry to a rating system's timeline of regulation sets (effective dates: fide-2024
# 0.1, fide-2000 0.1.1, cnxc-2000 8.1). Object: the RatingSystem.
rules.add_perm("periods.manage_rulesets", is_officer)
