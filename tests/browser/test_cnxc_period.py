"""A cnxc-2000 period run from the site alone, in Debian's Chromium (issue 25, "Done when"):
the officer imports the ICCF list through its import page; the arbiter registers board 1 of
the Team Championship final (its kind chosen), uploads its TRF (teams in 013 records), records
a substitution on the tournament's page and resolves the new player, so the report is
validated; the officer closes and calculates the period from his pages, reads the calibration
(its players and mean) and publishes the list. No JSON is typed anywhere.

Worked by hand:
- 7.3: eight effective players who did not play, CNXC 2000 2100 2200 2300 2400 2500 2050 2150,
  ICCF (list of the day after the period) 2010 2115 2212 2313 2410 2515 2062 2163: 8 players,
  differences 10+15+12+13+10+15+12+13 = 100, mean 12.5, rounded half up +13 to every effective
  rating.
- 7.2: round 2, Carvalho (2050, white) - Alves (2100, black) drawn, Alves handing the game
  over to Sousa (1900, effective). (h) Sousa faces the highest rated of the other side,
  Carvalho: 150 -> Tabela II 146-154, Prob L 0.30; W - We = 0.5 - 0.30 > 0: (f) charged.
  Alves: 2100 vs 2050, 50 -> Prob H 0.57; 0.5 - 0.57 < 0: (d) charged.
"""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from periods.models import PeriodStatus, RatingPeriod
from ratings.models import Calibration, PlayerRating, PublishedList
from tests.browser.test_arbiter_flow import time_passes
from tests.factories import make_period, make_player, make_system, make_user
from tests.tournaments.team_trf import team_trf
from tournaments.models import Substitution, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CNXC = [2000, 2100, 2200, 2300, 2400, 2500, 2050, 2150]
ICCF = [2010, 2115, 2212, 2313, 2410, 2515, 2062, 2163]
#: The players of the competition with an effective CNXC rating (60 games: K 20).
PLAYING = {"Alves": 2100, "Bento": 2000, "Carvalho": 2050, "Sousa": 1900}


def iccf_file() -> bytes:
    rows = "".join(f"{910000 + i}\tPOR\t\tIccf{i}, Jogador\t50\t{r}\n" for i, r in enumerate(ICCF))
    return f"ICCF-id\tCountry\tTitle\tName\tGames\tRating\n{rows}".encode()


def semester_period(system):
    """The system's open semester holding the tournament's end (five days ago, time_passes)."""
    day = timezone.localdate() - dt.timedelta(days=5)
    start = dt.date(day.year, 1 if day.month <= 6 else 7, 1)
    end = dt.date(day.year, 6, 30) if day.month <= 6 else dt.date(day.year, 12, 31)
    closing = max(end - dt.timedelta(days=3), timezone.localdate() + dt.timedelta(days=1))
    return make_period(system, start, end=end, closing_date=closing)


def world():
    system = make_system(
        name="CNXC", ruleset="cnxc-2000", cycle="semestral", rate_of_play="correspondence"
    )
    period = semester_period(system)
    recent = timezone.localdate() - dt.timedelta(days=365)
    for i, rating in enumerate(CNXC):
        p = make_player(surname=f"Iccf{i}", given_name="Jogador", iccf_id=910000 + i)
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=rating,
            games=60,
            kind="effective",
            last_game_date=recent,
        )
    for i, (surname, rating) in enumerate(PLAYING.items()):
        p = make_player(surname=surname, given_name="X", fide_id=2300001 + (4 if i == 3 else i))
        PlayerRating.objects.create(
            player=p,
            system=system,
            rating=rating,
            games=60,
            kind="effective",
            last_game_date=recent,
        )
    make_user("officer", role=roles.RATING_OFFICER)
    make_user("arbitro", role=roles.ARBITER)
    return system, period


def wait_for_the_run(page) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        status = page.locator("#run-status").get_attribute("data-status")
        if status == "succeeded" and page.locator("#draft").count():
            return
        assert status != "failed", page.locator("main").inner_text()
        time.sleep(0.2)
    pytest.fail("the calculation did not finish")


