"""The scale's health (feda-1996 11.1-11.2, fide-2000 12.1-12.3; ratings.statistics): each
figure of a small list against a direct computation in plain Python over the list's values
(not the SQL under test), the publication's step, the drift check and its e-mail, the pages,
the CSV, the yearly report (HTML and PDF), the API and the backfill."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from core.outbox import OutboxMail
from core.roles import RATING_OFFICER
from ratings.lists.filters import ACTIVE_STATUSES as LIST_ACTIVE_STATUSES
from ratings.models import ListStatistics, ScaleMonitoring
from ratings.statistics import selectors, services
from tests.factories import (
    make_period,
    make_player,
    make_published,
    make_published_list,
    make_system,
    make_user,
)

pytestmark = pytest.mark.django_db

LIST_YEAR = 2027  # make_period(start=2026-12-01) publishes on 2027-01-01


def _percentile(values: list[float], p: float) -> float:
    """The continuous percentile, by its definition: position p·(n-1) in the sorted values,
    interpolated linearly between its neighbours."""
    ordered = sorted(values)
    pos = p * (len(ordered) - 1)
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _expected(entries: list[dict[str, Any]]) -> dict[str, Any]:
    rated = [e for e in entries if e["rating"] is not None and e["status"] != "out_of_list"]
    ratings = [e["rating"] for e in rated]
    desc = sorted(ratings, reverse=True)
    played = [e["change"] for e in rated if e["games"] > 0]
    return {
        "players": len(rated),
        "active": sum(
            1 for e in rated if not e["inactive"] and e["status"] in ("rated", "new", "provisional")
        ),
        "new": sum(1 for e in rated if e["status"] == "new"),
        "mean": sum(ratings) / len(ratings),
        "median": _percentile(ratings, 0.5),
        "deciles": [_percentile(ratings, d / 10) for d in range(1, 10)],
        "top50": sum(desc[:50]) / len(desc[:50]),
        "top10": sum(desc[:10]) / len(desc[:10]),
        "mean_change": sum(played) / len(played) if played else None,
    }


def _band(birth_year: int | None) -> str:
    # Bands by birth year against the list's year (ratings.models.AgeBand).
    if birth_year is None:
        return "unknown"
    age = LIST_YEAR - birth_year
    if age <= 20:
        return "u20"
    if age >= 65:
        return "s65"
    if age >= 50:
        return "s50"
    return "a20"


def _small_list() -> tuple[Any, list[dict[str, Any]], list[Any]]:
    """A feda-1996 list of 64 entries: ratings spread unevenly, three regions and none, birth
    years in every band, new, inactive, provisional and out-of-list entries."""
    system = make_system(ruleset="feda-1996", cycle="semestral")
    period = make_period(system, start=dt.date(2026, 12, 1))
    regions = ["Madrid", "Galicia", "Aragón", ""]
    years = [2010, 1990, 1970, 1955, None, 2007]
    players, entries = [], []
    for i in range(64):
        players.append(
            make_player(region=regions[i % 4], birth_year=years[i % 6], surname=f"S{i:02d}")
        )
        status = "rated"
        if i % 11 == 3:
            status = "new"
        elif i % 13 == 5:
            status = "provisional"
        elif i == 7:
            status = "out_of_list"
        entries.append(
            {
                "rating": None if i == 9 else 1805 + (i * 37) % 700 + (i % 3),
                "change": (i % 7) - 3,
                "games": 0 if i % 5 == 0 else 4 + i % 3,
                "inactive": i % 9 == 4,
                "status": status,
            }
        )
    published = make_published_list(period, players, entries=entries)
    return published, entries, players


def _check(row: ListStatistics, want: dict[str, Any]) -> None:
    assert (row.players, row.active, row.new) == (want["players"], want["active"], want["new"])
    assert row.mean == pytest.approx(want["mean"])
    assert row.median == pytest.approx(want["median"])
    assert row.deciles == pytest.approx(want["deciles"])
    assert row.top50 == pytest.approx(want["top50"])
    assert row.top10 == pytest.approx(want["top10"])
    if want["mean_change"] is None:
        assert row.mean_change is None
    else:
        assert row.mean_change == pytest.approx(want["mean_change"])


def test_each_figure_against_a_direct_computation() -> None:
    published, entries, players = _small_list()
    written = services.list_statistics_compute(published=published)
    rows = {(r.scope, r.group): r for r in ListStatistics.objects.filter(published_list=published)}
    regions = {p.region for p in players}
    bands = {_band(p.birth_year) for p in players}
    assert written == len(rows) == 1 + len(regions) + len(bands)
    _check(rows["all", ""], _expected(entries))
    for region in regions:
        subset = [e for e, p in zip(entries, players) if p.region == region]
        _check(rows["region", region], _expected(subset))
    for band in bands:
        subset = [e for e, p in zip(entries, players) if _band(p.birth_year) == band]
        _check(rows["age", band], _expected(subset))
    # Written once: a second call adds nothing.
    assert services.list_statistics_compute(published=published) == 0


def _figures(published: Any) -> dict[tuple[str, str], tuple[Any, ...]]:
    return {
        (r.scope, r.group): (
            r.players,
            r.active,
            r.new,
            r.mean,
            r.median,
            r.deciles,
            r.top50,
            r.top10,
            r.mean_change,
        )
        for r in ListStatistics.objects.filter(published_list=published)
    }


def test_the_publications_figures_from_the_entries_snapshot_are_the_players() -> None:
    """At publication the figures read the region and birth year the entries just copied from
    the players (no join of the registry): the same figures as from the players' rows; and
    they are read from the entries indeed (another snapshot gives other groups)."""
    published, entries, players = _small_list()
    services.list_statistics_compute(published=published)
    from_players = _figures(published)

    def with_snapshot(version: int, region: Any) -> Any:
        return make_published_list(
            published.period,
            players,
            version=version,
            entries=[
                {**entry, "region": region(p), "birth_year": p.birth_year}
                for entry, p in zip(entries, players, strict=True)
            ],
        )

    same = with_snapshot(2, lambda p: p.region)
    services.list_statistics_compute(published=same, snapshot=True)
    assert _figures(same) == from_players
    moved = with_snapshot(3, lambda p: "Elsewhere")
    services.list_statistics_compute(published=moved, snapshot=True)
    assert {g for s, g in _figures(moved) if s == "region"} == {"Elsewhere"}


def test_hand_worked_five_players() -> None:
    """2000, 2100, 2200, 2300, 2400: mean and median 2200; D1 = 2000 + 0.4 × 100 = 2040,
    D9 = 2300 + 0.6 × 100 = 2360; top 10 and top 50 are all five (2200); mean change of those
    who played: (+10 − 4) / 2 = 3."""
    system = make_system(ruleset="feda-1996", cycle="semestral")
    period = make_period(system, start=dt.date(2026, 12, 1))
    players = [make_player(birth_year=1980) for _ in range(5)]
    entries = [
        {"rating": 2000 + 100 * i, "change": [10, -4, 0, 0, 0][i], "games": [5, 5, 0, 0, 0][i]}
        for i in range(5)
    ]
    published = make_published_list(period, players, entries=entries)
    services.list_statistics_compute(published=published)
    row = ListStatistics.objects.get(published_list=published, scope="all")
    assert (row.players, row.mean, row.median) == (5, 2200.0, 2200.0)
    assert row.deciles[0] == pytest.approx(2040) and row.deciles[8] == pytest.approx(2360)
    assert (row.top10, row.top50, row.mean_change) == (2200.0, 2200.0, 3.0)
    (band,) = ListStatistics.objects.filter(published_list=published, scope="age")
    assert (band.group, band.players) == ("a20", 5)  # born 1980: 47 in 2027


def test_active_statuses_agree_with_the_list_pages() -> None:
    assert services.ACTIVE_STATUSES == LIST_ACTIVE_STATUSES


def test_publication_computes_the_statistics(django_capture_on_commit_callbacks) -> None:
    _system, _period, _players, _rated, published = make_published(
        django_capture_on_commit_callbacks
    )
    row = ListStatistics.objects.get(published_list=published, scope="all")
    assert row.players == published.entries.exclude(rating=None).count()
    assert row.list_date == published.list_date


# ------------------------------------------------------------------------------ drift


def _lists_with_tops(system: Any, tops: list[int]) -> list[Any]:
    """One list per half year, each of 50 players all rated `top` (so the top-50 average is
    `top`), published and stepped through the publication's statistics step."""
    players = [make_player() for _ in range(50)]
    published = []
    last = system.periods.order_by("-start").first()
    start = dt.date(2024, 12, 1) if last is None else (last.start + dt.timedelta(days=190))
    start = start.replace(day=1)
    for top in tops:
        period = make_period(system, start=start)
        made = make_published_list(period, players, entries=[{"rating": top}] * 50)
        services.list_statistics_publish_step(published=made)
        published.append(made)
        start = (start + dt.timedelta(days=190)).replace(day=1)
    return published


