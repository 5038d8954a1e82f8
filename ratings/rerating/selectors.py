"""Reads of re-rating chains: what their page and the API show while they run."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ratings.models import RerateChain


def rerate_chain_progress(*, chain: RerateChain) -> dict[str, Any]:
    """What the chain's page polls and the API answers: one progress bar over the whole chain,
    and the periods committed so far (in the reader's language)."""
    polled = chain.progress_polled()
    done, total = chain.periods_done, len(chain.periods)
    if not chain.done and chain.phase:
        polled["message"] = _("%(phase)s: period %(n)s of %(total)s") % {
            "phase": chain.phase_text,
            "n": min(done + 1, total),
            "total": total,
        }
    polled.update(
        periods_done=done,
        period_count=total,
        error=chain.error if chain.status in ("failed", "lost") else "",
    )
    return polled


def rerate_chain_latest(*, period_id: int) -> RerateChain | None:
    """The latest chain that re-rated this period."""
    return (
        RerateChain.objects.filter(periods__contains=[period_id]).order_by("-requested_at", "-id")
    ).first()
