"""The licence roll and the deceased flag (players.licences; docs/lists.md, "Licensed and
deceased players"): the CSV import, fce 9.2's list of every licensed player, fide-2024 10.2's
deceased players leaving the next list."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from core.roles import RATING_OFFICER
from periods.models import PeriodStatus, RatingPeriod
from players import licences
from players.models import Licence, Player, Season
from ratings.models import ListEntry
from ratings.publication import services as publication
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer():
    return factories.make_user("officer-lic", role=RATING_OFFICER)


@pytest.fixture
def season(officer):
    return licences.season_create(
        user=officer, name="2026-2027", start=dt.date(2026, 9, 1), end=dt.date(2027, 8, 31)
    )


def _csv(*lines: str) -> bytes:
    return ("fed_id,category,club,licensed_on\n" + "\n".join(lines) + "\n").encode()


# --------------------------------------------------------------------------- the CSV import


def test_import_preview_counts_then_writes(officer, season) -> None:
    a, b, c = (factories.make_player(fed_id=f"L{i}") for i in range(3))
    Licence.objects.create(
        player=b, season=season, category="Senior", club="Terrassa", licensed_on=dt.date(2026, 9, 2)
    )
    Licence.objects.create(
        player=c, season=season, category="Sub-18", club="Sabadell", licensed_on=dt.date(2026, 9, 3)
    )
    data = _csv(
        "L0,Senior,Terrassa,2026-09-10",  # new
        "L1,Veterà,Terrassa,02/09/2026",  # changed (category)
        "L2,Sub-18,Sabadell,2026-09-03",  # unchanged
    )
    preview = licences.licences_import(user=officer, season=season, data=data, preview=True)
    assert (preview.lines, preview.created, preview.updated, preview.unchanged) == (3, 1, 1, 1)
    assert preview.errors == []
    assert not Licence.objects.filter(player=a).exists()  # a preview writes nothing
    assert Licence.objects.get(player=b).category == "Senior"

    done = licences.licences_import(user=officer, season=season, data=data, preview=False)
    assert (done.created, done.updated, done.unchanged, done.written) == (1, 1, 1, True)
    assert Licence.objects.get(player=a).licensed_on == dt.date(2026, 9, 10)
    assert Licence.objects.get(player=b).category == "Veterà"
    assert Licence.objects.filter(season=season).count() == 3


def test_import_names_the_bad_lines_and_writes_nothing(officer, season) -> None:
    factories.make_player(fed_id="L0")
    factories.make_player(fed_id="L1")
    data = _csv(
        "L0,Senior,Terrassa,2026-09-10",  # line 2: fine
        "NOBODY,Senior,Terrassa,2026-09-10",  # line 3: no such player
        "L1,Senior,Terrassa,31-31-2026",  # line 4: not a date
        "L0,Sub-18,,2026-09-11",  # line 5: L0 twice
    )
    result = licences.licences_import(user=officer, season=season, data=data, preview=False)
    assert not result.written
    joined = "\n".join(result.errors)
    assert "Line 3" in joined and "NOBODY" in joined
    assert "Line 4" in joined and "31-31-2026" in joined
    assert "Line 5" in joined and "line 2" in joined
    assert "Line 2:" not in joined
    assert Licence.objects.count() == 0  # nothing half-written


def test_import_refuses_a_wrong_header_and_non_officers(officer, season) -> None:
    result = licences.licences_import(
        user=officer, season=season, data=b"id;cat\nL0;Senior\n", preview=True
    )
    assert result.errors and result.errors[0].startswith("Line 1")
    with pytest.raises(PermissionDenied):
        licences.licences_import(
            user=factories.make_user("nobody-lic"), season=season, data=_csv(), preview=True
        )


# --------------------------------------------------------------------------- the lists


def _fce_world():
    """An fce system whose October list (published by hand) rated A 2000, B 2100, G 2200;
    the November period has no tournament, so its list carries them."""
    system = factories.make_system(ruleset="fce")
    october = factories.make_period(system, dt.date(2026, 10, 1))
    RatingPeriod.objects.filter(pk=october.pk).update(status=PeriodStatus.PUBLISHED)
    a, b, g = (factories.make_player(fed_id=f"R{i}") for i in range(3))
    factories.make_published_list(
        october, [a, b, g], entries=[{"rating": 2000}, {"rating": 2100}, {"rating": 2200}]
    )
    november = factories.make_period(system, dt.date(2026, 11, 1))  # list date 1 Dec 2026
    return system, november, a, b, g


def _publish(period, capture):
    with capture(execute=True):
        factories.calculate(period)
    return publication.list_publish(period=period)


def test_fce_list_holds_every_licensed_player(
    officer, season, django_capture_on_commit_callbacks
) -> None:
    system, november, a, b, g = _fce_world()
    c = factories.make_player(fed_id="U1")  # unrated, licensed this season
    d = factories.make_player(fed_id="U2")  # unrated, licensed last season only
    factories.make_player(fed_id="U3")  # unrated, no licence
    last = Season.objects.create(
        name="2025-2026", start=dt.date(2025, 9, 1), end=dt.date(2026, 8, 31)
    )
    on = dt.date(2026, 9, 5)
    for player in (a, c):
        licences.licence_set(
            user=officer, player=player, season=season, category="Senior", licensed_on=on
        )
    licences.licence_set(
        user=officer, player=d, season=last, category="Senior", licensed_on=dt.date(2025, 9, 5)
    )
    published = _publish(november, django_capture_on_commit_callbacks)
    entries = {
        e.player.fed_id: (e.rating, e.status)
        for e in ListEntry.objects.filter(published_list=published).select_related("player")
    }
    # fce 9.2: A (rated, licensed) and B (rated, carried) keep their ratings; C, licensed for
    # the season of the list date (1 Dec 2026), is listed without a rating; D's licence is of
    # another season, U3 has none.
    assert entries == {
        "R0": (2000, "rated"),
        "R1": (2100, "rated"),
        "R2": (2200, "rated"),
        "U1": (None, "unrated"),
    }
    assert published.entry_count == 4


def test_other_regulations_list_no_licensed_unrated_player(
    officer, season, django_capture_on_commit_callbacks
) -> None:
    system = factories.make_system(ruleset="fide-2024")
    october = factories.make_period(system, dt.date(2026, 10, 1))
    RatingPeriod.objects.filter(pk=october.pk).update(status=PeriodStatus.PUBLISHED)
    rated = factories.make_player()
    factories.make_published_list(october, [rated])
    unrated = factories.make_player()
    licences.licence_set(
        user=officer,
        player=unrated,
        season=season,
        category="Senior",
        licensed_on=dt.date(2026, 9, 5),
    )
    published = _publish(
        factories.make_period(system, dt.date(2026, 11, 1)), django_capture_on_commit_callbacks
    )
    assert list(
        ListEntry.objects.filter(published_list=published).values_list("player_id", flat=True)
    ) == [rated.pk]


def test_deceased_leave_the_next_list_and_keep_their_record(
    officer, client, django_capture_on_commit_callbacks
) -> None:
    system, november, a, b, g = _fce_world()
    october_list = ListEntry.objects.get(player=g).published_list
    licences.player_deceased_set(user=officer, player=g, deceased_on=dt.date(2026, 11, 20))
    published = _publish(november, django_capture_on_commit_callbacks)
    listed = set(
        ListEntry.objects.filter(published_list=published).values_list("player__fed_id", flat=True)
    )
    assert listed == {"R0", "R1"}  # fide-2024 10.2: G is out of the next list
    # His record and his earlier entry stay.
    assert Player.objects.filter(pk=g.pk, deceased_on=dt.date(2026, 11, 20)).exists()
    assert ListEntry.objects.filter(player=g, published_list=october_list, rating=2200).exists()
    # The history keeps the change (pghistory, as every column of the player).
    assert g.events.filter(deceased_on=dt.date(2026, 11, 20)).exists()
    # The card says so.
    page = client.get(reverse("players:detail", args=[g.fed_id]))
    assert page.status_code == 200
    assert 'id="deceased"' in page.content.decode()


def test_deceased_date_in_the_future_refused_and_clearing(officer) -> None:
    from core.errors import Refused

    player = factories.make_player()
    with pytest.raises(Refused):
        licences.player_deceased_set(
            user=officer, player=player, deceased_on=dt.date.today() + dt.timedelta(days=2)
        )
    licences.player_deceased_set(user=officer, player=player, deceased_on=dt.date(2026, 1, 2))
    licences.player_deceased_set(user=officer, player=player, deceased_on=None)
    player.refresh_from_db()
    assert player.deceased_on is None


def test_card_shows_the_licence(officer, season, client) -> None:
    player = factories.make_player()
    licences.licence_set(
        user=officer,
        player=player,
        season=season,
        category="Sub-16",
        club="Club Escacs Sants",
        licensed_on=dt.date(2026, 9, 5),
    )
    html = client.get(reverse("players:detail", args=[player.fed_id])).content.decode()
    assert "2026-2027" in html and "Sub-16" in html and "Club Escacs Sants" in html


def test_officer_pages_import_and_record_death(officer, season, client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    player = factories.make_player(fed_id="W1")
    client.force_login(officer)
    upload = SimpleUploadedFile("l.csv", _csv("W1,Senior,Terrassa,2026-09-10"), "text/csv")
    page = client.post(
        reverse("players:licences"), {"import": "1", "season": season.pk, "file": upload}
    )
    assert page.status_code == 200
    assert Licence.objects.filter(player=player).count() == 1  # preview unchecked: written
    page = client.post(reverse("players:deceased", args=["W1"]), {"deceased_on": "2026-10-01"})
    assert page.status_code == 302
    player.refresh_from_db()
    assert player.deceased_on == dt.date(2026, 10, 1)


# --------------------------------------------------------------------------- withdrawing one


def _licensed(officer, season, fed_id: str = "D1") -> Licence:
    return licences.licence_set(
        user=officer,
        player=factories.make_player(fed_id=fed_id),
        season=season,
        category="Senior",
        club="Club Escacs Sants",
        licensed_on=dt.date(2026, 9, 5),
    )


def test_the_officer_withdraws_a_licence_after_confirming(officer, season, client) -> None:
    licence = _licensed(officer, season)
    player = licence.player
    form_page = reverse("players:licence", args=[player.fed_id])
    url = reverse("players:licence_delete", args=[player.fed_id, licence.pk])
    client.force_login(officer)
    assert url in client.get(form_page).content.decode()  # the licence's row links to it
    confirm = client.get(url)
    assert confirm.status_code == 200
    html = confirm.content.decode()
    assert "2026-2027" in html and 'id="confirm"' in html
    assert Licence.objects.filter(pk=licence.pk).exists()  # the GET asks, writes nothing
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == form_page
    assert not Licence.objects.filter(pk=licence.pk).exists()
    card = client.get(reverse("players:detail", args=[player.fed_id])).content.decode()
    assert "Senior" not in card


def test_withdrawing_is_for_officers_only(officer, season, client) -> None:
    licence = _licensed(officer, season)
    url = reverse("players:licence_delete", args=[licence.player.fed_id, licence.pk])
    arbiter = factories.make_user("arbiter-lic", role="arbiter")
    with pytest.raises(PermissionDenied):
        licences.licence_delete(user=arbiter, licence=licence)
    client.force_login(arbiter)
    assert client.post(url).status_code == 403
    # Another player's address does not reach this licence.
    other = factories.make_player(fed_id="D2")
    client.force_login(officer)
    wrong = reverse("players:licence_delete", args=[other.fed_id, licence.pk])
    assert client.post(wrong).status_code == 404
    assert Licence.objects.filter(pk=licence.pk).exists()


def test_the_api_deletes_a_licence(officer, season, client) -> None:
    licence = _licensed(officer, season)
    url = f"/api/v1/licences/{licence.pk}/"
    client.force_login(factories.make_user("arbiter-lic-api", role="arbiter"))
    assert client.delete(url).status_code == 403
    client.force_login(officer)
    assert client.delete(url).status_code == 204
    assert not Licence.objects.filter(pk=licence.pk).exists()
    missing = client.delete(url)
    assert missing.status_code == 404 and missing.json()["status"] == 404


def test_the_licence_form_shows_its_date_in_every_language(officer, season, client) -> None:
    # <input type="date"> reads only YYYY-MM-DD: a date written in the reader's format
    # (05/09/2026 in Spanish) leaves the box empty, and the officer re-types it.
    licence = _licensed(officer, season)
    client.force_login(officer)
    url = reverse("players:licence", args=[licence.player.fed_id])
    for lang in ("en", "es", "ca", "pt"):
        client.get(f"/language/{lang}/")
        html = client.get(url).content.decode()
        assert 'type="date" name="licensed_on" value="2026-09-05"' in html, lang
