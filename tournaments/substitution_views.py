"""The forms of a tournament's team substitutions and norm winner (cnxc-2000 7.2, 7.1), on
its management page: thin views over tournaments.services.substitutions."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import Refused
from core.permissions import objectgetter, permission_required
from tournaments import services
from tournaments.forms import SubstitutionForm, WinnerForm
from tournaments.models import Substitution, Tournament
from tournaments.substitution_selectors import competition_records

_tournament = objectgetter(Tournament)
RECORD = "tournaments.record_substitutions"


def _back(tournament: Tournament) -> HttpResponse:
    return redirect(f"{reverse('tournaments:manage', args=[tournament.pk])}#substitutions")


def _form_errors(request: HttpRequest, form: SubstitutionForm | WinnerForm) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))


@require_POST
@permission_required(RECORD, fn=_tournament)
def substitution_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = Tournament.objects.select_related("rating_system", "period").get(pk=pk)
    records = competition_records(tournament=tournament)
    form = SubstitutionForm(request.POST, players=records.players)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament)
    try:
        services.substitution_create(tournament=tournament, user=request.user, **form.cleaned_data)
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The substitution is recorded."))
    return _back(tournament)


@require_POST
@permission_required(RECORD, fn=_tournament)
def substitution_remove(request: HttpRequest, pk: int, substitution: int) -> HttpResponse:
    found = (
        Substitution.objects.select_related("tournament__period", "tournament__rating_system")
        .filter(tournament_id=pk, pk=substitution)
        .first()
    )
    if found is None:
        raise Http404
    services.substitution_delete(substitution=found, user=request.user)
    messages.success(request, _("The substitution is deleted."))
    return _back(found.tournament)


@require_POST
@permission_required(RECORD, fn=_tournament)
def winner_set(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = Tournament.objects.select_related("rating_system", "period").get(pk=pk)
    records = competition_records(tournament=tournament)
    form = WinnerForm(request.POST, players=records.players)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(tournament)
    try:
        services.tournament_winner_set(
            tournament=tournament, user=request.user, rank=form.cleaned_data["rank"]
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The winner after tie-breaks is recorded."))
    return _back(tournament)
