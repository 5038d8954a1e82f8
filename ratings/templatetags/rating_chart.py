"""``{% load rating_chart %}{% rating_chart points %}``: a player's rating history as an SVG
drawn on the server (no script, no chart library, nothing the CSP must allow).

One point per published list (the card's history points: list_id, list_date, rating, games),
joined by a line, with the games of each period as bars along the bottom; each point links to
that list's calculation (`link` is a URL with a 0 where the list id goes). Colours come from
the stylesheet (classes ``chart-*``). The same figures are in the table beside the chart, for
screen readers and text browsers; the SVG has a title and description."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

register = template.Library()

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 14, 34
BARS = 40  # height of the games band at the bottom of the plot


@functools.lru_cache(maxsize=4096)
def _date_label(day: Any, fmt: str, language: str | None) -> str:
    return date_format(day, fmt)


def date_label(day: Any, fmt: str = "YEAR_MONTH_FORMAT") -> str:
    """Django's ``date_format`` of `day`, kept per language: the cards and lists show the same
    few list dates over and over (formatting them again was a tenth of a card's first render;
    config/jinja2.py's ``date`` filter)."""
    return _date_label(day, fmt, get_language())


def _n(value: float) -> str:
    return f"{value:.1f}"


def _ticks(low: int, high: int) -> list[int]:
    span = max(1, high - low)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000) if span / s <= 5)
    first = (low + step - 1) // step * step
    return list(range(first, high + 1, step))


def chart_svg(
    points: Sequence[Any], link: str = "", label: str = "", ident: str = "chart"
) -> SafeString:
    """The SVG of `points` (oldest first); an empty string when none has a rating."""
    rated = [p for p in points if p.rating is not None]
    if not rated:
        return SafeString("")
    low = min(p.rating for p in rated)
    high = max(p.rating for p in rated)
    pad = max(10, (high - low) // 10)
    low, high = low - pad, high + pad
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM - BARS
    n = len(points)
    step = plot_w / max(1, n - 1) if n > 1 else 0
    most_games = max([p.games for p in points] + [1])

    def x(i: int) -> float:
        return LEFT + (i * step if n > 1 else plot_w / 2)

    def y(rating: int) -> float:
        return TOP + plot_h - (rating - low) / (high - low) * plot_h

    grid = format_html_join(
        "",
        '<line class="chart-grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="chart-axis" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, _n(y(t)), _n(y(t)), LEFT - 4, _n(y(t) + 4), t)
            for t in _ticks(low, high)
        ),
    )
    bar_w = max(2.0, min(18.0, step * 0.6 if n > 1 else 18.0))
    base = HEIGHT - BOTTOM
    bars = format_html_join(
        "",
        '<rect class="chart-games" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>',
        (
            (
                _n(x(i) - bar_w / 2),
                _n(base - p.games / most_games * (BARS - 4)),
                _n(bar_w),
                _n(p.games / most_games * (BARS - 4)),
                gettext("%(date)s: %(games)s games")
                % {"date": date_label(p.list_date), "games": p.games},
            )
            for i, p in enumerate(points)
            if p.games
        ),
    )
    path = " ".join(
        f"{'M' if j == 0 else 'L'}{x(i):.1f},{y(p.rating):.1f}"
        for j, (i, p) in enumerate((i, p) for i, p in enumerate(points) if p.rating is not None)
    )
    dots = format_html_join(
        "",
        '<a href="{}"><circle class="chart-point" cx="{}" cy="{}" r="4">'
        "<title>{}</title></circle></a>",
        (
            (
                link.replace("/0/", f"/{p.list_id}/") if link else "#",
                _n(x(i)),
                _n(y(p.rating)),
                f"{date_label(p.list_date)}: {p.rating} ({p.change:+d})",
            )
            for i, p in enumerate(points)
            if p.rating is not None
        ),
    )
    every = max(1, n // 8)
    labels = format_html_join(
        "",
        '<text class="chart-axis" x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (_n(x(i)), HEIGHT - 12, date_label(p.list_date, "m/y"))
            for i, p in enumerate(points)
            if i % every == 0 or i == n - 1
        ),
    )
    title = label or gettext("Rating history")
    desc = gettext("Rating after each published list, and the games rated in each period.")
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-title '
        '{}-desc" xmlns="http://www.w3.org/2000/svg"><title id="{}-title">{}</title>'
        '<desc id="{}-desc">{}</desc>{}{}<path class="chart-line" d="{}"/>{}{}</svg>',
        WIDTH,
        HEIGHT,
        ident,
        ident,
        ident,
        title,
        ident,
        desc,
        grid,
        bars,
        path,
        dots,
        labels,
    )


@register.simple_tag
def rating_chart(
    points: Sequence[Any], link: str = "", label: str = "", ident: str = "chart"
) -> SafeString:
    return chart_svg(points, link, label, f"chart-{ident}")


@register.filter
def for_list(link: str, list_id: int) -> str:
    """`link`, a URL reversed once with 0 as its last part (the list id), for list `list_id`:
    the card's history table links every row without reversing a URL per link."""
    if not link.endswith("/0/"):
        return link
    return f"{link[:-2]}{int(list_id)}/"
