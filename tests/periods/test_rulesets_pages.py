"""Effective dates through the pages, the API and the admin: the timeline is public, officers
add an entry, a change to a published period is refused with the service's sentence."""

from __future__ import annotations

import datetime as dt

import pytest

from core.roles import RATING_OFFICER
from periods.models import PeriodStatus, SystemRuleset
from tests.factories import make_period, make_system, make_tournament, make_user

pytestmark = pytest.mark.django_db

JSON = "application/json"


def _published_world():
    system = make_system(ruleset="fide-2000", cycle="monthly")
    published = make_period(system, dt.date(2026, 11, 1), status=PeriodStatus.PUBLISHED)
    make_tournament(system, make_user(), start_date=dt.date(2026, 11, 10), period=published)
    return system


def test_officer_adds_an_entry_on_the_page_and_the_public_page_shows_the_timeline(client):
    system = _published_world()
    url = f"/ratings/{system.code}/rulesets/new/"
    client.force_login(make_user(role=RATING_OFFICER))
    # 10 November: a tournament of the published November period started that day (0.1).
    refused = client.post(url, {"ruleset": "fide-2024", "effective_from": "2026-11-10"})
    assert refused.status_code == 200
    assert "published period" in refused.content.decode()
    assert not SystemRuleset.objects.filter(system=system, ruleset="fide-2024").exists()
    added = client.post(url, {"ruleset": "fide-2024", "effective_from": "2026-12-01"})
    assert added.status_code == 302
    client.logout()
    page = client.get(f"/ratings/{system.code}/").content.decode()
    timeline = page[page.index('id="ruleset-timeline"') :]
    assert timeline.index("FIDE 1994") < timeline.index("FIDE 2024 (B.02")  # oldest first
    assert 'id="add-ruleset"' not in page  # anonymous: no button


def test_api_adds_an_entry_and_refuses_a_published_change(client):
    system = _published_world()
    url = f"/api/v1/systems/{system.code}/rulesets/"
    client.force_login(make_user(role=RATING_OFFICER))
    refused = client.post(
        url, {"ruleset": "fide-2024", "effective_from": "2026-11-01"}, content_type=JSON
    )
    assert refused.status_code == 409
    created = client.post(
        url, {"ruleset": "fide-2024", "effective_from": "2026-12-01"}, content_type=JSON
    )
    assert created.status_code == 201, created.content
    assert created.json()["effective_from"] == "2026-12-01"
    client.logout()
    got = client.get(f"/api/v1/systems/{system.code}/").json()
    assert got["ruleset"] == "fide-2024"  # the newest
    assert [(e["ruleset"], e["effective_from"]) for e in got["rulesets"]] == [
        ("fide-2000", "2026-11-01"),
        ("fide-2024", "2026-12-01"),
    ]


def test_admin_adds_through_the_service_and_shows_its_refusal(admin_client):
    system = _published_world()
    url = "/admin/periods/systemruleset/add/"
    refused = admin_client.post(
        url, {"system": system.pk, "ruleset": "fide-2024", "effective_from": "2026-11-05"}
    )
    assert refused.status_code == 200 and "published period" in refused.content.decode()
    added = admin_client.post(
        url, {"system": system.pk, "ruleset": "fide-2024", "effective_from": "2026-12-01"}
    )
    assert added.status_code == 302
    assert list(
        SystemRuleset.objects.filter(system=system).values_list("ruleset", "effective_from")
    ) == [("fide-2000", dt.date(2026, 11, 1)), ("fide-2024", dt.date(2026, 12, 1))]
