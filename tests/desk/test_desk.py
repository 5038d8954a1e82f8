"""The officer's desk (desk/): what waits for him in every app, and its page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from core.outbox import OutboxMail
from core.roles import ARBITER, RATING_OFFICER
from desk import selectors
from periods.models import PeriodStatus
from tests.factories import (
    build,
    make_protest,
    make_published_list,
    make_tournament,
    make_user,
)

pytestmark = pytest.mark.django_db


def test_desk_lists_what_waits_for_the_officer() -> None:
    system, period, players, _validated = build()
    arbiter = make_user("arb", role=ARBITER)
    pending = make_tournament(system, arbiter, late_registration=True, name="Pending late")
    make_tournament(
        system, arbiter, late_registration=True, approved_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    )
    waiting = make_tournament(
        system, arbiter, status="report_received", period=period, name="Waiting report"
    )
    published_period = make_tournament(system, arbiter).rating_system.periods.create(
        start=dt.date(2026, 10, 1),
        end=dt.date(2026, 10, 31),
        closing_date=dt.date(2026, 10, 28),
        list_date=dt.date(2026, 11, 1),
        status=PeriodStatus.PUBLISHED,
    )
    published = make_published_list(published_period, players[:2])
    protest = make_protest(published, players[0], make_user("pl"))
    desk = selectors.desk_for_officer()
    assert list(desk.late_registrations) == [pending]
    assert list(desk.reports_waiting) == [waiting]
    assert list(desk.protests) == [protest]
    assert list(desk.periods) == ["open"]
    [card] = desk.periods["open"]
    assert card.period == period and card.contents.tournaments == 2
    assert not desk.recalculation


def test_officers_have_no_administration_link_staff_do(client) -> None:
    officer = make_user("officer", role=RATING_OFFICER)
    client.force_login(officer)
    page = client.get(reverse("ratings:desk")).content.decode()
    assert reverse("admin:index") not in page and reverse("ratings:desk") in page
    officer.is_staff = True
    officer.save()
    assert reverse("admin:index") in client.get(reverse("ratings:desk")).content.decode()


def test_the_desk_counts_the_e_mails_that_could_not_be_sent(client) -> None:
    officer = make_user("officer", role=RATING_OFFICER)
    client.force_login(officer)
    assert 'id="mail-trouble"' not in client.get(reverse("ratings:desk")).content.decode()
    for status, attempts in [("failed", 50), ("failed", 50), ("pending", 3), ("pending", 0)]:
        OutboxMail.objects.create(
            kind="test",
            recipients=["x@example.org"],
            subject="s",
            body="b",
            status=status,
            attempts=attempts,
        )
    OutboxMail.objects.create(kind="test", recipients=["y@example.org"], subject="s", body="")
    OutboxMail.objects.filter(recipients=["y@example.org"]).update(status="sent", attempts=1)
    assert selectors.desk_for_officer().mail == {"failed": 2, "retrying": 1}
    page = client.get(reverse("ratings:desk"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="mail-trouble"' in page
    assert "2 correos no se pudieron enviar" in page and "1 correo espera" in page
    page = client.get(reverse("ratings:desk")).content.decode()  # (English again, for the next)
    assert "2 e-mails could not be sent and were given up." in page
    assert reverse("admin:core_outboxmail_changelist") not in page  # not staff: no admin link


def test_a_large_status_group_on_the_desk_links_to_its_tournaments(client, monkeypatch) -> None:
    """A period card's group of more than `lines_max` tournaments shows its totals and a link
    to them, a page at a time, on the period's close page (open) or calculate page."""
    import dataclasses

    from desk import views as desk_views

    monkeypatch.setattr(
        desk_views,
        "desk_for_officer",
        lambda: dataclasses.replace(selectors.desk_for_officer(), lines_max=1),
    )
    system, period, _players, _validated = build()
    for n in range(2):
        make_tournament(system, make_user(), status="report_received", period=period, name=f"W{n}")
    client.force_login(make_user("officer", role=RATING_OFFICER))
    page = client.get(reverse("ratings:desk")).content.decode()
    close = reverse("ratings:period_close", args=[period.pk])
    assert f'href="{close}?group=report_received#group-lines"' in page
    group = page[page.index('<tbody data-status="report_received"') :]
    group = group[: group.index("</tbody>")]
    assert "W0" not in group and "List its 2 tournaments" in group
