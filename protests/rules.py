"""Permissions on protests (docs/CONTRIBUTING.md, "Permissions"). Named after the app, as
Django names the Protest model's own permissions (protests.view_protest…)."""

from __future__ import annotations

from typing import Any

import rules

from core.rules import is_officer, is_player
from players.rules import has_player_record
from protests.models import Protest


@rules.predicate
def is_protest_owner(user: Any, protest: Protest | None) -> bool:
    """The user submitted this protest, or it is about the player linked to the user."""
    if protest is None or not user.is_authenticated:
        return False
    return protest.submitted_by_id == user.pk or protest.player.user_id == user.pk


# Protest a published list: a player whose account is linked to the registry. Object: the
# PublishedList (the deadline is the service's business: a refusal with its reason).
rules.add_perm("protests.submit_protest", is_player & has_player_record)
# See a protest and its decision. Object: the Protest. (Also the name of Django's model
# permission: asked about an object, only this rule answers; ModelBackend answers no object.)
rules.add_perm("protests.view_protest", is_officer | is_protest_owner)
# Decide protests and see the pending ones. Object: the Protest, or none (the list).
rules.add_perm("protests.decide_protest", is_officer)
# "My protests", the page of a user's own protests: players and officers (who may file one
# for a player, and find the officers' list from there).
rules.add_perm("protests.follow_protests", is_player | is_officer)
# Answer the officer's request for information, appeal the decision: the player himself.
# Object: the Protest.
rules.add_perm("protests.answer_protest", is_player & is_protest_owner)
