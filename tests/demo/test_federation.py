"""The demo federation command and the synthetic-federation generator."""

from __future__ import annotations

import datetime as dt
import hashlib
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F, Q

from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from players.models import Player
from players.names import full_name_key
from ratings.models import CalculationRun, DraftResult, ListEntry, PlayerRating, PublishedList
from tournaments.models import Game, Report, Tournament, TournamentPlayer


def _demo() -> str:
    out = StringIO()
    call_command("demo_federation", "--players", "2000", "--seed", "3", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_demo_federation_players_systems_users_lists_and_tournaments() -> None:
    _demo()
    assert Player.objects.count() >= 2000
    # Accented names in each language (fixed names, independent of the random draw).
    for surname, given in (
        ("Núñez Martínez", "José Mª"),
        ("Puig i Vilaró", "Núria"),
        ("Gonçalves da Conceição", "João"),
    ):
        p = Player.objects.get(surname=surname, given_name=given)
        assert p.name_key == full_name_key(surname, given)
    for needle in ("ñ", "ç", "à", "ò", "ã", "í"):
        assert Player.objects.filter(
            Q(surname__contains=needle) | Q(given_name__contains=needle)
        ).exists(), needle
    assert Player.objects.filter(federation="POR").exists()
    assert not Player.objects.filter(name_key="").exists()
    women = Player.objects.filter(sex="F").count() / Player.objects.count()
    assert 0.08 < women < 0.25
    assert Player.objects.exclude(title="").exists()

    assert dict(RatingSystem.objects.values_list("code", "ruleset")) == {
        "std": "fide-2024",
        "fce-rapid": "fce",
        "cnxc": "cnxc-2000",
    }
    assert RatingSystem.objects.get(code="cnxc").cycle == "semestral"

    users = get_user_model().objects
    assert users.get(username="arbiter").groups.filter(name="arbiter").exists()
    assert users.get(username="officer").groups.filter(name="rating officer").exists()
    player_user = users.get(username="player")
    assert player_user.groups.filter(name="player").exists()
    assert player_user.check_password("player")
    assert Player.objects.get(user=player_user)
    assert users.get(username="admin").is_superuser

    for system in RatingSystem.objects.all():
        published = PublishedList.objects.filter(system=system)
        assert published.exists()
        for pl in published:
            assert pl.entries.count() == pl.entry_count > 0
            assert pl.period.status == PeriodStatus.PUBLISHED
        assert RatingPeriod.objects.filter(system=system, status=PeriodStatus.OPEN).count() == 1
    assert not PlayerRating.objects.filter(rating__gte=2400, reached_2400=False).exists()
    assert not PlayerRating.objects.filter(rating__lt=2400, reached_2400=True).exists()

    open_std = RatingPeriod.objects.get(system__code="std", status=PeriodStatus.OPEN)
    tournaments = Tournament.objects.filter(period=open_std)
    assert {"registered", "report_received", "validated"} <= set(
        tournaments.values_list("status", flat=True)
    )
    assert {"swiss", "round_robin"} <= set(tournaments.values_list("system", flat=True))
    games = Game.objects.filter(tournament__period=open_std)
    assert games.filter(kind="played").count() > 100
    assert games.filter(kind="forfeit").exists() and games.filter(kind__startswith="bye").exists()
    assert not games.filter(white=F("black")).exists()
    assert not games.exclude(white__tournament=F("tournament")).exists()
    assert not games.filter(black__isnull=False).exclude(black__tournament=F("tournament")).exists()
    # Declared points match the games, and each game's points add up.
    for g in games.filter(black__isnull=False):
        assert g.black_score is not None
        assert g.white_score + g.black_score == 1
    for tp in TournamentPlayer.objects.filter(
        tournament__period=open_std, tournament__status="validated"
    ):
        scored = sum(g.white_score for g in tp.white_games.all()) + sum(
            g.black_score  # type: ignore[misc, operator]  # a black score is set
            for g in tp.black_games.all()
        )
        assert tp.declared_points == scored, tp


@pytest.mark.django_db
@pytest.mark.parametrize(
    "today",
    [
        dt.date(
            2026, 11, 15
        ),  # a 30-day month: fide-2024 closes on the 28th (list 1 Dec minus 3 days, 7.1.3)
        dt.date(2026, 11, 30),  # after that closing date
        dt.date(2027, 2, 10),  # before the 18th: January is still open, closes on the 29th
        dt.date(2027, 2, 20),  # February: closes on the 26th
        dt.date(2026, 12, 31),  # a 31-day month: closes on the 29th
    ],
)
def test_demo_tournaments_are_in_the_period_the_assignment_rules_give(today: dt.date) -> None:
    """Each demo tournament is in the period periods.selectors.period_for_tournament gives it
    (the rules a real registration and report follow), and that is the open standard period:
    each ends by its closing date, and its report (if any) arrived by then."""
    from django.utils import timezone

    from demo.federation import demo_federation_create
    from periods.selectors import period_for_tournament

    demo_federation_create(players=150, seed=5, today=today)
    open_std = RatingPeriod.objects.get(system__code="std", status=PeriodStatus.OPEN)
    # Before the 18th the previous month is still open (demo.federation.demo_open_month).
    month = today.replace(day=1) if today.day >= 18 else (today.replace(day=1) - dt.timedelta(1))
    assert open_std.start == month.replace(day=1)
    closing = {
        (2027, 2): dt.date(2027, 2, 26),
        (2026, 10): dt.date(2026, 10, 29),  # list 1 Nov minus 3 days
        (2026, 11): dt.date(2026, 11, 28),
        (2027, 1): dt.date(2027, 1, 29),
        (2026, 12): dt.date(2026, 12, 29),
    }[(month.year, month.month)]
    assert open_std.closing_date == closing
    tournaments = list(Tournament.objects.filter(rating_system__code="std", period=open_std))
    assert len(tournaments) == 5
    for t in tournaments:
        received = timezone.localdate(t.report_received_at) if t.report_received_at else None
        assert t.end_date <= closing, t.name
        assert received is None or received <= min(today, closing), t.name
        assignment = period_for_tournament(
            tournament=t, received_on=received or min(today, closing)
        )
        assert (assignment.period, assignment.late) == (open_std, False), (
            t.name,
            assignment.reason,
        )
    galicia = Tournament.objects.get(name="Open de Galicia")
    assert galicia.status == "registered" and galicia.report_received_at is None


@pytest.mark.django_db
def test_demo_lists_are_the_engines_from_stored_reports() -> None:
    """Issue 14 item 15: every published list is a calculation run's draft, published once;
    every rated tournament has its report stored; no entry changes without games; the K of
    an entry is the one its run's draft gave; one open period per system."""
    _demo()
    for published in PublishedList.objects.all():
        run = CalculationRun.objects.get(published_list=published)
        assert run.status == "succeeded" and run.period_id == published.period_id
        drafts = dict(DraftResult.objects.filter(run=run).values_list("player_id", "k"))
        for player_id, k in published.entries.exclude(k=None).values_list("player_id", "k"):
            assert drafts[player_id] == k
    assert not ListEntry.objects.exclude(change=0).filter(games=0).exists()
    assert ListEntry.objects.exclude(change=0).exists()
    rated = Tournament.objects.filter(status__in=("validated", "rated", "published"))
    assert rated.count() >= 8
    for t in rated:
        report = Report.objects.get(tournament=t, status="accepted")
        assert report.sha256 == hashlib.sha256(bytes(report.data)).hexdigest()
        assert bytes(report.data).startswith(b"012 ")
        assert t.games.exists()
    # A newcomer of a replayed month was created by the matching and got into the lists.
    assert ListEntry.objects.filter(status="new").exists()
    for system in RatingSystem.objects.all():
        assert RatingPeriod.objects.filter(system=system, status=PeriodStatus.OPEN).count() == 1
    # The open period waits for the matching of two reports (a newcomer each).
    waiting = Tournament.objects.filter(status="report_received")
    assert waiting.count() == 2
    assert all(t.players.filter(player__isnull=True).count() == 1 for t in waiting)


@pytest.mark.django_db
def test_demo_federation_twice_does_not_duplicate() -> None:
    _demo()
    counts = (
        Player.objects.count(),
        PublishedList.objects.count(),
        Game.objects.count(),
        get_user_model().objects.count(),
    )
    out = _demo()
    assert "already present" in out
    assert counts == (
        Player.objects.count(),
        PublishedList.objects.count(),
        Game.objects.count(),
        get_user_model().objects.count(),
    )


@pytest.mark.django_db
def test_generate_federation_exact_counts() -> None:
    out = StringIO()
    call_command(
        "generate_federation",
        "--players",
        "2000",
        "--games",
        "1500",
        "--seed",
        "2",
        "--system-code",
        "synth-test",
        stdout=out,
    )
    system = RatingSystem.objects.get(code="synth-test")
    assert system.ruleset == "fide-2024"
    assert Player.objects.count() == 2000
    assert PlayerRating.objects.filter(system=system).count() == 2000
    assert RatingPeriod.objects.filter(system=system, status=PeriodStatus.OPEN).count() == 1
    games = Game.objects.filter(tournament__rating_system=system)
    assert games.filter(kind="played").count() == 1500
    assert 0 < games.filter(kind="forfeit").count() < 100
    assert not games.filter(white=F("black")).exists()
    assert not games.exclude(white__tournament=F("tournament")).exists()
    assert Tournament.objects.filter(rating_system=system, system="swiss", rounds=9).exists()
    assert not Player.objects.filter(name_key="").exists()
    # The states are those the previous list left (fide-2024 7.2.2 a): a rated player whose
    # last game is more than a year before the first period is already inactive.
    first_start = RatingPeriod.objects.filter(system=system).order_by("start").first().start
    # The engine's 7.2.2 a cut-off for the period that ended the day before, worked by hand:
    # the same day one year earlier.
    day_before = first_start - dt.timedelta(days=1)
    cutoff = dt.date(
        day_before.year - 1,
        day_before.month,
        min(day_before.day, 28) if day_before.month == 2 else day_before.day,
    )
    rated = PlayerRating.objects.filter(system=system, rating__isnull=False)
    assert rated.filter(last_game_date__lte=cutoff).exists()
    assert not rated.filter(last_game_date__lte=cutoff).exclude(activity="inactive").exists()
    assert not rated.filter(last_game_date__gt=cutoff, activity="inactive").exists()
    assert not rated.filter(last_game_date__gte=first_start).exists()
    # Ids reserved from the sequences: ordinary inserts still work afterwards.
    Player.objects.create(fed_id="AFTER-1", surname="Ferrer", given_name="Àngel", sex="M")
    assert "1500" in out.getvalue() or "played games: 1500" in out.getvalue()


@pytest.mark.django_db
def test_generate_federation_refuses_an_existing_code() -> None:
    call_command("generate_federation", "--players", "100", "--games", "10", stdout=StringIO())
    assert Game.objects.filter(kind="played").count() == 10
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("generate_federation", "--players", "100", "--games", "10", stdout=StringIO())