def test_a_cnxc_period_from_the_site_alone(browser_page, live_server, login) -> None:
    system, period = world()
    page = browser_page
    page.set_default_timeout(20_000)
    url = live_server.url

    # The officer imports the ICCF list in force the day after the period (7.3).
    login(page, "officer")
    page.goto(url + reverse("ratings:external_list_import"))
    page.select_option("#id_source", "iccf")
    page.fill("#id_list_date", period.list_date.isoformat())
    page.select_option("#id_format", "txt")
    iccf = {"name": "iccf.txt", "mimeType": "text/plain", "buffer": iccf_file()}
    page.set_input_files("#id_file", files=[iccf])
    page.click("#preview-list")
    expect(page.locator("#preview-matched")).to_have_text("Rows matched to a player: 8")
    page.set_input_files("#id_file", files=[iccf])
    page.click("form.card button:not(#preview-list)[type=submit]")
    expect(page.locator("#job-status")).to_have_attribute("data-status", "succeeded")

    # The arbiter registers the competition, its kind chosen, and uploads its report.
    page.context.clear_cookies()
    login(page, "arbitro")
    page.click("text=Register a tournament")
    start = timezone.localdate() + dt.timedelta(days=20)
    page.fill("#id_name", "Taça CNXC, final")
    page.fill("#id_city", "Porto")
    page.fill("#id_start_date", start.isoformat())
    page.fill("#id_end_date", (start + dt.timedelta(days=2)).isoformat())
    page.select_option("#id_system", "team")
    page.fill("#id_rounds", "3")
    page.fill("#id_base_minutes", "90")
    page.fill("#id_increment_seconds", "30")
    page.fill("#id_chief_arbiter", "A. Arbiter")
    page.select_option("#id_kind", "team_championship_final_board_1")
    page.select_option("#id_rating_system", str(system.pk))
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("text=Tournament registered.")
    tournament = Tournament.objects.get(name="Taça CNXC, final")
    assert tournament.kind == "team_championship_final_board_1"
    time_passes(tournament)
    page.reload()
    trf = {"name": "taca.trf", "mimeType": "text/plain", "buffer": team_trf()}
    page.set_input_files("#id_file", files=[trf])
    page.click("#upload-form button[type=submit]")
    expect(page.locator("#matching-summary")).to_contain_text("4 matched, 0 ambiguous, 1 new.")
    expect(page.locator("#tournament-status")).to_have_text("Report received")

    # Round 2: Alves (black) handed his game over to Sousa; both moved (7.2).
    form = page.locator("#substitution-form")
    form.locator("[name=round]").fill("2")
    form.locator("[name=board]").fill("1")
    form.locator("[name=side]").select_option("black")
    form.locator("[name=replaced_rank]").select_option("1")
    form.locator("[name=substitute_rank]").select_option("5")
    form.locator("[name=date]").fill((timezone.localdate() - dt.timedelta(days=6)).isoformat())
    form.locator("button[type=submit]").click()
    expect(page.locator("#substitution-table tbody tr")).to_have_count(1)
    assert Substitution.objects.filter(tournament=tournament, substitute_rank=5).count() == 1

    # The new player (no rating anywhere: 5.3's 2000 of board 1 of the final) is created.
    page.click("#review-players")
    page.select_option("#pick_4", "new")
    page.click("#confirm-players")
    page.wait_for_selector("text=The tournament is validated.")
    expect(page.locator("#tournament-status")).to_have_text("Validated")

    # The officer closes and calculates the period from his pages.
    page.context.clear_cookies()
    login(page, "officer")
    page.goto(url + reverse("ratings:period", args=[period.pk]))
    page.click("#close-period")
    page.click("#confirm")
    expect(page.locator("#period-status")).to_have_text("Closed")
    page.click("#calculate")
    expect(page.locator("#summary")).to_contain_text("Taça CNXC, final")
    page.click("#confirm")
    wait_for_the_run(page)

    # 7.3 on the review page: the eight players, their mean, +13.
    page.goto(url + reverse("ratings:period", args=[period.pk]))
    expect(page.locator("#review-calibration")).to_be_visible()
    page.click("#review-calibration")
    expect(page.locator("#calibration-players")).to_contain_text("8")
    expect(page.locator("#calibration-mean")).to_contain_text("12.5")
    expect(page.locator("#calibration-outcome")).to_have_attribute("data-applied", "true")
    expect(page.locator("#calibration-outcome")).to_contain_text("+13")
    entries = page.locator("#calibration-entries").inner_text()
    assert "2010" in entries and "2013" in entries  # Iccf0: ICCF 2010, CNXC 2000 -> 2013
    calibration = Calibration.objects.get(period=period)
    assert (calibration.players, calibration.shift) == (8, 13)

    # 7.2 on the substitute's calculation: charged by rule f.
    sousa = PlayerRating.objects.get(system=system, player__surname="Sousa").player
    page.goto(url + reverse("ratings:review_player", args=[period.pk, sousa.pk]))
    expect(page.locator("#notes li[data-code='substitution_charged']")).to_contain_text("7.2 f")

    # Published.
    page.goto(url + reverse("ratings:period", args=[period.pk]))
    page.click("#publish")
    page.click("#confirm")
    page.wait_for_url("**/lists/**")
    published = PublishedList.objects.get(period=period)
    assert page.url.endswith(reverse("ratings:list", args=[published.pk]))
    period.refresh_from_db()
    assert period.status == PeriodStatus.PUBLISHED
    assert RatingPeriod.objects.filter(system=system, status=PeriodStatus.OPEN).count() == 1
