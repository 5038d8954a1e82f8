"""Team substitutions (cnxc-2000 7.2) and the norm winner (7.1) recorded per tournament: the
services and their rule, the engine's input built from them, the pages and the API.

Expected ratings are worked by hand from the seed's Tabela II (D 0 -> .50, D 100 -> .64,
D -100 -> .36, D 400 -> .92) and the K table of 6.4 (2000-2200 or 2201-2400 with 51-100 games:
K 20), never by running the code."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from core.errors import Refused
from core.jobs import JobStatus
from core.roles import ARBITER, RATING_OFFICER
from periods.models import RatingPeriod
from rating_engine.errors import EngineInputError
from ratings.models import CalculationRun, DraftResult, PlayerRating
from tests.factories import (
    calculate,
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tests.tournaments.team_trf import team_trf
from tournaments import services
from tournaments.models import Substitution, TournamentPlayer
from tournaments.substitution_selectors import competition_records

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 10)


def team_world(ratings: dict[str, int], *, norm: bool = False, status: str = "validated"):
    """A cnxc-2000 system, its first half of 2026, a team competition with one line per
    player (start ranks in the order given), every player effective with 60 games."""
    system = make_system(ruleset="cnxc-2000", cycle="semestral")
    period = make_period(system, dt.date(2026, 1, 1), end=dt.date(2026, 6, 30))
    arbiter = make_user(role=ARBITER)
    tournament = make_tournament(
        system,
        arbiter,
        start_date=dt.date(2026, 1, 10),
        end_date=dt.date(2026, 5, 31),
        status=status,
        period=period,
        norm_event=norm,
    )
    tournament.system = "team"
    tournament.save(update_fields=["system"])
    lines = {}
    for rank, (name, rating) in enumerate(ratings.items(), start=1):
        player = make_player(surname=name)
        PlayerRating.objects.create(
            player=player, system=system, rating=rating, games=60, kind="effective"
        )
        lines[name] = TournamentPlayer.objects.create(
            tournament=tournament, player=player, start_rank=rank, name=name
        )
    return period, tournament, arbiter, lines


@pytest.fixture(autouse=True)
def _runs_on_commit(django_capture_on_commit_callbacks):
    """A calculation runs when its request commits (eagerly, in-process)."""
    global _capture
    _capture = django_capture_on_commit_callbacks


_capture = None


def run_calculation(period: RatingPeriod):
    assert _capture is not None
    with _capture(execute=True):
        return calculate(period)


def results(period: RatingPeriod) -> dict[str, DraftResult]:
    run = run_calculation(period)
    run.refresh_from_db()
    assert run.status == JobStatus.SUCCEEDED, run.error
    return {
        r.player.surname: r for r in DraftResult.objects.filter(run=run).select_related("player")
    }


def codes(result: DraftResult) -> dict[str, str]:
    return {n["code"]: n["article"] for n in result.notes if n["code"].startswith("substitution")}


# ---------------------------------------------------------------- 7.2 through the calculation


def test_a_recorded_substitution_reaches_the_engine() -> None:
    # Round 1: A (2000, white) hands his game over to S (2100), both move; B (2000) wins.
    # d: A effective, W - We = 0 - .50 < 0 -> charged: 20 x -.50 = -10 -> 1990.
    # f: S effective, 0 - .64 < 0 -> not charged -> 2100.
    # h: B faced the highest rated of A and S (2100): D -100 -> .36: 20 x .64 = +12.8 -> 2013.
    period, tournament, arbiter, lines = team_world({"A": 2000, "B": 2000, "S": 2100})
    make_game(tournament, lines["A"], lines["B"], "0-1")
    officer = make_user(role=RATING_OFFICER)
    services.substitution_create(
        tournament=tournament,
        user=officer,
        round=1,
        side="white",
        replaced_rank=1,
        substitute_rank=3,
        date=DAY,
        board=2,
    )
    got = results(period)
    assert [got[k].rating_after for k in ("A", "S", "B")] == [1990, 2100, 2013]
    assert codes(got["A"]) == {"substitution_charged": "cnxc-2000 7.2 d"}
    assert codes(got["S"]) == {"substitution_not_charged": "cnxc-2000 7.2 f"}
    assert codes(got["B"]) == {"substitution_opponent": "cnxc-2000 7.2 h"}


def test_a_substitute_replaced_in_turn_is_an_original() -> None:
    # Round 1: A (2000) -> S (2100) -> C (2200), white loses to B (2000).
    # A (d): 0 - .50 < 0 -> -10 -> 1990. S (c, d): 0 - .64 < 0 -> 20 x -.64 = -12.8 -> 2087.
    # C (f): 0 - .76 (D 200) < 0 -> not charged -> 2200.
    # B (h) faced 2200: D -200 -> .24: 20 x .76 = +15.2 -> 2015.
    period, tournament, arbiter, lines = team_world({"A": 2000, "B": 2000, "S": 2100, "C": 2200})
    make_game(tournament, lines["A"], lines["B"], "0-1")
    officer = make_user(role=RATING_OFFICER)
    for replaced, substitute, day in ((1, 3, DAY), (3, 4, DAY + dt.timedelta(days=5))):
        services.substitution_create(
            tournament=tournament,
            user=officer,
            round=1,
            side="white",
            replaced_rank=replaced,
            substitute_rank=substitute,
            date=day,
        )
    got = results(period)
    assert [got[k].rating_after for k in ("A", "S", "C", "B")] == [1990, 2087, 2200, 2015]
    assert codes(got["S"]) == {"substitution_charged": "cnxc-2000 7.2 c, d"}


def test_an_original_without_a_move_is_replaced() -> None:
    # a: A made no move, S is the original: S (2100) beats B (2000): D 100 -> .64:
    # 20 x .36 = +7.2 -> 2107; B faced S: -7.2 -> 1993; A untouched, told 7.2 a.
    period, tournament, arbiter, lines = team_world({"A": 2000, "B": 2000, "S": 2100})
    make_game(tournament, lines["A"], lines["B"], "1-0")
    services.substitution_create(
        tournament=tournament,
        user=make_user(role=RATING_OFFICER),
        round=1,
        side="white",
        replaced_rank=1,
        replaced_moved=False,
        substitute_rank=3,
        date=DAY,
    )
    got = results(period)
    assert [got[k].rating_after for k in ("A", "S", "B")] == [2000, 2107, 1993]
    assert codes(got["A"]) == {"substitution_no_move_original": "cnxc-2000 7.2 a"}


# ---------------------------------------------------------------- 7.1 the named winner


def test_the_named_winner_keeps_only_a_positive_change() -> None:
    # W and A (2400, K 20) both score 2 of 3 against O1, O2 (2000) and each other: a tie.
    # Each: We = .92 + .92 + .50 = 2.34, V = 20 x (2 - 2.34) = -6.8.
    # W named winner after tie-breaks (7.1): V < 0 not applied -> 2400; A -> 2393.2 -> 2393.
    period, tournament, arbiter, lines = team_world(
        {"W": 2400, "A": 2400, "O1": 2000, "O2": 2000}, norm=True
    )
    make_game(tournament, lines["W"], lines["O1"], "1-0")
    make_game(tournament, lines["W"], lines["O2"], "1/2-1/2", round=2)
    make_game(tournament, lines["W"], lines["A"], "1/2-1/2", round=3)
    make_game(tournament, lines["A"], lines["O2"], "1-0")
    make_game(tournament, lines["A"], lines["O1"], "1/2-1/2", round=2)
    # Not named: a tie for first stops the calculation, naming 7.1.
    with pytest.raises(EngineInputError, match=r"tournaments\[0\]\.winner: .* \(7\.1\)"):
        run_calculation(period)
    failed = CalculationRun.objects.get(period=period)
    assert failed.status == JobStatus.FAILED
    services.tournament_winner_set(
        tournament=tournament, user=make_user(role=RATING_OFFICER), rank=1
    )
    tournament.refresh_from_db()
    assert tournament.norm_winner_rank == 1
    got = results(period)
    assert (got["W"].rating_after, got["A"].rating_after) == (2400, 2393)
    assert any(n["article"] == "cnxc-2000 7.1" for n in got["W"].notes)


# ---------------------------------------------------------------- who may record, what is refused


def test_the_arbiter_records_until_validated_then_officers() -> None:
    period, tournament, arbiter, lines = team_world(
        {"A": 2000, "B": 2000, "S": 2100}, status="report_received"
    )
    make_game(tournament, lines["A"], lines["B"], "0-1")
    kwargs: dict[str, Any] = {
        "round": 1,
        "side": "white",
        "replaced_rank": 1,
        "substitute_rank": 3,
        "date": DAY,
    }
    sub = services.substitution_create(tournament=tournament, user=arbiter, **kwargs)
    assert sub.recorded_by == arbiter
    tournament.status = "validated"
    tournament.save(update_fields=["status"])
    with pytest.raises(PermissionDenied):
        services.substitution_delete(substitution=sub, user=arbiter)
    with pytest.raises(PermissionDenied):
        services.tournament_winner_set(tournament=tournament, user=arbiter, rank=None)
    # A rated tournament changed by an officer: its period is calculated again.
    tournament.status = "rated"
    tournament.save(update_fields=["status"])
    period.status = "calculated"
    period.save(update_fields=["status"])
    services.substitution_delete(substitution=sub, user=make_user(role=RATING_OFFICER))
    assert not Substitution.objects.exists()
    period.refresh_from_db()
    assert period.needs_recalculation


def test_refusals() -> None:
    period, tournament, arbiter, lines = team_world({"A": 2000, "B": 2000, "S": 2100})
    make_game(tournament, lines["A"], lines["B"], "0-1")
    officer = make_user(role=RATING_OFFICER)

    def create(**kw: Any) -> Substitution:
        args: dict[str, Any] = {
            "round": 1,
            "side": "white",
            "replaced_rank": 1,
            "substitute_rank": 3,
            "date": DAY,
        }
        return services.substitution_create(tournament=tournament, user=officer, **{**args, **kw})

    with pytest.raises(Refused):
        create(side="black")  # A is white in round 1
    with pytest.raises(Refused):
        create(round=2)  # no game in round 2
    with pytest.raises(Refused):
        create(substitute_rank=9)  # no such line
    create()
    with pytest.raises(Refused):
        create(substitute_rank=2)  # A's game is already handed over
    with pytest.raises(Refused):
        services.tournament_winner_set(tournament=tournament, user=officer, rank=1)  # not norms
    # A regulation without substitutions or norm winner refuses both.
    other = make_tournament(make_system(), arbiter)
    with pytest.raises(Refused):
        services.substitution_create(
            tournament=other,
            user=officer,
            round=1,
            side="white",
            replaced_rank=1,
            substitute_rank=2,
            date=DAY,
        )


# ---------------------------------------------------------------- the pages and the API


def test_the_management_page_records_and_shows(client) -> None:
    period, tournament, arbiter, lines = team_world(
        {"A": 2000, "B": 2000, "S": 2100}, status="report_received", norm=True
    )
    make_game(tournament, lines["A"], lines["B"], "0-1")
    client.force_login(arbiter)
    page = client.get(f"/tournaments/{tournament.pk}/manage/")
    assert b'id="substitution-form"' in page.content and b"cnxc-2000 7.2" in page.content
    answer = client.post(
        f"/tournaments/{tournament.pk}/substitutions/",
        {
            "round": "1",
            "board": "3",
            "side": "white",
            "replaced_rank": "1",
            "replaced_moved": "on",
            "substitute_rank": "3",
            "substitute_moved": "on",
            "date": "2026-03-10",
        },
    )
    assert answer.status_code == 302
    sub = Substitution.objects.get()
    assert (sub.round, sub.board, sub.replaced_rank, sub.substitute_rank) == (1, 3, 1, 3)
    client.post(f"/tournaments/{tournament.pk}/winner/", {"rank": "2"})
    tournament.refresh_from_db()
    assert tournament.norm_winner_rank == 2
    public = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "3. S" in public and "2. B" in public and 'id="substitution-form"' not in public
    client.post(f"/tournaments/{tournament.pk}/substitutions/{sub.pk}/delete/")
    assert not Substitution.objects.exists()


def test_the_api_lists_records_and_deletes() -> None:
    period, tournament, arbiter, lines = team_world(
        {"A": 2000, "B": 2000, "S": 2100}, status="report_received", norm=True
    )
    make_game(tournament, lines["A"], lines["B"], "0-1")
    api = APIClient()
    api.force_authenticate(arbiter)
    url = f"/api/v1/tournaments/{tournament.pk}/substitutions/"
    body = {"round": 1, "side": "white", "replaced_rank": 1, "substitute_rank": 3}
    created = api.post(url, {**body, "date": "2026-03-10"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["replaced_moved"] is True
    refused = api.post(url, {**body, "substitute_rank": 2, "date": "2026-03-11"}, format="json")
    assert refused.status_code == 409
    listed = APIClient().get(url).json()
    assert [(s["round"], s["replaced_rank"], s["substitute_rank"]) for s in listed] == [(1, 1, 3)]
    winner = api.put(
        f"/api/v1/tournaments/{tournament.pk}/winner/", {"norm_winner_rank": 2}, format="json"
    )
    assert winner.status_code == 200 and winner.json() == {"norm_winner_rank": 2}
    assert api.get(f"/api/v1/tournaments/{tournament.pk}/").json()["norm_winner_rank"] == 2
    gone = api.delete(f"{url}{created.json()['id']}/")
    assert gone.status_code == 204
    assert not Substitution.objects.exists()


def test_the_arbiter_records_against_the_report_before_its_games_are_written() -> None:
    # A report with a player not yet matched (Novo) stays "report received" and its games are
    # written only at validation: the arbiter's substitution is checked against the report's
    # games. Round 2: Carvalho (3, white) - Alves (1, black).
    system = make_system(ruleset="cnxc-2000", cycle="semestral", rate_of_play="correspondence")
    arbiter = make_user(role=ARBITER)
    tournament = make_tournament(system, arbiter, rounds=3)
    tournament.system = "team"
    tournament.save(update_fields=["system"])
    for surname, fide_id in (("Alves", 2300001), ("Bento", 2300002), ("Carvalho", 2300003)):
        make_player(surname=surname, given_name="X", fide_id=fide_id)
    make_player(surname="Sousa", given_name="X", fide_id=2300005)
    services.report_upload(tournament=tournament, user=arbiter, data=team_trf(), filename="t.trf")
    tournament.refresh_from_db()
    assert tournament.status == "report_received" and not tournament.games.exists()
    kwargs: dict[str, Any] = {"round": 2, "replaced_rank": 1, "substitute_rank": 5, "date": DAY}
    with pytest.raises(Refused, match="holds no game"):
        services.substitution_create(tournament=tournament, user=arbiter, side="white", **kwargs)
    services.substitution_create(tournament=tournament, user=arbiter, side="black", **kwargs)
    (row,) = competition_records(tournament=tournament).rows
    assert row.has_game and row.substitution.recorded_by == arbiter
