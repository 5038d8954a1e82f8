"""Issue 24 items 1-2 through the publication itself: the entries keep what the list
publishes of the player (title, federation, region, club, birth date) and the section the
regulation's facts give them (fide-2000 9.23b: left out after 7 lists flagged inactive;
9.22: titled unrated apart)."""

from __future__ import annotations

import datetime as dt

import pytest

from periods import services as period_services
from ratings.calculation import runs
from ratings.models import DraftResult, ListEntry, PlayerRating
from ratings.publication import services as publication
from tests.factories import (
    make_game,
    make_period,
    make_player,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.models import TournamentPlayer

pytestmark = pytest.mark.django_db


def test_fide_2000_publication_snapshots_the_player_and_sections(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    period = make_period(system, start=dt.date(2026, 7, 1), end=dt.date(2026, 9, 30))
    arbiter = make_user()
    a = make_player(
        title="IM",
        region="Catalunya",
        club="CE Terrassa",
        birth_date=dt.date(1990, 5, 17),
        birth_year=1990,
    )
    b = make_player(birth_year=1985)
    idle = make_player(birth_year=1970)
    for p, games in ((a, 100), (b, 100)):
        PlayerRating.objects.create(player=p, system=system, rating=2300, games=games)
    # 9.23b: flagged in 7 lists already; still inactive, the 8th leaves him out.
    PlayerRating.objects.create(
        player=idle,
        system=system,
        rating=2200,
        games=100,
        kind="effective",
        activity="inactive",
        flagged_lists=7,
        last_game_date=dt.date(2024, 1, 10),
    )
    t = make_tournament(system, arbiter, status="validated", period=period)
    ta = TournamentPlayer.objects.create(tournament=t, player=a, start_rank=1, name=str(a))
    tb = TournamentPlayer.objects.create(tournament=t, player=b, start_rank=2, name=str(b))
    for r in range(1, 5):
        make_game(t, ta, tb, "1/2-1/2", round=r)
    with django_capture_on_commit_callbacks(execute=True):
        period_services.period_close(period=period)
        run = runs.calculation_request(period=period)
    run.refresh_from_db()
    drafts = {d.player_id: d for d in DraftResult.objects.filter(run=run)}
    published = publication.list_publish(period=period)
    entries = {e.player_id: e for e in ListEntry.objects.filter(published_list=published)}
    mine = entries[a.pk]
    assert (mine.title, mine.region, mine.club, mine.birth_date, mine.federation) == (
        "IM",
        "Catalunya",
        "CE Terrassa",
        dt.date(1990, 5, 17),
        "ESP",
    )
    assert mine.section == "active" and mine.inactive_lists == 0
    assert drafts[idle.pk].inactive and drafts[idle.pk].flagged_lists == 8, drafts[idle.pk].notes
    assert entries[idle.pk].inactive_lists == 8
    assert entries[idle.pk].section == "left_out"
    # The player's later changes do not change the published entry.
    a.club = "Other"
    a.save()
    assert ListEntry.objects.get(pk=mine.pk).club == "CE Terrassa"
