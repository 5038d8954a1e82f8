"""Officer pages: close, calculate (eager Celery), review, publish, diff, protests."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import Refused
from core.roles import ARBITER, PLAYER, RATING_OFFICER
from periods import services as period_services
from periods.models import PeriodStatus
from protests import services as protests
from protests.models import Protest
from ratings.calculation import runs
from ratings.models import DraftResult, PublishedList
from tests.factories import build, make_published, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer_client(client):
    client.force_login(make_user(role=RATING_OFFICER))
    return client


def test_only_officers_may_close_calculate_or_publish(client) -> None:
    system, period, players, tournament = build()
    for url in ("ratings:period_close", "ratings:period_calculate", "ratings:period_publish"):
        response = client.post(reverse(url, args=[period.pk]), {"confirm": "1"})
        assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(make_user(role=ARBITER))
    for url in (
        "ratings:period",
        "ratings:period_close",
        "ratings:period_calculate",
        "ratings:period_publish",
    ):
        assert client.post(reverse(url, args=[period.pk]), {"confirm": "1"}).status_code == 403
    period.refresh_from_db()
    assert period.status == PeriodStatus.OPEN


def test_officer_flow_through_the_pages(officer_client, django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament = build()
    c = officer_client
    page = c.get(reverse("ratings:period", args=[period.pk]))
    assert b'id="close-period"' in page.content
    summary = c.get(reverse("ratings:period_close", args=[period.pk])).content.decode()
    assert tournament.name in summary and 'id="confirm"' in summary
    c.post(reverse("ratings:period_close", args=[period.pk]), {"confirm": "1"})
    with django_capture_on_commit_callbacks(execute=True):
        c.post(reverse("ratings:period_calculate", args=[period.pk]), {"confirm": "1"})
    progress = c.get(reverse("ratings:period_progress", args=[period.pk])).json()
    assert progress["status"] == "succeeded" and progress["progress"] == 100 and progress["done"]
    page = c.get(reverse("ratings:period", args=[period.pk]))
    assert b'id="publish"' in page.content and b'id="progress"' in page.content
    by_t = c.get(reverse("ratings:review_tournaments", args=[period.pk]))
    assert tournament.name in by_t.content.decode()
    statuses = c.get(reverse("ratings:review_statuses", args=[period.pk]))
    assert statuses.status_code == 200
    calc = c.get(reverse("ratings:review_player", args=[period.pk, players[1].pk])).content.decode()
    # Opponent, rating, result, expected, change, K; and the forfeit left out with its article.
    assert "2000" in calc and "0.64" in calc and "-12.80" in calc and "fide-2024 5.1" in calc
    summary = c.get(reverse("ratings:period_publish", args=[period.pk])).content.decode()
    assert 'id="confirm"' in summary
    response = c.post(
        reverse("ratings:period_publish", args=[period.pk]), {"note": "", "confirm": "1"}
    )
    published = PublishedList.objects.get(period=period)
    assert response["Location"] == reverse("ratings:list", args=[published.pk])
    # Nothing new to publish now.
    c.post(reverse("ratings:period_publish", args=[period.pk]), {"confirm": "1"})
    assert PublishedList.objects.filter(period=period).count() == 1


def test_second_calculate_request_gets_a_clear_refusal(officer_client) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    runs.calculation_request(period=period, enqueue=False)  # queued, no worker yet
    response = officer_client.post(
        reverse("ratings:period_calculate", args=[period.pk]), {"confirm": "1"}, follow=True
    )
    assert "already queued" in response.content.decode()


def test_player_protests_within_the_deadline_and_officer_upholds(
    client, django_capture_on_commit_callbacks
) -> None:
    system, period, players, tournament, published = make_published(
        django_capture_on_commit_callbacks
    )
    user = make_user(role=PLAYER)
    players[0].user = user
    players[0].save()
    client.force_login(user)
    client.post(
        reverse("ratings:protest_create", args=[published.pk]),
        {"text": "Round 1 was a draw.", "tournament": tournament.pk},
    )
    protest = Protest.objects.get()
    assert protest.player == players[0]
    client.force_login(make_user(role=RATING_OFFICER))
    client.post(
        reverse("ratings:protest_decide", args=[protest.pk]), {"upheld": "1", "decision": "ok"}
    )
    protest.refresh_from_db()
    period.refresh_from_db()
    assert protest.status == "upheld" and period.needs_recalculation


def test_protest_after_the_deadline_is_refused() -> None:
    import datetime as dt

    from django.utils import timezone

    from tests.factories import make_published_list

    system, period, players, tournament = build()
    published = make_published_list(period, players[:1])
    PublishedList.objects.filter(pk=published.pk)  # immutable: build an old one instead
    old = PublishedList.objects.create(
        system=system,
        period=period,
        version=2,
        list_date=period.list_date,
        published_at=timezone.now() - dt.timedelta(days=system.protest_days + 1),
        ruleset="fide-2024",
        engine_version="test",
    )
    user = make_user(role=PLAYER)
    players[0].user = user
    players[0].save()
    with pytest.raises(Refused, match="deadline"):
        protests.protest_submit(published=old, player=players[0], user=user, text="late")


def test_the_status_changes_name_the_earlier_status_in_words(
    officer_client, django_capture_on_commit_callbacks
) -> None:
    """Issue 14 item 14: the review showed the stored code ("inactive") beside the new
    status's words; both are the reader's words now."""
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    with django_capture_on_commit_callbacks(execute=True):
        run = runs.calculation_request(period=period)
    DraftResult.objects.filter(run=run, player=players[1]).update(previous_status="inactive")
    page = officer_client.get(
        reverse("ratings:review_statuses", args=[period.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert ">Inactivo<" in page and ">inactive<" not in page
