"""The scale's health pages (feda-1996 11.1-11.2, fide-2000 12.1-12.3): a rating system's
statistics across its lists with charts and tables, their CSV, the yearly report for the
commission (HTML and PDF), and the officer's drift settings. Thin: ratings.statistics reads and
writes."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core.permissions import objectgetter, permission_required
from periods.models import RatingSystem
from ratings.forms import ScaleMonitoringForm
from ratings.models import AgeBand, ListStatistics
from ratings.statistics import selectors, services
from ratings.statistics.charts import scale_chart_svg
from ratings.statistics.report_pdf import year_report_pdf

_system = objectgetter(RatingSystem, "code", "code")

#: The figures of a row, in the order the tables and the CSV give them.
FIGURES = ("players", "active", "new", "mean", "median", "top50", "top10", "mean_change")


def _figure_labels() -> dict[str, str]:
    return {
        "players": _("Players"),
        "active": _("Active"),
        "new": _("New"),
        "mean": _("Mean"),
        "median": _("Median"),
        "top50": _("Top-50 average"),
        "top10": _("Top-10 average"),
        "mean_change": _("Mean change"),
    }


def _charts(rows: list[ListStatistics]) -> list[dict[str, Any]]:
    labels = _figure_labels()
    charts = []
    for ident, title, fields in (
        ("level", _("Mean, median and top averages"), ("mean", "median", "top50", "top10")),
        ("players", _("Players and active players"), ("players", "active", "new")),
        ("change", _("Mean change of those who played"), ("mean_change",)),
    ):
        names = [labels[f] for f in fields]
        charts.append(
            {
                "ident": ident,
                "title": title,
                "svg": scale_chart_svg(rows, fields, names, title, f"scale-{ident}"),
                "names": names,
                "table": [(row.list_date, [getattr(row, f) for f in fields]) for row in rows],
            }
        )
    return charts


def _groups(rows: dict[str, list[ListStatistics]]) -> dict[str, list[tuple[Any, Any]]]:
    bands = dict(AgeBand.choices)
    return {
        "region": [(r.group or _("No region"), r) for r in rows.get("region", [])],
        "age": [(bands.get(r.group, r.group), r) for r in rows.get("age", [])],
    }


@require_GET
@permission_required("ratings.browse_lists")
def statistics(request: HttpRequest, code: str) -> HttpResponse:
    """A system's figures across its lists, charts beside tables, the newest list by region
    and age band, and the drift check."""
    system = get_object_or_404(RatingSystem, code=code)
    rows = list(selectors.statistics_series(system=system))
    newest = selectors.statistics_of_list(published=rows[-1].published_list) if rows else {}
    return render(
        request,
        "ratings/statistics.html",
        {
            "system": system,
            "rows": rows,
            "charts": _charts(rows),
            "labels": _figure_labels(),
            "figures": FIGURES,
            "newest": rows[-1] if rows else None,
            "groups": _groups(newest),
            "watch": selectors.monitoring_article(system=system),
            "drift": selectors.drift_check(system=system),
            "monitoring": selectors.scale_monitoring_of(system=system),
            "years": selectors.statistics_years(system=system),
        },
    )


@require_GET
@permission_required("ratings.browse_lists")
def statistics_csv(request: HttpRequest, code: str) -> HttpResponse:
    """Every figure of every list of the system (whole list, regions, age bands), as CSV."""
    system = get_object_or_404(RatingSystem, code=code)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["list_date", "list_id", "version", "scope", "group", *FIGURES[:3], "mean", "median"]
        + [f"decile_{n}" for n in range(1, 10)]
        + ["top50", "top10", "mean_change"]
    )
    for scope in ("all", "region", "age"):
        series = ListStatistics.objects.filter(system=system, scope=scope).select_related(
            "published_list"
        )
        for row in series.order_by("list_date", "published_list__version", "group"):
            deciles = list(row.deciles) + [None] * (9 - len(row.deciles))
            writer.writerow(
                [
                    row.list_date.isoformat(),
                    row.published_list_id,
                    row.published_list.version,
                    row.scope,
                    row.group,
                    row.players,
                    row.active,
                    row.new,
                    _csv(row.mean),
                    _csv(row.median),
                    *[_csv(d) for d in deciles],
                    _csv(row.top50),
                    _csv(row.top10),
                    _csv(row.mean_change),
                ]
            )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{system.code}-statistics.csv"'
    return response


def _csv(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _report(code: str, year: int) -> selectors.YearReport:
    system = get_object_or_404(RatingSystem, code=code)
    if not 1900 <= year <= 2999:
        raise Http404
    return selectors.year_report(system=system, year=year)


@require_GET
@permission_required("ratings.browse_lists")
def statistics_report(request: HttpRequest, code: str, year: int) -> HttpResponse:
    """The yearly report for the commission (feda-1996 11.1, 12.2; fide-2000 12.3)."""
    report = _report(code, year)
    return render(
        request,
        "ratings/statistics_report.html",
        {
            "report": report,
            "system": report.system,
            "labels": _figure_labels(),
            "figures": FIGURES,
            "groups": _groups(report.newest),
            "lists_named": [(row.list_date, row) for row in report.lists],
        },
    )


@require_GET
@permission_required("ratings.browse_lists")
def statistics_report_pdf(request: HttpRequest, code: str, year: int) -> HttpResponse:
    report = _report(code, year)
    response = HttpResponse(year_report_pdf(report=report), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="{report.system.code}-scale-{report.year}.pdf"'
    )
    return response


@require_http_methods(["GET", "POST"])
@permission_required("ratings.monitor_scale", fn=_system)
def scale_monitoring(request: HttpRequest, code: str) -> HttpResponse:
    """The officer sets the drift check's threshold and number of lists."""
    system = get_object_or_404(RatingSystem, code=code)
    current = selectors.scale_monitoring_of(system=system)
    if request.method == "POST":
        form = ScaleMonitoringForm(request.POST)
        if form.is_valid():
            services.scale_monitoring_update(
                system=system,
                threshold=form.cleaned_data["threshold"],
                lists=form.cleaned_data["lists"],
                user=request.user,
            )
            messages.success(request, _("The drift check's settings are saved."))
            return redirect("ratings:statistics", system.code)
    else:
        form = ScaleMonitoringForm(initial={"threshold": current.threshold, "lists": current.lists})
    return render(
        request,
        "ratings/scale_monitoring.html",
        {
            "system": system,
            "form": form,
            "watch": selectors.monitoring_article(system=system),
        },
    )
