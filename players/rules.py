"""Permissions on the registry (docs/CONTRIBUTING.md, "Permissions")."""

from __future__ import annotations

from typing import Any

import rules

from core.rules import is_officer


@rules.predicate
def has_player_record(user: Any) -> bool:
    """The account is linked to a player of the registry (Player.user)."""
    return bool(user.is_authenticated) and getattr(user, "player", None) is not None


# The public pages: the player search and a player's card.
rules.add_perm("players.browse_players", rules.always_allow)

# His own data (docs/privacy.md): the birth year's visibility, the download, the erasure
# request. Always his own record (request.user.player): no object to test.
rules.add_perm("players.manage_own_data", has_player_record)
# Deciding an erasure request (the admin's actions, players.services): officers.
rules.add_perm("players.decide_erasure", is_officer)
# The likely duplicates and merging two records of one player (desk.merges, docs/registry.md):
# officers.
rules.add_perm("players.merge_players", is_officer)
# The licence roll (seasons, licences, their CSV import; players.licences, docs/lists.md):
# officers.
rules.add_perm("players.manage_licences", is_officer)
# Withdrawing a licence typed by mistake (players.licences.licence_delete; the page asks to
# confirm, the API's DELETE): officers.
rules.add_perm("players.withdraw_licence", is_officer)
# Recording a player's death (fide-2024 10.2; players.licences.player_deceased_set): officers.
rules.add_perm("players.record_death", is_officer)