def test_drift_over_the_officers_lists_emails_the_officers() -> None:
    officer = make_user(role=RATING_OFFICER, email="officer@example.org")
    system = make_system(ruleset="feda-1996", cycle="semestral")
    ScaleMonitoring.objects.create(system=system, threshold=10, lists=2)
    _lists_with_tops(system, [2000, 2004, 2011])
    drift = selectors.drift_check(system=system)
    assert drift is not None
    # feda-1996 11.1: the top 50 across lists; 2011 − 2000 over 2 lists, more than 10.
    assert (drift.before, drift.after, drift.moved, drift.lists) == (2000, 2011, 11, 2)
    assert drift.exceeded and drift.article == "feda-1996 11.1" and drift.group_size == 50
    (mail,) = OutboxMail.objects.filter(kind="ratings.scale_drift")
    assert mail.recipients == [officer.email]
    assert "+11.0" in mail.body and "feda-1996 11.1" in mail.body
    assert [d.system for d in selectors.drift_alerts()] == [system]


def test_no_drift_within_the_threshold_or_with_too_few_lists() -> None:
    make_user(role=RATING_OFFICER, email="officer@example.org")
    system = make_system(ruleset="fide-2000", cycle="quarterly")
    ScaleMonitoring.objects.create(system=system, threshold=10, lists=3)
    _lists_with_tops(system, [2000, 2020, 2030])
    assert selectors.drift_check(system=system) is None  # 3 lists: none 3 lists before
    _lists_with_tops(system, [2010])  # 2010 − 2000 = 10: not more than 10
    drift = selectors.drift_check(system=system)
    assert drift is not None and drift.moved == 10 and not drift.exceeded
    assert drift.article == "fide-2000 12.3"
    assert not OutboxMail.objects.filter(kind="ratings.scale_drift").exists()


