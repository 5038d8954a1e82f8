"""Permissions on published lists, list imports and protests (docs/CONTRIBUTING.md,
"Permissions")."""

from __future__ import annotations

from typing import Any

import rules

from core.rules import is_officer, is_player
from players.rules import has_player_record
from ratings.models import Protest


@rules.predicate
def is_protest_owner(user: Any, protest: Protest | None) -> bool:
    """The user submitted this protest, or it is about the player linked to the user."""
    if protest is None or not user.is_authenticated:
        return False
    return protest.submitted_by_id == user.pk or protest.player.user_id == user.pk


# The public pages: home, rating systems, published lists, their downloads and differences.
rules.add_perm("ratings.browse_lists", rules.always_allow)
# Publish the calculated draft of a period, or re-rate it (which republishes it and every later
# one). Object: the RatingPeriod.
rules.add_perm("ratings.publish_list", is_officer)
# Import an existing rating list and follow the import jobs. Object: the ListImportJob, or none.
rules.add_perm("ratings.import_list", is_officer)
# Protest a published list: a player whose account is linked to the registry. Object: the
# PublishedList (the deadline is the service's business: a refusal with its reason).
rules.add_perm("ratings.submit_protest", is_player & has_player_record)
# See a protest and its decision. Object: the Protest. (Also the name of Django's model
# permission: asked about an object, only this rule answers; ModelBackend answers no object.)
rules.add_perm("ratings.view_protest", is_officer | is_protest_owner)
# Decide protests and see the pending ones. Object: the Protest, or none (the list).
rules.add_perm("ratings.decide_protest", is_officer)
# "My protests", the page of a user's own protests: players and officers (who may file one
# for a player, and find the officers' list from there).
rules.add_perm("ratings.follow_protests", is_player | is_officer)
# Answer the officer's request for information, appeal the decision: the player himself.
# Object: the Protest.
rules.add_perm("ratings.answer_protest", is_player & is_protest_owner)
