"""The forms of the rating officer's decisions on a tournament's management page, and the
organiser's appeal (fide-2024 0.4): thin views over tournaments.services.decisions."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import Refused
from core.permissions import objectgetter, permission_required
from tournaments import services
from tournaments.forms import AppealDecisionForm, AppealForm, DecisionForm
from tournaments.models import Tournament, TournamentDecision

_tournament = objectgetter(Tournament)


def _back(tournament_id: int) -> HttpResponse:
    return redirect(f"{reverse('tournaments:manage', args=[tournament_id])}#decisions")


def _errors(request: HttpRequest, form: DecisionForm | AppealForm | AppealDecisionForm) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))


def _decision(pk: int, decision: int) -> TournamentDecision:
    return get_object_or_404(
        TournamentDecision.objects.select_related(
            "tournament__rating_system", "tournament__arbiter"
        ),
        pk=decision,
        tournament=pk,
    )


@require_POST
@permission_required("tournaments.decide_tournament", fn=_tournament)
def decision_take(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("rating_system"), pk=pk)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        _errors(request, form)
        return _back(pk)
    data = form.cleaned_data
    try:
        decision = services.tournament_decide(
            tournament=tournament,
            officer=request.user,
            kind=data["kind"],
            reason=data["reason"],
            check_code=data.get("check_code") or "",
            game_id=data.get("game"),
            start_rank=data.get("start_rank"),
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Decision recorded: %(kind)s (%(article)s).")
            % {"kind": decision.get_kind_display(), "article": decision.article},
        )
    return _back(pk)


@require_POST
@permission_required("tournaments.appeal_decision", fn=_tournament)
def decision_appeal(request: HttpRequest, pk: int, decision: int) -> HttpResponse:
    found = _decision(pk, decision)
    form = AppealForm(request.POST)
    if not form.is_valid():
        _errors(request, form)
        return _back(pk)
    try:
        services.decision_appeal(
            decision=found, user=request.user, grounds=form.cleaned_data["grounds"]
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The appeal is lodged: a rating officer will decide it."))
    return _back(pk)


@require_POST
@permission_required("tournaments.decide_tournament", fn=_tournament)
def decision_appeal_decide(request: HttpRequest, pk: int, decision: int) -> HttpResponse:
    found = _decision(pk, decision)
    form = AppealDecisionForm(request.POST)
    if not form.is_valid():
        _errors(request, form)
        return _back(pk)
    try:
        services.decision_appeal_decide(
            decision=found,
            officer=request.user,
            upheld=form.cleaned_data["upheld"],
            resolution=form.cleaned_data["resolution"],
        )
    except (Refused, PermissionDenied) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The appeal is decided."))
    return _back(pk)
