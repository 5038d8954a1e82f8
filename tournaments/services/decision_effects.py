"""What the rating officer's decisions do to a tournament's validation (docs/arbiters.md, "The
officer's decisions"), applied by ``tournament_revalidate`` every time it runs:

- a report returned for correction (feda-1996 10.13, fide-2000 11.1 → B.01 7.13) blocks rating
  until a report sent after the return, within the deadline, replaces it; lapsed, the event
  counts as not reported (an error that stays);
- a rejected registration (fide-2024 0.2) and a refusal to rate (fide-2024 0.4, until an
  appeal is upheld) are errors on the report;
- an override (fce 2.2) turns the overridden check's errors into warnings marked with who
  overrode them, why and the article: the check stays visible;
- excluded games (fide-2024 5.1) and an exempted withdrawal (cnxc-2000 3.2) are marked left out
  of the calculation (``Game.left_out_code``) once the games are written.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.decision_selectors import DECISION_CODES, REFUSAL_STANDS, decision_list
from tournaments.models import DecisionKind, DecisionState, Report, Tournament

from .problems import problem_plain

__all__ = ["DECISION_CODES", "decision_problems", "games_decided_mark", "overrides_apply"]

RETURNED = gettext_noop(
    "Returned for correction by the rating officer on %(date)s: %(reason)s. The corrected "
    "report must arrive by %(deadline)s, or the event counts as not reported"
)
LAPSED = gettext_noop(
    "Not reported: the report returned for correction on %(date)s did not come back by %(deadline)s"
)
REJECTED = gettext_noop("The rating officer rejected the registration: %(reason)s")
REFUSED = gettext_noop("The rating officer refused to rate this tournament: %(reason)s")


def _problem(code: str, template: str, article: str, **params: object) -> dict[str, Any]:
    out = problem_plain(code, template, article=article, **params)
    out["article"] = article
    return out


def decision_problems(*, tournament: Tournament, report: Report) -> list[dict[str, Any]]:
    """The errors the tournament's decisions put on its current report. A return for
    correction answered by a report sent after it, by the deadline, is marked corrected."""
    out = []
    for d in decision_list(tournament=tournament).filter(
        kind__in=[
            DecisionKind.RETURN_FOR_CORRECTION,
            DecisionKind.REJECT_REGISTRATION,
            DecisionKind.REFUSE_RATING,
        ]
    ):
        when = timezone.localdate(d.decided_at)
        if d.kind == DecisionKind.RETURN_FOR_CORRECTION:
            if d.state == DecisionState.IN_FORCE:
                sent = timezone.localdate(report.uploaded_at)
                if report.uploaded_at > d.decided_at and (d.deadline is None or sent <= d.deadline):
                    d.state = DecisionState.CORRECTED
                    d.save(update_fields=["state"])
                    continue
                out.append(
                    _problem(
                        "returned_for_correction",
                        RETURNED,
                        d.article,
                        date=when,
                        reason=d.reason,
                        deadline=d.deadline,
                    )
                )
            elif d.state == DecisionState.LAPSED:
                out.append(
                    _problem("not_reported", LAPSED, d.article, date=when, deadline=d.deadline)
                )
        elif d.kind == DecisionKind.REJECT_REGISTRATION and d.state == DecisionState.IN_FORCE:
            out.append(_problem("registration_rejected", REJECTED, d.article, reason=d.reason))
        elif d.kind == DecisionKind.REFUSE_RATING and d.state in REFUSAL_STANDS:
            out.append(_problem("rating_refused", REFUSED, d.article, reason=d.reason))
    return out


def overrides_apply(*, tournament: Tournament, problems: list[dict[str, Any]]) -> None:
    """fce 2.2: each error of an overridden check becomes a warning that says who overrode it,
    when, why and by which article (in place)."""
    overrides = {
        d.check_code: d
        for d in decision_list(tournament=tournament).filter(
            kind=DecisionKind.OVERRIDE_CHECK, state=DecisionState.IN_FORCE
        )
    }
    if not overrides:
        return
    for p in problems:
        d = overrides.get(p.get("code", ""))
        if d is None or p.get("severity") != "error":
            continue
        p["severity"] = "warning"
        p["overridden"] = {
            "by": d.decided_by.get_username(),
            "at": d.decided_at.isoformat(),
            "reason": d.reason,
            "article": d.article,
        }


def games_decided_mark(*, tournament: Tournament) -> int:
    """Mark, set-based, the games the decisions leave out: an excluded game (fide-2024 5.1, by
    its round and players' start ranks) and the games a withdrawing player lost (cnxc-2000 3.2).
    Returns how many."""
    marked = 0
    decisions = decision_list(tournament=tournament).filter(
        kind__in=[DecisionKind.EXCLUDE_GAME, DecisionKind.EXEMPT_WITHDRAWAL],
        state=DecisionState.IN_FORCE,
    )
    with connection.cursor() as cursor:
        for d in decisions:
            if d.kind == DecisionKind.EXCLUDE_GAME:
                cursor.execute(
                    """
                    UPDATE tournaments_game g SET left_out_code = 'fair_play',
                           left_out_article = %s
                    FROM tournaments_tournamentplayer w, tournaments_tournamentplayer b
                    WHERE g.tournament_id = %s AND w.id = g.white_id AND b.id = g.black_id
                      AND w.start_rank = %s AND b.start_rank = %s
                      AND g.round IS NOT DISTINCT FROM %s
                    """,
                    [d.article, tournament.pk, d.white_rank, d.black_rank, d.game_round],
                )
            else:
                # The withdrawing player's played games he lost: neither side's rating moves.
                cursor.execute(
                    """
                    UPDATE tournaments_game g SET left_out_code = 'withdrawal',
                           left_out_article = %s
                    FROM tournaments_tournamentplayer w, tournaments_tournamentplayer b
                    WHERE g.tournament_id = %s AND g.kind = 'played' AND w.id = g.white_id
                      AND b.id = g.black_id
                      AND ((w.start_rank = %s AND g.white_score = 0)
                           OR (b.start_rank = %s AND g.black_score = 0))
                    """,
                    [d.article, tournament.pk, d.player_rank, d.player_rank],
                )
            marked += cursor.rowcount
    return marked
