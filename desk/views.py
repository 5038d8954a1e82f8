"""The officer's start page (thin: desk.selectors reads it)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.permissions import permission_required
from desk.selectors import desk_for_officer


@permission_required("periods.manage_period")
def desk(request: HttpRequest) -> HttpResponse:
    """The officer's start page: what waits in every period (periods.manage_period)."""
    return render(request, "desk/desk.html", {"desk": desk_for_officer()})
