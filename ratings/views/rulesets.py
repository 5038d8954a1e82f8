"""A rating system's timeline of regulation sets: the officer adds an entry (effective dates,
docs/periods.md). Thin: the service (periods.rulesets.system_ruleset_add) decides and refuses;
the public system page (views/periods.py, system_detail) shows the timeline."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.errors import Refused
from core.permissions import objectgetter, permission_required
from periods.models import RULESET_CHOICES, RatingSystem
from periods.rulesets import system_ruleset_add, system_timeline
from ratings.forms import SystemRulesetForm

_system = objectgetter(RatingSystem, "code", "code")


@permission_required("periods.manage_rulesets", fn=_system)
def system_ruleset_new(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the form and the timeline; POST: add the entry (refused when it would change the
    regulation of a published period: the form shows why)."""
    system = get_object_or_404(RatingSystem, code=code)
    form = SystemRulesetForm(request.POST or None, choices=RULESET_CHOICES)
    if request.method == "POST" and form.is_valid():
        try:
            system_ruleset_add(
                system=system,
                ruleset=form.cleaned_data["ruleset"],
                effective_from=form.cleaned_data["effective_from"],
                parameters=form.cleaned_data["parameters"],
                user=request.user,
            )
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The regulation set was added to the timeline."))
            return redirect("ratings:system", code=system.code)
    return render(
        request,
        "ratings/system_ruleset_new.html",
        {"system": system, "form": form, "timeline": system_timeline(system=system)},
    )
