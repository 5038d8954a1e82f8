"""Thin pages of the arbiters' and organisers' registry: public lists and pages (each with its
tournaments), the registration of a new record, and the officers' registry with decisions."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.forms import ModelForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.caching import public_page
from core.errors import Refused
from core.permissions import permission_required
from tournaments.officials import selectors, services
from tournaments.officials.forms import ArbiterForm, DecisionForm, OrganiserForm
from tournaments.officials.models import Arbiter, Organiser, RecordState

PAGE_SIZE = 100


def _visible(request: HttpRequest, record: Any) -> Any:
    """A refused record is shown to officers only (its page answers 404 to the others)."""
    if record.state == RecordState.REFUSED and not request.user.has_perm(
        "tournaments.decide_official"
    ):
        raise Http404
    return record


@permission_required("tournaments.browse_officials")
@public_page
def arbiter_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:100]
    page = Paginator(selectors.arbiter_list(public=True, q=query), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "tournaments/officials/list.html",
        {"page": page, "query": query, "kind": "arbiters", "title": _("Arbiters")},
    )


@permission_required("tournaments.browse_officials")
@public_page
def organiser_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:100]
    page = Paginator(selectors.organiser_list(public=True, q=query), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "tournaments/officials/list.html",
        {"page": page, "query": query, "kind": "organisers", "title": _("Organisers")},
    )


@permission_required("tournaments.browse_officials")
@public_page
def arbiter_detail(request: HttpRequest, pk: int) -> HttpResponse:
    arbiter = _visible(request, get_object_or_404(Arbiter, pk=pk))
    return render(
        request,
        "tournaments/officials/detail.html",
        {
            "record": arbiter,
            "is_arbiter": True,
            "tournaments": selectors.arbiter_tournaments(arbiter=arbiter)[:500],
        },
    )


@permission_required("tournaments.browse_officials")
@public_page
def organiser_detail(request: HttpRequest, pk: int) -> HttpResponse:
    organiser = _visible(request, get_object_or_404(Organiser, pk=pk))
    return render(
        request,
        "tournaments/officials/detail.html",
        {
            "record": organiser,
            "is_arbiter": False,
            "tournaments": selectors.organiser_tournaments(organiser=organiser)[:500],
        },
    )


def _register(request: HttpRequest, form: ModelForm, *, arbiter: bool) -> HttpResponse:
    if request.method == "POST" and form.is_valid():
        register = services.arbiter_register if arbiter else services.organiser_register
        try:
            record = register(user=request.user, data=form.cleaned_data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            if record.state == RecordState.PENDING:
                messages.warning(request, _("Registered: a rating officer must approve it."))
            else:
                messages.success(request, _("Registered."))
            name = "tournaments:arbiter_detail" if arbiter else "tournaments:organiser_detail"
            return redirect(name, pk=record.pk)
    title = _("Register an arbiter") if arbiter else _("Register an organiser")
    return render(request, "tournaments/officials/register.html", {"form": form, "title": title})


@permission_required("tournaments.register_official")
def arbiter_register(request: HttpRequest) -> HttpResponse:
    return _register(request, ArbiterForm(request.POST or None), arbiter=True)


@permission_required("tournaments.register_official")
def organiser_register(request: HttpRequest) -> HttpResponse:
    return _register(request, OrganiserForm(request.POST or None), arbiter=False)


@permission_required("tournaments.decide_official")
def registry(request: HttpRequest) -> HttpResponse:
    """The officers' registry: the records pending a decision first, then the others."""
    state = request.GET.get("state", RecordState.PENDING)
    if state not in RecordState.values:
        state = ""
    return render(
        request,
        "tournaments/officials/registry.html",
        {
            "state": state,
            "states": RecordState.choices,
            "arbiters": selectors.arbiter_list(public=False, state=state)[:500],
            "organisers": selectors.organiser_list(public=False, state=state)[:500],
            "decision_form": DecisionForm(auto_id=False),
        },
    )


def _decide(request: HttpRequest, record: Any) -> HttpResponse:
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to approve or to refuse."))
    else:
        try:
            services.official_decide(
                record=record,
                user=request.user,
                approve=form.cleaned_data["approve"],
                reason=form.cleaned_data["reason"],
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Decision recorded."))
    return redirect("tournaments:registry")


@require_POST
@permission_required("tournaments.decide_official")
def arbiter_decide(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, get_object_or_404(Arbiter, pk=pk))


@require_POST
@permission_required("tournaments.decide_official")
def organiser_decide(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, get_object_or_404(Organiser, pk=pk))
