"""Permissions on published lists (docs/CONTRIBUTING.md, "Permissions"; protests and list
imports have theirs in protests/rules.py and lists/rules.py)."""

from __future__ import annotations

import rules

from core.rules import is_officer

# The public pages: home, rating systems, published lists, their downloads and differences.
rules.add_perm("ratings.browse_lists", rules.always_allow)
# Publish the calculated draft of a period, or re-rate it (which republishes it and every later
# one). Object: the RatingPeriod.
rules.add_perm("ratings.publish_list", is_officer)
# The published FIDE -> system differentials and how each was computed (fce 9.5): public.
rules.add_perm("ratings.view_differentials", rules.always_allow)
# Compute a system's differential from the lists in force, review it, publish it with its
# effective date (fce 9.5). Object: the RatingSystem or the Differential.
rules.add_perm("ratings.manage_differential", is_officer)
