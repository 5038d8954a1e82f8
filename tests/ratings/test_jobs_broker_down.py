"""Issue 28: work sent to the workers when their broker cannot be reached. A calculation or a
list import asked for in a page or the API is refused with 503 and Retry-After, and nothing is
kept (no run or job waiting for a message that was never sent; the period's mark as it was).
A publication is not refused (it is committed and cannot be taken back) and needs no task: its
ranks and filter columns are written with its entries (issue 27); the watchdog of the ranks task
(ratings.watch_list_ranks) only sends it for lists that lack them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import RETRY_AFTER_SECONDS
from core.roles import RATING_OFFICER
from lists.models import ListImportChunk, ListImportJob
from periods import services as period_services
from players.models import Player
from ratings.calculation import runs
from ratings.lists import ranks
from ratings.models import CalculationRun, ListEntry, ListFilterRow, ListRank, PublishedList
from ratings.publication import services as publication
from tests.factories import build, make_published_list, make_system, make_user
from tests.tournaments.test_upload_broker_down import broker_away  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

CSV = b'fide_id,name,rating\n900001,"Lopez, Eve",2301\n'


def _closed_period():
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    period.refresh_from_db()
    return period


def test_a_calculation_asked_in_the_page_is_refused_and_nothing_kept(
    client,
    broker_away,  # noqa: F811
) -> None:
    period = _closed_period()
    type(period).objects.filter(pk=period.pk).update(needs_recalculation=True)
    client.force_login(make_user(role=RATING_OFFICER))
    client.raise_request_exception = False  # Django's handler500 answers, as in production
    url = reverse("ratings:period_calculate", args=[period.pk])
    response = client.post(url, {"confirm": "1"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "procesos de trabajo" in response.content.decode()
    assert not CalculationRun.objects.exists()
    period.refresh_from_db()
    assert period.needs_recalculation  # the mark as it was before the request
    # The broker back (eager here): the same request runs.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        assert client.post(url, {"confirm": "1"}).status_code == 302
    assert CalculationRun.objects.get().status == "succeeded"


def test_a_calculation_asked_in_the_api_is_refused_in_its_error_shape(
    broker_away,  # noqa: F811
) -> None:
    period = _closed_period()
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(make_user(role=RATING_OFFICER))
    response = client.post(f"/api/v1/periods/{period.pk}/calculate/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json()["code"] == "unavailable"
    assert not CalculationRun.objects.exists()


def test_a_list_import_is_refused_and_its_file_not_kept(
    client,
    broker_away,  # noqa: F811
) -> None:
    system = make_system(name="FEDA Standard", rate_of_play="standard")
    client.force_login(make_user("officer-lists", role=RATING_OFFICER))
    client.raise_request_exception = False
    data = {"system": system.pk, "format": "csv", "file": SimpleUploadedFile("l.csv", CSV)}
    response = client.post(reverse("ratings:list_import"), data)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert not ListImportJob.objects.exists() and not ListImportChunk.objects.exists()


def test_a_publication_stands_with_its_ranks_and_the_watchdog_has_nothing_to_send(
    broker_away,  # noqa: F811
) -> None:
    period = _closed_period()
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        runs.calculation_request(period=period)
    published = publication.list_publish(period=period)  # no task to send
    assert PublishedList.objects.filter(pk=published.pk).exists()
    entries = ListEntry.objects.filter(published_list=published)
    assert entries.exists() and not entries.filter(name_key__isnull=True).exists()
    assert entries.filter(rank_national=1).exists()
    later = timezone.now() + ranks.RANKS_OVERDUE + dt.timedelta(seconds=1)
    assert ranks.list_ranks_overdue_ids(now=later) == []
    assert not ListFilterRow.objects.exists() and not ListRank.objects.exists()
    # A list without them (published before issue 27, or imported) is still sent its task.
    older = make_published_list(
        published.period, list(Player.objects.order_by("pk")[:3]), version=2
    )
    assert ranks.list_ranks_overdue_ids(now=later) == [older.pk]
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        assert ranks.list_ranks_watch(now=later) == [older.pk]
    assert ListRank.objects.filter(published_list=older).count() == 3
    assert ListFilterRow.objects.filter(published_list=older).count() == 3
    assert ranks.list_ranks_overdue_ids(now=later) == []
