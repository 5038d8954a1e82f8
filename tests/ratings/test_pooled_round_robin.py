"""An unrated player's results pooled from a round robin whose Ra rated the whole field keep his
games against the unrated players, at that Ra (fide-2000 10.1 / 10.21b as amended, RULESETS.md
"Decided readings"; ratings/calculation/engine_path.pooled_round_robins_add), so a later
period recomputes the performance this one gave him.

Worked by hand (fide-2000, seed 001): a single round robin of 7, four rated 2200 (R1-R4) and
three unrated (U, V, W). The rated players draw among themselves and beat U, V and W; U beats
V, V beats W, W beats U (each 1 point: none is discarded by 6.1, "cero o medio").
Each rated player: 1 1/2 + 3 = 4 1/2 of 6 = .75, dp 193 (table of 10.21). Rar = 2200,
dpa = 193, n = 6 opponents: Ra = 2200 - 193 x 6/7 = 2034.57 (10.21b), 2035 as a whole rating.
U: 0 of 4 against the rated players, 1 of 2 against V and W: 1 of 6 over the field, a
performance (10.1 amended), too few games for a first rating (9 needed): his pooled results
are 4 x (2200, 0), (2035, 1) and (2035, 0). Before the fix only the four against rated players
were stored, which a later period reads as 0 of 4, an indeterminate dp: no performance.
"""

from __future__ import annotations

import pytest

from core.jobs import JobStatus
from ratings.models import DraftResult, PlayerRating
from tests.factories import (
    calculate,
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import TournamentPlayer

pytestmark = pytest.mark.django_db


def test_round_robin_pools_the_games_against_unrated_players_at_ra(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    period = make_period(system)
    tournament = make_tournament(system, make_user(), status="validated", period=period, rounds=5)
    tournament.system = "round_robin"
    tournament.save(update_fields=["system"])
    players = [make_player(birth_year=1980) for _ in range(7)]
    for p in players[:4]:
        PlayerRating.objects.create(
            player=p, system=system, rating=2200, games=50, kind="effective"
        )
    lines = [
        TournamentPlayer.objects.create(tournament=tournament, player=p, start_rank=i, name=str(p))
        for i, p in enumerate(players, start=1)
    ]
    rated, (u, v, w) = lines[:4], lines[4:]
    rnd = 0
    for i in range(4):
        for j in range(i + 1, 4):
            rnd += 1
            make_game(tournament, rated[i], rated[j], "1/2-1/2", round=rnd)
        for k, x in enumerate((u, v, w)):
            make_game(tournament, rated[i], x, "1-0", round=10 + 3 * i + k)
    make_game(tournament, u, v, "1-0", round=30)
    make_game(tournament, v, w, "1-0", round=31)
    make_game(tournament, w, u, "1-0", round=32)
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    row = DraftResult.objects.get(run=run, player=players[4])
    assert (row.rating_after, row.status) == (None, "unrated")
    pooled = sorted((r["opponent_rating"], r["score"]) for r in row.prior_results)
    assert pooled == [(2035, 0.0), (2035, 1.0), (2200, 0.0), (2200, 0.0), (2200, 0.0), (2200, 0.0)]
    assert {r["tournament"] for r in row.prior_results} == {str(tournament.pk)}
