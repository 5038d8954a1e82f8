"""Live ratings (ratings.live): computed when a report is validated, equal to what the period's
calculation gives once it runs (PostgreSQL, eager Celery)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from core import roles
from notices.models import Notice, NoticeKind
from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from players.models import Player
from ratings.calculation.selectors import draft_player
from ratings.live import services as live
from ratings.models import CalculationRun, DraftResult, LiveRating, PlayerRating
from ratings.office.services import game_correct
from tests.factories import (
    calculate,
    make_game,
    make_period,
    make_player,
    make_player_user,
    make_system,
    make_tournament,
    make_user,
)
from tests.tournaments.test_flow import sample_trf
from tournaments import services as tournament_services
from tournaments.models import Tournament, TournamentPlayer

pytestmark = pytest.mark.django_db

RESULTS = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"]


def random_period(
    rng: random.Random, system: RatingSystem, period: RatingPeriod, pool: list[Player]
) -> list[Tournament]:
    """Validated tournaments of `period` over `pool` (players shared between tournaments):
    Swiss and round robins, a forfeit now and then."""
    arbiter = make_user()
    out = []
    for n in range(7):
        entrants = rng.sample(pool, rng.randint(4, 9))
        system_kind = rng.choice(["swiss", "swiss", "round_robin"])
        end = period.start + dt.timedelta(days=rng.randint(3, 25))
        t = make_tournament(
            system,
            arbiter,
            name=f"T{n}",
            status="validated",
            period=period,
            start_date=end - dt.timedelta(days=2),
            end_date=end,
            validated_at=timezone.now(),
        )
        Tournament.objects.filter(pk=t.pk).update(system=system_kind)
        t.refresh_from_db()
        tps = [
            TournamentPlayer.objects.create(tournament=t, player=p, start_rank=i + 1, name=str(p))
            for i, p in enumerate(entrants)
        ]
        pairs = (
            [(a, b) for i, a in enumerate(tps) for b in tps[i + 1 :]]
            if system_kind == "round_robin"
            else [(w, b) for w, b in (rng.sample(tps, 2) for _ in range(len(tps) * 2))]
        )
        for r, (w, b) in enumerate(pairs, start=1):
            forfeit = rng.random() < 0.05
            make_game(
                t,
                w,
                b,
                rng.choice(["+-", "-+"]) if forfeit else rng.choice(RESULTS),
                round=r,
                kind="forfeit" if forfeit else "played",
            )
        out.append(t)
    return out


def rated_pool(rng: random.Random, system: RatingSystem, n: int, unrated: int) -> list[Player]:
    pool = [make_player(birth_year=rng.randint(1950, 2012)) for _ in range(n)]
    for p in pool[unrated:]:
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=rng.randint(1400, 2500),
            games=rng.choice([0, 5, 12, 30, 80]),
            kind="effective",
        )
    return pool


def assert_live_equals_draft(capture, period: RatingPeriod, player_ids: set[int]) -> int:
    """Every live rating of `player_ids` equals the period's draft; returns how many."""
    lives = {lr.player_id: lr for lr in LiveRating.objects.filter(period=period)}
    assert player_ids <= set(lives)
    with capture(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    draft = {d.player_id: d for d in DraftResult.objects.filter(run=run)}
    for pid in player_ids:
        lr, d = lives[pid], draft[pid]
        got = (lr.rating_before, lr.rating_after, lr.change, lr.games, lr.k, lr.status)
        want = (d.rating_before, d.rating_after, d.change, d.games, d.k, d.status)
        assert got == want, pid
        assert lr.score == pytest.approx(d.score) and lr.expected == pytest.approx(d.expected)
        lines = sorted(
            (g["tournament"], g["opponent"], g["score2"], g["k"], round(g["change"], 4))
            for g in lr.lines
        )
        drafted = sorted(
            (
                g.tournament_id,
                g.opponent.pk if g.opponent else int(g.opponent_key[2:]) * -1,
                int(g.score * 2),
                g.k,
                g.change,
            )
            for g in draft_player(run=run, player_id=pid)["lines"]
        )
        assert lines == drafted, pid
    return len(player_ids)


@pytest.mark.parametrize("ruleset", ["fide-2024", "feda-1996", "fide-2000", "fce", "cnxc-2000"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_live_ratings_equal_the_periods_calculation(
    ruleset: str, seed: int, django_capture_on_commit_callbacks
) -> None:
    """The live ratings of every tournament's players, computed one tournament at a time,
    equal the draft of the period's real calculation for each of them."""
    rng = random.Random(seed)
    system = make_system(ruleset=ruleset)
    period = make_period(system)
    # A third unrated: several of them play in several tournaments and get a first rating.
    pool = rated_pool(rng, system, 24, unrated=8)
    tournaments = random_period(rng, system, period, pool) + random_period(
        rng, system, period, pool
    )
    for t in tournaments:
        live.live_ratings_update(tournament_id=t.pk)
    players = set(
        TournamentPlayer.objects.filter(tournament__in=tournaments).values_list(
            "player_id", flat=True
        )
    )
    assert LiveRating.objects.filter(period=period).count() == len(players)
    assert assert_live_equals_draft(django_capture_on_commit_callbacks, period, players) == len(
        players
    )


@pytest.fixture
def uploaded(request):
    """A rated period of random tournaments whose players include those of the sample report,
    and the sample report's tournament registered in the period, not yet reported."""
    ruleset = request.param
    rng = random.Random(7)
    system = make_system(ruleset=ruleset, rate_of_play="standard")
    arbiter = make_user(role=roles.ARBITER)
    start = timezone.localdate() - dt.timedelta(days=4)
    period = make_period(system, start=start.replace(day=1))
    tournament = make_tournament(
        system, arbiter, start_date=start, end_date=start + dt.timedelta(days=2), period=period
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        system="round_robin", registered_at=timezone.now() - dt.timedelta(days=24)
    )
    jose = make_player(surname="Muñoz Pérez", given_name="José", fide_id=2200001)
    ana = make_player(surname="García López", given_name="Ana", sex="F", birth_year=1990)
    marc = make_player(surname="Vidal", given_name="Marc", fide_id=2200004)
    # The report's third line, found by name and birth year; unrated in fide-2024 (his first
    # rating counts his games of the other tournaments too), rated in feda-1996 (7.31 asks a
    # share of rated players in a round robin).
    nuevo = make_player(surname="Nuevo Jugador", given_name="Pedro", birth_year=2001)
    rated = [(jose, 2250), (ana, 1950), (marc, 2100)]
    if ruleset != "fide-2024":
        rated.append((nuevo, 1800))
    for p, rating in rated:
        PlayerRating.objects.create(
            player=p, system=system, rating=rating, games=40, kind="effective"
        )
    pool = rated_pool(rng, system, 16, unrated=3) + [jose, ana, marc, nuevo]
    others = random_period(rng, system, period, pool)
    for t in others:
        live.live_ratings_update(tournament_id=t.pk)
    return {"tournament": tournament, "arbiter": arbiter, "period": period, "ana": ana}


def validate(django_capture_on_commit_callbacks, tournament, arbiter, data: bytes) -> None:
    """Upload the report and confirm the matching as the arbiter: the live task runs when
    the validation commits (eager)."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.report_upload(
            tournament=tournament, user=arbiter, data=data, filename="r.trf"
        )
    tournament.refresh_from_db()
    if tournament.status != "validated":
        with django_capture_on_commit_callbacks(execute=True):
            tournament_services.players_confirm(tournament=tournament, user=arbiter, picks={})
        tournament.refresh_from_db()
    assert tournament.status == "validated", tournament.reports.last().problems


def report_rated_third() -> bytes:
    """The sample report with its third player rated 1800 (feda-1996 7.31: a round robin of
    fewer than 10 players needs 4 rated)."""
    name = f"{'Nuevo Jugador, Pedro':<33}"
    data = sample_trf()
    assert data.count(f"{name}      ESP".encode()) == 1
    return data.replace(f"{name}      ESP".encode(), f"{name} 1800 ESP".encode())


@pytest.mark.parametrize("uploaded", ["fide-2024", "feda-1996"], indirect=True)
def test_validation_computes_live_ratings_equal_to_the_calculation(
    uploaded, django_capture_on_commit_callbacks
) -> None:
    t, period = uploaded["tournament"], uploaded["period"]
    data = sample_trf() if period.system.ruleset == "fide-2024" else report_rated_third()
    validate(django_capture_on_commit_callbacks, t, uploaded["arbiter"], data)
    ids = set(TournamentPlayer.objects.filter(tournament=t).values_list("player_id", flat=True))
    lives = LiveRating.objects.filter(period=period, player_id__in=ids)
    assert len(ids) == 4 and lives.count() == 4
    assert all(t.pk in lr.tournaments for lr in lives)
    assert assert_live_equals_draft(django_capture_on_commit_callbacks, period, ids) == 4


@pytest.mark.parametrize("uploaded", ["fide-2024"], indirect=True)
def test_a_corrected_report_updates_the_live_ratings(
    uploaded, django_capture_on_commit_callbacks
) -> None:
    t, period, ana = uploaded["tournament"], uploaded["period"], uploaded["ana"]
    user = make_player_user(ana, "ana-live")  # told of each new figure (notices)
    validate(django_capture_on_commit_callbacks, t, uploaded["arbiter"], sample_trf())
    before = LiveRating.objects.get(period=period, player=ana)
    told = Notice.objects.filter(user=user, kind=NoticeKind.LIVE_RATING)
    assert list(told.values_list("subject", flat=True)) == [
        f"Your live rating in {period.system}: {before.rating_after} ({before.change:+d})"
    ]
    validate(django_capture_on_commit_callbacks, t, uploaded["arbiter"], sample_trf())
    assert told.count() == 1  # the same figure again: not told twice
    # The corrected report: Ana (rank 2) lost her last game to Vidal (rank 4) instead.
    lines = sample_trf().decode().splitlines()
    for i, line in enumerate(lines):
        if "Garcia Lopez" in line:
            lines[i] = line.replace(" 2.0 ", " 1.0 ").replace("4 w 1", "4 w 0")
        if "Vidal" in line:
            lines[i] = line.replace(" 0.0 ", " 1.0 ").replace("2 b 0", "2 b 1")
    corrected = ("\n".join(lines) + "\n").encode()
    assert corrected != sample_trf()
    validate(django_capture_on_commit_callbacks, t, uploaded["arbiter"], corrected)
    after = LiveRating.objects.get(period=period, player=ana)
    assert told.count() == 2 and f"({after.change:+d})" in told.order_by("-id")[0].subject
    assert after.computed_at > before.computed_at
    assert after.score == before.score - 1 and after.change < before.change
    assert CalculationRun.objects.filter(period=period).count() == 0
    ids = set(TournamentPlayer.objects.filter(tournament=t).values_list("player_id", flat=True))
    assert assert_live_equals_draft(django_capture_on_commit_callbacks, period, ids) == 4


def test_a_game_correction_and_a_dropped_report_update_the_live_ratings(
    django_capture_on_commit_callbacks,
) -> None:
    rng = random.Random(3)
    system = make_system(ruleset="fide-2024")
    period = make_period(system)
    pool = rated_pool(rng, system, 12, unrated=0)
    t1, *_rest = random_period(rng, system, period, pool)
    for t in [t1, *_rest]:
        live.live_ratings_update(tournament_id=t.pk)
    game = t1.games.filter(kind="played").exclude(result="1-0").first()
    assert game is not None and game.white.player_id is not None
    white = game.white.player_id
    before = LiveRating.objects.get(period=period, player_id=white)
    officer = make_user(role=roles.RATING_OFFICER)
    with django_capture_on_commit_callbacks(execute=True):
        game_correct(game=game, result="1-0", reason="scoresheet", user=officer)
    after = LiveRating.objects.get(period=period, player_id=white)
    assert after.score > before.score and after.change > before.change
    # The tournament stops counting: its players' figures leave it.
    Tournament.objects.filter(pk=t1.pk).update(status="report_received")
    assert t1.pk in live.live_ratings_stale()
    live.live_ratings_update(tournament_id=t1.pk)
    assert not LiveRating.objects.filter(period=period, tournaments__contains=[t1.pk]).exists()
    assert t1.pk not in live.live_ratings_stale()


def test_nothing_is_computed_once_the_period_is_closed() -> None:
    rng = random.Random(4)
    system = make_system(ruleset="fide-2024")
    period = make_period(system)
    pool = rated_pool(rng, system, 10, unrated=2)
    (t, *_rest) = random_period(rng, system, period, pool)
    RatingPeriod.objects.filter(pk=period.pk).update(status=PeriodStatus.CLOSED)
    assert live.live_ratings_update(tournament_id=t.pk) == 0
    assert not LiveRating.objects.exists()


@pytest.mark.parametrize("uploaded", ["fide-2024"], indirect=True)
def test_card_live_page_and_api_show_the_live_rating(
    uploaded, client, django_capture_on_commit_callbacks
) -> None:
    t, period, ana = uploaded["tournament"], uploaded["period"], uploaded["ana"]
    before = client.get(f"/players/{ana.fed_id}/").content.decode()  # kept by the page cache
    validate(django_capture_on_commit_callbacks, t, uploaded["arbiter"], sample_trf())
    live = LiveRating.objects.get(period=period, player=ana)
    shown = f"{live.rating_after} ({live.change:+d})"
    # The other tournaments' figure was cached; the validated one's enters the card at once.
    assert f"/tournaments/{t.pk}/" not in before
    card = client.get(f"/players/{ana.fed_id}/").content.decode()
    assert f'id="live-{period.system.code}"' in card and shown in card
    assert "provisional" in card and f"/tournaments/{t.pk}/" in card
    assert f"/players/{ana.fed_id}/live/{period.pk}/" in card
    page = client.get(f"/players/{ana.fed_id}/live/{period.pk}/").content.decode()
    assert 'id="provisional"' in page and f'id="rating-after">{live.rating_after}<' in page
    assert page.count('class="calculation"') == len({g["tournament"] for g in live.lines})
    data = client.get(f"/api/v1/players/{ana.fed_id}/").json()
    (mine,) = [r for r in data["ratings"] if r["system"] == period.system.code]
    assert mine["live"]["provisional"] is True
    assert (mine["live"]["rating_after"], mine["live"]["change"], mine["live"]["games"]) == (
        live.rating_after,
        live.change,
        live.games,
    )
    assert t.pk in [x["tournament"] for x in mine["live"]["tournaments"]]
    # Once published, the period's live figures leave the card (the list speaks).
    RatingPeriod.objects.filter(pk=period.pk).update(status=PeriodStatus.PUBLISHED)
    assert client.get(f"/players/{ana.fed_id}/live/{period.pk}/").status_code == 404
