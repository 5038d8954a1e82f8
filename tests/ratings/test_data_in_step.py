"""Issue 23 item 6, "data kept in step": the slips of the periods' and the public pages
(publishing twice, opening a second period, standings before validation). Each test failed
before its fix."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import Refused
from core.roles import RATING_OFFICER
from periods import services as period_services
from periods.models import PeriodStatus, RatingPeriod
from ratings.calculation import runs
from ratings.office import counts as office_counts
from ratings.office import selectors as office_selectors
from ratings.publication import services as publication
from tests.factories import (
    build,
    make_game,
    make_period,
    make_player,
    make_published,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import Game, Report, Tournament, TournamentPlayer

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ 7. publishing twice


def test_publishing_twice_says_which_version_was_published_by_whom(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, tournament = build()
    officer = make_user("maria", role=RATING_OFFICER)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        runs.calculation_request(period=period)
    with django_capture_on_commit_callbacks(execute=True):
        publication.list_publish(period=period, user=officer)
    with pytest.raises(Refused) as refused:  # the second tab, the double click
        publication.list_publish(period=period, user=officer)
    text = str(refused.value)
    assert "Version 1" in text and "maria" in text and "already published" in text


def test_publish_page_after_publication_says_what_happened(
    client, django_capture_on_commit_callbacks
) -> None:
    officer = make_user("jordi", role=RATING_OFFICER)
    system, period, players, rated, published = make_published(django_capture_on_commit_callbacks)
    client.force_login(officer)
    url = reverse("ratings:period_publish", args=[period.pk])
    page = client.get(url).content.decode()
    assert "Version 1 of this list was already published" in page
    response = client.post(url, {"confirm": "1"}, follow=True)
    assert "Version 1 of this list was already published" in response.content.decode()
    assert period.lists.count() == 1


def test_opening_a_second_open_period_of_a_system_is_refused(
    django_capture_on_commit_callbacks,
) -> None:
    system, period, players, rated, published = make_published(django_capture_on_commit_callbacks)
    opened = system.periods.get(status=PeriodStatus.OPEN)  # publication opened the next one
    with pytest.raises(Refused) as refused:
        period_services.period_open_next(system=system)
    assert str(opened.start.year) in str(refused.value)
    assert system.periods.filter(status=PeriodStatus.OPEN).count() == 1


def test_open_next_asks_to_confirm(client) -> None:
    system = make_system()
    make_period(system, start=dt.date(2026, 10, 1), status=PeriodStatus.PUBLISHED)
    client.force_login(make_user(role=RATING_OFFICER))
    url = reverse("ratings:open_next", args=[system.code])
    page = client.get(url)
    assert page.status_code == 200 and 'id="confirm"' in page.content.decode()
    client.post(url)  # no confirmation: nothing opens
    assert not system.periods.filter(status=PeriodStatus.OPEN).exists()
    client.post(url, {"confirm": "1"})
    assert system.periods.filter(status=PeriodStatus.OPEN).count() == 1
    response = client.post(url, {"confirm": "1"}, follow=True)  # a second tab
    assert system.periods.filter(status=PeriodStatus.OPEN).count() == 1
    assert "already open" in response.content.decode()
    assert RatingPeriod.objects.filter(system=system).count() == 2


# ------------------------------------------------------------------ 6. standings before validation


def test_public_page_hides_standings_until_the_report_is_validated() -> None:
    system, period, players, tournament = build()
    Tournament.objects.filter(pk=tournament.pk).update(status="report_received")
    tournament.games.all().delete()  # not validated: no games written
    url = reverse("tournaments:detail", args=[tournament.pk])
    page = Client().get(url).content.decode()
    assert 'id="standings"' not in page and 'id="crosstable"' not in page
    assert "appear here when the report is validated" in page
    data = Client().get(f"/api/v1/tournaments/{tournament.pk}/crosstable/").json()
    assert data["rows"] == [] and data["standings_shown"] is False
    Tournament.objects.filter(pk=tournament.pk).update(status="validated")
    assert 'id="standings"' in Client().get(url).content.decode()


# ------------------------------------------------------------------ 4 and 5. one counting of games


def _world_with_counts():
    """build()'s tournament (round 1: a win between rated players, a draw against the unrated
    fourth player; round 2: a forfeit) plus a bye for the fourth player in round 2; and a second
    validated tournament of two players new to the system, who drew one game."""
    system, period, players, tournament = build()
    lines = {tp.start_rank: tp for tp in tournament.players.all()}
    Game.objects.create(
        tournament=tournament,
        round=2,
        white=lines[4],
        black=None,
        result="bye",
        kind="bye_full",
        white_score=1,
    )
    newcomers = make_tournament(system, tournament.arbiter, status="validated", period=period)
    a, b = (
        TournamentPlayer.objects.create(
            tournament=newcomers, player=make_player(), start_rank=i, name=f"New {i}"
        )
        for i in (1, 2)
    )
    make_game(newcomers, a, b, "1/2-1/2")
    return system, period, tournament, newcomers


def test_one_counting_of_games_byes_apart_and_games_against_unrated_players() -> None:
    system, period, tournament, newcomers = _world_with_counts()
    counts = office_counts.tournament_game_counts(tournaments=[tournament, newcomers])
    # By hand: played 2 (the win, the draw), unplayed 1 (the forfeit), 1 bye; the draw is
    # against the unrated fourth player; 3 of 4 players rated.
    c = counts[tournament.pk]
    assert (c.played, c.unplayed, c.byes, c.games) == (2, 1, 1, 3)
    assert (c.with_unrated, c.between_unrated, c.players, c.rated_players) == (1, 0, 4, 3)
    assert not c.rates_nobody
    n = counts[newcomers.pk]
    assert (n.played, n.with_unrated, n.between_unrated, n.rated_players) == (1, 1, 1, 0)
    assert n.rates_nobody and n.nobody_reason == "no_rated_player"


def test_totals_add_up_across_the_close_calculate_desk_and_review_pages(
    client, django_capture_on_commit_callbacks
) -> None:
    system, period, tournament, newcomers = _world_with_counts()
    client.force_login(make_user(role=RATING_OFFICER))
    close = client.get(reverse("ratings:period_close", args=[period.pk])).content.decode()
    # 3 + 1 games (pairings), the bye apart; before: "5 games" (the bye counted as a game).
    for page in (close,):
        assert 'data-total="included-games">4<' in page
        assert 'data-total="included-byes">1<' in page
        assert 'data-total="included-with-unrated">2<' in page
    # 4. The tournament of newcomers rates nobody, and the page says why, before calculating.
    assert 'id="rates-nobody"' in close and newcomers.name in close
    assert "none of its players has a rating" in close
    period_services.period_close(period=period)
    calc = client.get(reverse("ratings:period_calculate", args=[period.pk])).content.decode()
    assert 'data-total="included-games">4<' in calc and 'id="rates-nobody"' in calc
    desk = client.get(reverse("ratings:desk")).content.decode()
    assert 'data-total="included-games">4<' in desk
    with django_capture_on_commit_callbacks(execute=True):
        runs.calculation_request(period=period)
    review = client.get(reverse("ratings:review_tournaments", args=[period.pk])).content.decode()
    assert 'id="total-games">4<' in review and 'id="total-byes">1<' in review
    assert 'id="total-with-unrated">2<' in review


def test_left_out_says_what_an_unvalidated_report_holds() -> None:
    system, period, tournament, newcomers = _world_with_counts()
    waiting = make_tournament(system, tournament.arbiter, status="report_received", period=period)
    Report.objects.create(
        tournament=waiting,
        submission=1,
        format="trf16",
        data=b"x",
        sha256="0" * 64,
        size=1,
        status="accepted",
        uploaded_by=tournament.arbiter,
        paired_games=12,
        byes=3,
    )
    contents = office_selectors.period_contents(period=period)
    (line,) = contents.left_out
    assert (line.games, line.counts.byes) == (12, 3)
    assert contents.left_out_games == 12
