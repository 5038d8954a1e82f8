"""The arbiter's month with a real report, in Debian's Chromium (issue 14): register through the
form, upload the San Viator 2018 TRF (137 players, 7 rounds; ../shared/data/trf), create the
137 new players in one click, see the tournament validated and on the desk.

The file's tournament is the one registered: its three date records (042, 052 and the round
dates of 132) are moved by whole days to the registered dates, nothing else is changed, so
the report checks compare the real file with its registration."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from players.models import Player
from tests.browser.pages import tournament_register
from tests.factories import make_system, make_user
from tests.shared_data import SHARED_DATA
from tournaments.models import Tournament

TRF = SHARED_DATA / "trf" / "open-swiss-137p-7r-esp-2018-byes-forfeits.trf"
FILE_START = dt.date(2018, 4, 8)
FILE_END = dt.date(2018, 6, 10)


def _moved(data: bytes, days: int) -> bytes:
    """The file with its dates moved by `days`: 042/052 (DD/MM/YYYY) and 132 (YY/MM/DD)."""

    def long(m: re.Match[bytes]) -> bytes:
        d = dt.datetime.strptime(m.group(2).decode(), "%d/%m/%Y").date() + dt.timedelta(days)
        return m.group(1) + d.strftime("%d/%m/%Y").encode()

    def short(m: re.Match[bytes]) -> bytes:
        d = dt.datetime.strptime(m.group(0).decode(), "%y/%m/%d").date() + dt.timedelta(days)
        return d.strftime("%y/%m/%d").encode()

    out = []
    for line in data.split(b"\n"):
        if line[:3] in (b"042", b"052"):
            line = re.sub(rb"^(0[45]2 )(\d\d/\d\d/\d{4})", long, line)
        elif line[:3] == b"132":
            line = re.sub(rb"\d\d/\d\d/\d\d", short, line)
        out.append(line)
    return b"\n".join(out)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_real_trf_registered_uploaded_bulk_created_validated(
    browser_page, live_server, login
) -> None:
    if not TRF.exists():
        pytest.skip(f"shared sample {TRF.name} not available")
    page = browser_page
    system = make_system(name="FIDE standard", ruleset="fide-2024", rate_of_play="standard")
    make_user("arbitro", role=roles.ARBITER)
    length = (FILE_END - FILE_START).days

    login(page, "arbitro")
    start = timezone.localdate() + dt.timedelta(days=40)
    tournament = tournament_register(
        page,
        name="XXX Torneo San Viator",
        city="Madrid",
        start=start,
        end=start + dt.timedelta(days=length),
        system="swiss",
        rounds=7,
        chief_arbiter="F. J. Sanz Morinigo",
        rating_system=system,
    )
    assert not tournament.late_registration

    # Two months later the tournament is over (its last day three days ago).
    shift = (start - timezone.localdate()).days + length + 3
    Tournament.objects.filter(pk=tournament.pk).update(
        start_date=tournament.start_date - dt.timedelta(days=shift),
        end_date=tournament.end_date - dt.timedelta(days=shift),
        registered_at=tournament.registered_at - dt.timedelta(days=shift),
    )
    tournament.refresh_from_db()
    data = _moved(TRF.read_bytes(), (tournament.start_date - FILE_START).days)

    page.goto(f"{live_server.url}/tournaments/desk/")
    assert page.get_attribute("#desk-registered tr >> nth=1", "data-action") == "upload"
    page.click(f"#desk-registered a[href='/tournaments/{tournament.pk}/manage/'] >> nth=1")
    page.set_input_files(
        "#id_file", files=[{"name": "sanviator.trf", "mimeType": "text/plain", "buffer": data}]
    )
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#matching-summary")
    assert "0 matched, 0 ambiguous, 137 new." in page.inner_text("#matching-summary")
    errors = page.locator("#problems tr.problem-error")
    assert errors.count() == 0, errors.all_inner_texts()

    page.click("#review-players")
    expect(page.locator("tr.match-new")).to_have_count(137)
    page.click("#create-all-new")
    page.wait_for_selector("text=The tournament is validated.")
    assert page.inner_text("#tournament-status") == "Validated"
    expect(page.locator("tr.match-matched")).to_have_count(137)
    assert Player.objects.count() == 137
    tournament.refresh_from_db()
    assert tournament.status == "validated" and tournament.games.count() > 400

    page.goto(f"{live_server.url}/tournaments/desk/")
    assert page.get_attribute("#desk-validated tr >> nth=1", "data-action") == "await_rating"
