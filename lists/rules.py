"""Permissions on list imports (docs/CONTRIBUTING.md, "Permissions")."""

from __future__ import annotations

import rules

from core.rules import is_officer

# Import an existing rating list and follow the import jobs. Object: the ListImportJob, or none.
rules.add_perm("lists.import_list", is_officer)
