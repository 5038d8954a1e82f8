"""Permissions on the registry (docs/CONTRIBUTING.md, "Permissions")."""

from __future__ import annotations

from typing import Any

import rules


@rules.predicate
def has_player_record(user: Any) -> bool:
    """The account is linked to a player of the registry (Player.user)."""
    return bool(user.is_authenticated) and getattr(user, "player", None) is not None


# The public pages: the player search and a player's card.
rules.add_perm("players.browse_players", rules.always_allow)
