"""The export to FIDE in the pages (fide-2024 9.1): a tournament's TRF file (officers and its
arbiter), the officer's record that it was sent, and a period's batch (thin:
tournaments.fide_export and tournaments.services.fide_sent do the work)."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from core.errors import Refused
from core.permissions import objectgetter, permission_required
from periods.models import RatingPeriod
from tournaments import fide_export, services
from tournaments.models import Tournament

_tournament = objectgetter(Tournament)
_period = objectgetter(RatingPeriod, "period")


class FideSentForm(forms.Form):
    sent_on = forms.DateField(
        label=gettext_lazy("Sent to FIDE on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


def _file(data: bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename) or "attachment"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
@permission_required("tournaments.export_fide", fn=_tournament)
def tournament_fide_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament as a TRF file for the FIDE Rating Server (`?format=trf16|trf26`)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        version = fide_export.fide_export_version(request.GET.get("format"))
        export = fide_export.tournament_fide_export(tournament=tournament, version=version)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:detail", pk=tournament.pk)
    return _file(
        export.text.encode("utf-8"),
        filename=export.filename,
        content_type="text/plain; charset=utf-8",
    )


@require_POST
@permission_required("tournaments.record_fide_sent", fn=_tournament)
def tournament_fide_sent(request: HttpRequest, pk: int) -> HttpResponse:
    """The officer records that the tournament's TRF was sent to FIDE (the date; today when
    left empty)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = FideSentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the date as YYYY-MM-DD."))
        return redirect("tournaments:detail", pk=tournament.pk)
    sent_on: dt.date | None = form.cleaned_data.get("sent_on")
    try:
        services.tournament_fide_sent_record(
            tournament=tournament, user=request.user, sent_on=sent_on
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Recorded as sent to FIDE."))
    return redirect("tournaments:detail", pk=tournament.pk)


@require_safe
@permission_required("periods.manage_period", fn=_period)
def period_fide_batch(request: HttpRequest, period: int) -> HttpResponse:
    """The period's rated tournaments, one TRF each, in a zip for the FIDE Rating Server."""
    rating_period = get_object_or_404(RatingPeriod.objects.select_related("system"), pk=period)
    try:
        version = fide_export.fide_export_version(request.GET.get("format"))
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("ratings:period", pk=rating_period.pk)
    data = fide_export.period_fide_batch(period=rating_period, version=version)
    name = f"fide-{rating_period.system.code}-{rating_period.start:%Y-%m}-{version}.zip"
    return _file(data, filename=name, content_type="application/zip")
