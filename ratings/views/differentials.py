"""The FIDE -> system differential's pages (fce 9.5): the public history of each year's value
and how it was computed; for officers, compute it from the lists in force, review, publish."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.errors import Refused
from core.permissions import objectgetter, permission_required
from periods.models import RatingSystem
from ratings.differentials import selectors, services
from ratings.forms import DifferentialPublishForm
from ratings.models import Differential, DifferentialStatus


def _system(request: HttpRequest, code: str) -> RatingSystem:
    return get_object_or_404(RatingSystem, code=code)


def _article(system: RatingSystem) -> str:
    try:
        return services.differential_article(system=system)
    except Refused:
        return ""


@permission_required("ratings.view_differentials")
def differential_history(request: HttpRequest, code: str) -> HttpResponse:
    """Each published differential of a system with its players, mean and bands."""
    system = _system(request, code)
    return render(
        request,
        "ratings/differentials.html",
        {
            "system": system,
            "article": _article(system),
            "differentials": selectors.differentials_published(system=system),
            "min_band": services.MIN_BAND_PLAYERS,
        },
    )


@permission_required("ratings.manage_differential", fn=_system)
def differential_compute(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the system's differentials, drafts included; POST: compute a new draft."""
    system = _system(request, code)
    if request.method == "POST":
        try:
            differential = services.differential_compute(system=system, user=request.user)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("ratings:differential_compute", code=system.code)
        messages.success(request, _("The differential is computed: review it, then publish it."))
        return redirect("ratings:differential_review", pk=differential.pk)
    return render(
        request,
        "ratings/differential_compute.html",
        {
            "system": system,
            "article": _article(system),
            "differentials": selectors.differentials_of(system=system)[:50],
        },
    )


@permission_required("ratings.manage_differential", fn=objectgetter(Differential))
def differential_review(request: HttpRequest, pk: int) -> HttpResponse:
    """One computation: the players counted, the mean, the bands."""
    differential = get_object_or_404(Differential.objects.select_related("system"), pk=pk)
    return render(
        request,
        "ratings/differential_review.html",
        {
            "d": differential,
            "article": _article(differential.system),
            "min_band": services.MIN_BAND_PLAYERS,
        },
    )


@permission_required("ratings.manage_differential", fn=objectgetter(Differential))
def differential_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the effective date asked; POST: publish the draft from it."""
    differential = get_object_or_404(Differential.objects.select_related("system"), pk=pk)
    form = DifferentialPublishForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.differential_publish(
                differential=differential,
                effective_date=form.cleaned_data["effective_date"],
                user=request.user,
            )
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("ratings:differential_review", pk=differential.pk)
        messages.success(request, _("The differential is published."))
        return redirect("ratings:differentials", code=differential.system.code)
    return render(
        request,
        "ratings/differential_publish.html",
        {
            "d": differential,
            "form": form,
            "published": differential.status == DifferentialStatus.PUBLISHED,
        },
    )
