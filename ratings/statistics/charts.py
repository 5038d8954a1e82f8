"""Charts of the scale's health: figures of a rating system's lists (ratings.models.
ListStatistics, oldest first) as lines of an SVG drawn on the server (no script, no chart
library, nothing the CSP must allow), one line per field.
Colours come from the stylesheet (``chart-series-<n>``). The statistics page shows the same
figures in a table beside each chart, for screen readers and text browsers; the SVG has a
title, a description and a legend."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 30, 28


def _n(value: float) -> str:
    return f"{value:.1f}"


def _ticks(low: float, high: float) -> list[float]:
    """About five round values between low and high."""
    span = max(high - low, 1e-9)
    raw = span / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _label(value: float) -> str:
    return f"{value:g}"


def scale_chart_svg(
    rows: Sequence[Any], fields: Sequence[str], labels: Sequence[str], title: str, ident: str
) -> SafeString:
    """The SVG of `fields` of `rows` (oldest first), one line each; "" when there is no value."""
    values = [getattr(r, f) for r in rows for f in fields if getattr(r, f) is not None]
    if not values:
        return SafeString("")
    low, high = min(values), max(values)
    pad = max((high - low) / 10, 1.0)
    low, high = low - pad, high + pad
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    n = len(rows)
    step = plot_w / (n - 1) if n > 1 else 0.0

    def x(i: int) -> float:
        return LEFT + (i * step if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h - (v - low) / (high - low) * plot_h

    grid = format_html_join(
        "",
        '<line class="chart-grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="chart-axis" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, _n(y(t)), _n(y(t)), LEFT - 4, _n(y(t) + 4), _label(t))
            for t in _ticks(low, high)
        ),
    )
    lines = []
    for k, field in enumerate(fields):
        points = [(i, getattr(r, field)) for i, r in enumerate(rows)]
        points = [(i, v) for i, v in points if v is not None]
        path = " ".join(
            f"{'M' if j == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for j, (i, v) in enumerate(points)
        )
        dots = format_html_join(
            "",
            '<circle class="chart-series-{} chart-dot" cx="{}" cy="{}" r="3">'
            "<title>{}: {}</title></circle>",
            (
                (
                    k,
                    _n(x(i)),
                    _n(y(v)),
                    date_format(rows[i].list_date, "YEAR_MONTH_FORMAT"),
                    f"{v:.1f}",
                )
                for i, v in points
            ),
        )
        lines.append(
            format_html('<path class="chart-series-{} chart-series" d="{}"/>{}', k, path, dots)
        )
    legend = format_html_join(
        "",
        '<rect class="chart-series-{} chart-key" x="{}" y="8" width="12" height="12"/>'
        '<text class="chart-axis" x="{}" y="18">{}</text>',
        ((k, LEFT + k * 150, LEFT + k * 150 + 16, label) for k, label in enumerate(labels)),
    )
    every = max(1, n // 8)
    axis = format_html_join(
        "",
        '<text class="chart-axis" x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (_n(x(i)), HEIGHT - 8, date_format(r.list_date, "m/y"))
            for i, r in enumerate(rows)
            if i % every == 0 or i == n - 1
        ),
    )
    return format_html(
        '<svg class="rating-chart scale-chart" viewBox="0 0 {} {}" role="img" '
        'aria-labelledby="{}-title" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{}-title">{}</title>{}{}{}{}</svg>',
        WIDTH,
        HEIGHT,
        ident,
        ident,
        title,
        grid,
        SafeString("".join(lines)),
        legend,
        axis,
    )
