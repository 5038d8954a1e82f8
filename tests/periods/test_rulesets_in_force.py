"""The pages that read a regulation's facts ask the timeline for the regulation in force on the
day at hand (periods.rulesets.system_ruleset_on), never the system's newest entry
(`RatingSystem.ruleset`): a tournament's kinds by its start day, the calculator by its date,
the statistics' drift check by the newest list's period, the differential and the system's
page by today (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from periods.rulesets import system_ruleset_add
from protests.deadlines import protest_window
from ratings.differentials import services as differential_services
from ratings.models import ScaleMonitoring
from ratings.statistics import selectors as statistics_selectors
from ratings.statistics import services as statistics_services
from tests.factories import (
    make_period,
    make_player,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tournaments.decision_selectors import decisions_offered
from tournaments.kinds import tournament_ruleset_in_force
from tournaments.models import DecisionKind
from tournaments.substitution_selectors import competition_records

pytestmark = pytest.mark.django_db

#: A day far ahead: an entry from then is the system's newest, not the one in force today.
FAR = dt.date(2100, 1, 1)


def test_a_tournament_kind_is_checked_against_the_regulation_of_its_start_day() -> None:
    # fide-2000 names national championships (6.33); fide-2024, in force from 1 March 2026
    # here, names no kinds.
    system = make_system(ruleset="fide-2000", cycle="monthly")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=dt.date(2026, 3, 1))
    system.refresh_from_db()
    assert system.ruleset == "fide-2024"  # the newest entry
    arbiter = make_user()
    february = make_tournament(
        system,
        arbiter,
        start_date=dt.date(2026, 2, 10),
        end_date=dt.date(2026, 2, 15),
        kind="national_championship",
    )
    february.full_clean(exclude=["arbiter"])  # started under fide-2000: its kind is known
    assert february.kind_display == "National championship"
    march = make_tournament(
        system,
        arbiter,
        start_date=dt.date(2026, 3, 2),
        end_date=dt.date(2026, 3, 8),
        kind="national_championship",
    )
    with pytest.raises(ValidationError) as refused:
        march.full_clean(exclude=["arbiter"])
    assert "kind" in refused.value.message_dict


def test_the_system_api_offers_the_kinds_in_force_today(client) -> None:
    system = make_system(ruleset="fide-2000", cycle="monthly")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=FAR)
    data = client.get(f"/api/v1/systems/{system.code}/").json()
    assert [k["id"] for k in data["competition_kinds"]] == [
        "national_championship",
        "womens_national_championship",
    ]


def test_the_calculator_rates_under_the_regulation_in_force_on_its_date(client) -> None:
    system = make_system(ruleset="fide-2000", cycle="monthly")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=dt.date(2024, 3, 1))
    query = {"system": system.code, "rating": 2105, "games": 60, "opp1": 1900, "res1": "1"}

    def api_version(ruleset: str, day: str) -> str:
        body = {
            "ruleset": ruleset,
            "period": {"start": day[:8] + "01", "end": day[:8] + "28"},
            "parameters": {},
            "players": [{"id": "A", "rating": 2105, "games": 60}, {"id": "B", "rating": 1900}],
            "tournaments": [
                {
                    "id": "T",
                    "system": "swiss",
                    "end_date": day,
                    "rate_of_play": "standard",
                    "games": [{"white": "A", "black": "B", "result": "1-0"}],
                }
            ],
        }
        response = client.post("/api/v1/calculator/", json.dumps(body), "application/json")
        assert response.status_code == 200, response.content
        return str(response.json()["regulation_version"])

    for day, ruleset in (("2024-02-15", "fide-2000"), ("2024-03-15", "fide-2024")):
        html = client.get(reverse("ratings:calculator"), {**query, "date": day}).content.decode()
        made_under = re.search(r'<p class="muted" id="made-under">(.*?)</p>', html, re.S)
        assert made_under is not None, html
        number = api_version(ruleset, day).removeprefix(f"{ruleset}/")
        assert f"calculated under {ruleset} version {number}," in made_under[1]


def _lists(system, tops: list[int], start: dt.date) -> None:
    players = [make_player() for _ in range(50)]
    for top in tops:
        period = make_period(system, start=start)
        made = make_published_list(period, players, entries=[{"rating": top}] * 50)
        statistics_services.list_statistics_publish_step(published=made)
        start = (start + dt.timedelta(days=190)).replace(day=1)


def test_the_drift_check_reads_the_regulation_of_the_newest_list() -> None:
    # feda-1996 11.1 asks for the watch of the top 50; fide-2024 for none.
    watched = make_system(ruleset="feda-1996", cycle="semestral")
    ScaleMonitoring.objects.create(system=watched, threshold=5, lists=1)
    _lists(watched, [2000, 2010], dt.date(2024, 12, 1))
    system_ruleset_add(system=watched, ruleset="fide-2024", effective_from=FAR)
    watched.refresh_from_db()
    assert watched.ruleset == "fide-2024"  # the newest entry
    drift = statistics_selectors.drift_check(system=watched)
    assert drift is not None and drift.article == "feda-1996 11.1" and drift.moved == 10

    unwatched = make_system(ruleset="fide-2024", cycle="semestral")
    ScaleMonitoring.objects.create(system=unwatched, threshold=5, lists=1)
    _lists(unwatched, [2000, 2010], dt.date(2024, 12, 1))
    system_ruleset_add(system=unwatched, ruleset="feda-1996", effective_from=FAR)
    unwatched.refresh_from_db()
    assert statistics_selectors.drift_check(system=unwatched) is None


def test_the_statistics_page_names_the_watch_in_force_today(client) -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=FAR)
    html = client.get(reverse("ratings:statistics", args=[system.code])).content.decode()
    assert 'id="drift"' in html and "feda-1996 11.1" in html


def test_the_differential_pages_read_the_regulation_in_force_today(client) -> None:
    # fce 9.5: the FCE publishes a differential; fide-2024 reads none.
    system = make_system(code="fce-std", ruleset="fce")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=FAR)
    assert differential_services.differential_article(system=system) == "fce 9.5"
    history = client.get(reverse("ratings:differentials", args=[system.code]))
    assert "fce 9.5" in history.content.decode()
    page = client.get(reverse("ratings:system", args=[system.code])).content.decode()
    assert reverse("ratings:differentials", args=[system.code]) in page


def test_a_tournaments_substitutions_and_decisions_follow_its_start_days_regulation() -> None:
    # cnxc-2000 records team substitutions (7.2) and the norm winner (7.1); fide-2024, the
    # system's newest entry from 2100, records neither. A tournament of today is cnxc-2000's.
    system = make_system(ruleset="cnxc-2000", cycle="monthly")
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=FAR)
    system.refresh_from_db()
    assert system.ruleset == "fide-2024"
    today = dt.date.today()
    tournament = make_tournament(system, make_user(), start_date=today, end_date=today)
    assert tournament_ruleset_in_force(tournament=tournament) == "cnxc-2000"
    records = competition_records(tournament=tournament)
    assert (records.substitutions_article, records.winner_article) == (
        "cnxc-2000 7.2",
        "cnxc-2000 7.1",
    )
    # cnxc-2000 3.2 exempts a withdrawal; fide-2024 offers refusals (0.4) instead.
    offered = decisions_offered(tournament=tournament)
    assert offered[DecisionKind.EXEMPT_WITHDRAWAL].article == "cnxc-2000 3.2"
    assert DecisionKind.REFUSE_RATING not in offered


def test_a_protest_window_follows_the_regulation_its_list_was_calculated_under() -> None:
    # fce 9.3: 25 days; the system's newest entry (fide-2024 from 2100) has none of its own.
    system = make_system(ruleset="fce", cycle="monthly")
    period = make_period(system, dt.date(2026, 1, 1))
    published = make_published_list(period, [make_player()])
    assert published.ruleset == "fce"
    system_ruleset_add(system=system, ruleset="fide-2024", effective_from=FAR)
    published.system.refresh_from_db()
    assert published.system.ruleset == "fide-2024"
    window = protest_window(published=published)
    assert (window.days, window.article) == (25, "fce 9.3")
