"""Permissions on accounts, claims and correction requests (docs/CONTRIBUTING.md,
"Permissions"; docs/accounts.md)."""

from __future__ import annotations

from typing import Any

import rules

from accounts.models import ClaimRequest, CorrectionRequest
from core.rules import is_officer, is_player
from players.rules import has_player_record


@rules.predicate
def is_claim_owner(user: Any, claim: ClaimRequest | None) -> bool:
    return claim is not None and bool(user.is_authenticated) and claim.user_id == user.pk


@rules.predicate
def is_correction_owner(user: Any, correction: CorrectionRequest | None) -> bool:
    """He asked for it, or it is about the player linked to him."""
    if correction is None or not user.is_authenticated:
        return False
    return correction.requested_by_id == user.pk or correction.player.user_id == user.pk


# Open an account: a visitor who is not signed in (the page and POST /api/v1/accounts/signup/).
rules.add_perm("accounts.sign_up", ~rules.is_authenticated)
# Confirm an e-mail address: whoever holds the link (the signed token is the proof).
rules.add_perm("accounts.confirm_email", rules.always_allow)
# Claim a registry record (and see his claims): a signed-in user not linked to one yet.
rules.add_perm("accounts.claim_player", rules.is_authenticated & ~has_player_record)
# See a claim. Object: the ClaimRequest (the API's list shows what this lets the user see).
rules.add_perm("accounts.view_claim", is_officer | is_claim_owner)
# Approve or refuse claims. Object: the ClaimRequest, or none.
rules.add_perm("accounts.decide_claim", is_officer)
# Ask for a correction of his data (and see his requests): a player linked to his record.
rules.add_perm("accounts.request_correction", is_player & has_player_record)
# See a correction request. Object: the CorrectionRequest.
rules.add_perm("accounts.view_correction", is_officer | is_correction_owner)
# Accept or refuse correction requests. Object: the CorrectionRequest, or none.
rules.add_perm("accounts.decide_correction", is_officer)
