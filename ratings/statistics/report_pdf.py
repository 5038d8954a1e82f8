"""The yearly report for the commission as a PDF (feda-1996 11.1-12.2, fide-2000 12.1-12.3):
the same figures as its HTML page (ratings.statistics.selectors.year_report), drawn with fpdf2
(pure Python) in the reader's language. The core fonts hold Latin-1 only: other characters
(dashes, the rare letter) are replaced before writing."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from fpdf import FPDF

from ratings.models import AgeBand, ListStatistics
from ratings.statistics.selectors import YearReport

_REPLACE = {"—": "-", "–": "-", "’": "'", "“": '"', "”": '"', "…": "...", "·": "-"}


def _text(value: object) -> str:
    text = str(value)
    for old, new in _REPLACE.items():
        text = text.replace(old, new)
    return text.encode("latin-1", "replace").decode("latin-1")


def _figure(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _row(row: ListStatistics, first: str) -> list[str]:
    return [
        first,
        str(row.players),
        str(row.active),
        str(row.new),
        _figure(row.mean),
        _figure(row.median),
        _figure(row.top50),
        _figure(row.top10),
        _figure(row.mean_change),
    ]


def _headings(first: str) -> list[str]:
    return [
        first,
        _("Players"),
        _("Active"),
        _("New"),
        _("Mean"),
        _("Median"),
        _("Top-50 average"),
        _("Top-10 average"),
        _("Mean change"),
    ]


def _table(pdf: FPDF, headings: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    pdf.set_font("Helvetica", size=8)
    with pdf.table(text_align="RIGHT", first_row_as_headings=True) as table:
        for values in [headings, *rows]:
            cells = table.row()
            for value in values:
                cells.cell(_text(value))
    pdf.ln(4)


def year_report_pdf(*, report: YearReport) -> bytes:
    """The report's PDF."""
    pdf = FPDF(orientation="L", unit="mm", format="A4")
    pdf.set_title(_text(_("Scale report %(year)s") % {"year": report.year}))
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    title = _("%(system)s: the rating scale in %(year)s") % {
        "system": report.system.name,
        "year": report.year,
    }
    pdf.multi_cell(0, 8, _text(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    if report.watch is not None:
        size, article = report.watch
        intro = _(
            "Report of the rating administrator to the commission (%(article)s): the average "
            "rating of the top %(size)s across the year's lists, and the figures of each list."
        ) % {"article": article, "size": size}
    else:
        intro = _("The figures of each of the year's lists.")
    pdf.multi_cell(0, 6, _text(intro), new_x="LMARGIN", new_y="NEXT")
    if report.moved is not None:
        pdf.multi_cell(
            0,
            6,
            _text(
                _("The top-50 average moved %(moved)+.1f points over the year.")
                % {"moved": report.moved}
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
    if report.drift is not None:
        drift = report.drift
        pdf.multi_cell(
            0,
            6,
            _text(
                _(
                    "Drift check: %(moved)+.1f points over the last %(lists)s lists, threshold "
                    "%(threshold).1f (%(state)s)."
                )
                % {
                    "moved": drift.moved,
                    "lists": drift.lists,
                    "threshold": drift.threshold,
                    "state": _("exceeded") if drift.exceeded else _("within the threshold"),
                }
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
    pdf.ln(3)
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 7, _text(_("The year's lists")), new_x="LMARGIN", new_y="NEXT")
    _table(
        pdf,
        _headings(_("List")),
        [_row(row, date_format(row.list_date, "SHORT_DATE_FORMAT")) for row in report.lists],
    )
    if report.lists:
        bands = dict(AgeBand.choices)
        for scope, heading, first in (
            ("region", _("By region, newest list"), _("Region")),
            ("age", _("By age band, newest list"), _("Age band")),
        ):
            pdf.set_font("Helvetica", "B", 11)
            pdf.cell(0, 7, _text(heading), new_x="LMARGIN", new_y="NEXT")
            rows = report.newest.get(scope, [])
            _table(
                pdf,
                _headings(first),
                [
                    _row(
                        row,
                        str(bands.get(row.group, row.group))
                        if scope == "age"
                        else row.group or _("No region"),
                    )
                    for row in rows
                ],
            )
    return bytes(pdf.output())