def test_a_regulation_without_the_article_has_no_drift_check() -> None:
    system = make_system(ruleset="fide-2024")
    ScaleMonitoring.objects.create(system=system, threshold=1, lists=1)
    _lists_with_tops(system, [2000, 2100])
    assert selectors.drift_check(system=system) is None
    assert ListStatistics.objects.filter(system=system, scope="all").count() == 2


def test_the_desk_and_its_api_show_the_drift(client) -> None:
    officer = make_user(role=RATING_OFFICER)
    system = make_system(ruleset="feda-1996", cycle="semestral", name="FEDA Std")
    ScaleMonitoring.objects.create(system=system, threshold=5, lists=1)
    _lists_with_tops(system, [2000, 2010])
    client.force_login(officer)
    page = client.get(reverse("ratings:desk")).content.decode()
    assert 'id="scale-drift"' in page and "FEDA Std" in page and "feda-1996 11.1" in page
    data = client.get("/api/v1/desk/").json()
    assert [(d["system"], d["moved"]) for d in data["drift"]] == [(system.code, 10.0)]


# ------------------------------------------------------------------------------ pages


def test_statistics_page_csv_and_report(client) -> None:
    published, entries, _players = _small_list()
    services.list_statistics_compute(published=published)
    system = published.system
    want = _expected(entries)
    page = client.get(reverse("ratings:statistics", args=[system.code]))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<svg") == 3 and "<table" in html
    assert f"{want['top50']:.1f}" in html
    rows = list(
        csv.DictReader(
            io.StringIO(
                client.get(reverse("ratings:statistics_csv", args=[system.code])).content.decode()
            )
        )
    )
    whole = next(r for r in rows if r["scope"] == "all")
    assert float(whole["top50"]) == pytest.approx(want["top50"], abs=0.005)
    assert float(whole["mean"]) == pytest.approx(want["mean"], abs=0.005)
    assert {r["group"] for r in rows if r["scope"] == "region"} == {
        "Madrid",
        "Galicia",
        "Aragón",
        "",
    }
    report = client.get(reverse("ratings:statistics_report", args=[system.code, LIST_YEAR]))
    assert report.status_code == 200 and "feda-1996 11.1" in report.content.decode()
    pdf = client.get(reverse("ratings:statistics_report_pdf", args=[system.code, LIST_YEAR]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_officer_sets_the_drift_check(client) -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral")
    url = reverse("ratings:scale_monitoring", args=[system.code])
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    officer = make_user(role=RATING_OFFICER)
    client.force_login(officer)
    assert client.get(url).status_code == 200
    response = client.post(url, {"threshold": "15.5", "lists": "3"})
    assert response.status_code == 302
    saved = ScaleMonitoring.objects.get(system=system)
    assert (saved.threshold, saved.lists, saved.updated_by) == (15.5, 3, officer)
    assert client.post(url, {"threshold": "0", "lists": "3"}).status_code == 200  # refused


def test_api_statistics_and_monitoring(client) -> None:
    published, entries, _players = _small_list()
    services.list_statistics_compute(published=published)
    system = published.system
    data = client.get(f"/api/v1/statistics/?system={system.code}&scope=all").json()
    (row,) = data["results"]
    want = _expected(entries)
    assert row["top50"] == pytest.approx(want["top50"]) and row["mean"] == pytest.approx(
        want["mean"]
    )
    url = f"/api/v1/scale-monitoring/{system.code}/"
    assert client.get(url).status_code in (401, 403)
    client.force_login(make_user(role=RATING_OFFICER))
    got = client.get(url).json()
    assert (got["threshold"], got["lists"], got["article"]) == (10.0, 4, "feda-1996 11.1")
    put = client.put(url, {"threshold": 12, "lists": 2}, content_type="application/json")
    assert put.status_code == 200 and put.json()["lists"] == 2
    assert ScaleMonitoring.objects.get(system=system).threshold == 12


def test_backfill_computes_the_lists_without_figures() -> None:
    published, entries, _players = _small_list()
    assert not ListStatistics.objects.filter(published_list=published).exists()
    out = io.StringIO()
    call_command("statistics_backfill", stdout=out)
    assert out.getvalue().startswith("1 lists computed")
    row = ListStatistics.objects.get(published_list=published, scope="all")
    assert row.top50 == pytest.approx(_expected(entries)["top50"])
    call_command("statistics_backfill", stdout=out)  # nothing left: nothing written twice
    assert ListStatistics.objects.filter(published_list=published, scope="all").count() == 1
