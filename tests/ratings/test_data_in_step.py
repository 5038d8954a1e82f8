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
from ratings.publication import services as publication
from tests.factories import build, make_period, make_published, make_system, make_user
from tournaments.models import Tournament

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
