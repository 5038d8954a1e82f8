"""His protests (those about him or sent from his account) in the download of his own data
(docs/privacy.md), registered with players.personal_data in ProtestsConfig.ready()."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from players.models import Player
from protests.models import Protest


def protests_rows(player: Player) -> list[dict[str, Any]]:
    mine = Q(player=player) | (Q(submitted_by=player.user) if player.user_id else Q(pk=None))
    protests = Protest.objects.filter(mine).select_related("published_list__system").order_by("id")
    return [
        {
            "list": f"{p.published_list.system.code} {p.published_list.list_date}",
            "submitted_at": p.submitted_at,
            "subject": p.subject,
            "text": p.text,
            "status": p.status,
            "information_request": p.information_request,
            "information_answer": p.information_answer,
            "decided_at": p.decided_at,
            "decision": p.decision,
            "appeal_decision": p.appeal_decision,
        }
        for p in protests
    ]
