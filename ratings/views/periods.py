"""Public list pages, and the officers' rating-period pages (close, calculate with a progress
bar, review, publish, re-rate, protests). Thin: every write goes through ratings.services."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import history
from core.errors import Refused
from core.permissions import objectgetter, permission_required
from periods import services as period_services
from periods.models import RatingPeriod, RatingSystem
from ratings.calculation import runs
from ratings.calculation import selectors as calculation_selectors
from ratings.forms import ProtestDecisionForm, ProtestForm, PublishForm
from ratings.lists import selectors as list_selectors
from ratings.models import Protest, PublishedList
from ratings.protests import selectors as protest_selectors
from ratings.protests import services as protests
from ratings.publication import services as publication
from ratings.rerating import services as rerating

# The objects the rules (periods/rules.py, ratings/rules.py) are tested on.
_system = objectgetter(RatingSystem, "code", "code")
_period_object = objectgetter(RatingPeriod)
_list = objectgetter(PublishedList)
_protest = objectgetter(Protest)


@permission_required("ratings.browse_lists")
def system_list(request: HttpRequest) -> HttpResponse:
    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    return render(request, "ratings/systems.html", {"systems": systems})


@permission_required("ratings.browse_lists")
def system_detail(request: HttpRequest, code: str) -> HttpResponse:
    system = get_object_or_404(RatingSystem, code=code)
    lists = system.lists.order_by("-list_date", "-version")[:60]
    periods = system.periods.order_by("-start")[:12]
    return render(
        request, "ratings/system.html", {"system": system, "lists": lists, "periods": periods}
    )


@permission_required("ratings.browse_lists")
def list_detail(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system", "period"), pk=pk)
    entries = published.entries.select_related("player").order_by("-rating", "player__surname")[
        :500
    ]
    # Its publication and the protests against it (they refer to the list).
    events = (
        history.object_history(obj=published, related=True)
        if history.history_visible(user=request.user)
        else None
    )
    return render(
        request,
        "ratings/list.html",
        {"list": published, "entries": entries, "history_events": events},
    )


# ------------------------------------------------------------------- rating periods (officers)


def _period(pk: int) -> RatingPeriod:
    return get_object_or_404(RatingPeriod.objects.select_related("system"), pk=pk)


@permission_required("periods.manage_period", fn=_period_object)
def period_detail(request: HttpRequest, pk: int) -> HttpResponse:
    period = _period(pk)
    run = calculation_selectors.run_latest(period=period)
    draft = calculation_selectors.run_draft(period=period)
    return render(
        request,
        "ratings/period.html",
        {
            "period": period,
            "run": run,
            "draft": draft,
            "progress": calculation_selectors.run_progress(run=run),
            "lost_runs": calculation_selectors.runs_lost_recently(period=period, latest=run),
            "lists": period.lists.order_by("-version"),
            "publish_form": PublishForm(),
            "can_publish": draft is not None
            and draft.published_list_id is None
            and not (run and run.status in ("queued", "running")),
            "history_events": history.object_history(obj=period)
            if history.history_visible(user=request.user)
            else None,
        },
    )


@permission_required("periods.manage_period", fn=_period_object)
def period_progress(request: HttpRequest, pk: int) -> JsonResponse:
    period = _period(pk)
    return JsonResponse(
        calculation_selectors.run_progress(run=calculation_selectors.run_latest(period=period))
    )


def _act(
    request: HttpRequest, pk: int, action: Callable[[RatingPeriod], Any], ok: str
) -> HttpResponse:
    period = _period(pk)
    try:
        action(period)
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, ok)
    return redirect("ratings:period", pk=period.pk)


@require_POST
@permission_required("periods.manage_period", fn=_period_object)
def period_close(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request, pk, lambda p: period_services.period_close(period=p), _("The period is closed.")
    )


@require_POST
@permission_required("periods.manage_period", fn=_period_object)
def period_calculate(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        lambda p: runs.calculation_request(period=p, user=request.user),
        _("The calculation has been queued."),
    )


@require_POST
@permission_required("ratings.publish_list", fn=_period_object)
def period_publish(request: HttpRequest, pk: int) -> HttpResponse:
    form = PublishForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    period = _period(pk)
    try:
        published = publication.list_publish(period=period, user=request.user, note=note)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("ratings:period", pk=period.pk)
    messages.success(
        request, _("Version %(v)s of the list is published.") % {"v": published.version}
    )
    return redirect("ratings:list", pk=published.pk)


@require_POST
@permission_required("ratings.publish_list", fn=_period_object)
def period_rerate(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        lambda p: rerating.rerate_request(period=p, user=request.user),
        _(
            "Re-rating queued: this period and every later one will be recalculated and "
            "republished."
        ),
    )


@require_POST
@permission_required("periods.open_period", fn=_system)
def system_open_next(request: HttpRequest, code: str) -> HttpResponse:
    system = get_object_or_404(RatingSystem, code=code)
    period = period_services.period_open_next(system=system)
    return redirect("ratings:period", pk=period.pk)


def _draft_or_404(period: RatingPeriod, request: HttpRequest) -> Any:
    run_id = request.GET.get("run")
    if run_id and run_id.isdigit():
        return get_object_or_404(period.runs, pk=int(run_id))
    run = calculation_selectors.run_draft(period=period)
    if run is None:
        raise Http404(_("No calculation yet."))
    return run


@permission_required("periods.manage_period", fn=_period_object)
def review_tournaments(request: HttpRequest, pk: int) -> HttpResponse:
    period = _period(pk)
    run = _draft_or_404(period, request)
    rows = calculation_selectors.draft_changes_by_tournament(run=run)
    return render(
        request, "ratings/review_tournaments.html", {"period": period, "run": run, "rows": rows}
    )


@permission_required("periods.manage_period", fn=_period_object)
def review_statuses(request: HttpRequest, pk: int) -> HttpResponse:
    period = _period(pk)
    run = _draft_or_404(period, request)
    qs = calculation_selectors.draft_status_changes(run=run)
    status = request.GET.get("status", "")
    if status:
        qs = qs.filter(status=status)
    return render(
        request,
        "ratings/review_statuses.html",
        {"period": period, "run": run, "rows": qs[:2000], "status": status},
    )


@permission_required("periods.manage_period", fn=_period_object)
def review_player(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    period = _period(pk)
    run = _draft_or_404(period, request)
    data = calculation_selectors.draft_player(run=run, player_id=player_id)
    if data["result"] is None:
        raise Http404
    return render(request, "ratings/review_player.html", {"period": period, "run": run, **data})


@permission_required("ratings.browse_lists")
def list_diff(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system", "period"), pk=pk)
    previous, rows = list_selectors.list_diff(published=published)
    return render(
        request, "ratings/list_diff.html", {"list": published, "previous": previous, "rows": rows}
    )


@permission_required("ratings.submit_protest", fn=_list)
def protest_create(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system"), pk=pk)
    form = ProtestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            protest = protests.protest_submit(
                published=published,
                player=getattr(request.user, "player", None),
                user=request.user,
                text=form.cleaned_data["text"],
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Your protest has been submitted."))
            return redirect("ratings:protest", pk=protest.pk)
    return render(
        request,
        "ratings/protest_form.html",
        {
            "list": published,
            "form": form,
            "deadline": protest_selectors.protest_open_until(published=published),
        },
    )


@permission_required("ratings.decide_protest")
def protest_list(request: HttpRequest) -> HttpResponse:
    events = (
        history.model_history(model=Protest) if history.history_visible(user=request.user) else None
    )
    return render(
        request,
        "ratings/protests.html",
        {
            "protests": protest_selectors.protest_list_pending(),
            "form": ProtestDecisionForm(),
            "history_events": events,
        },
    )


@permission_required("ratings.view_protest", fn=_protest)
def protest_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A protest and, once decided, its decision: for the player who submitted it and officers."""
    return render(
        request, "ratings/protest.html", {"protest": protest_selectors.protest_get(pk=pk)}
    )


@require_POST
@permission_required("ratings.decide_protest", fn=_protest)
def protest_decide(request: HttpRequest, pk: int) -> HttpResponse:
    protest = get_object_or_404(Protest.objects.select_related("published_list__period"), pk=pk)
    form = ProtestDecisionForm(request.POST)
    if form.is_valid():
        try:
            protests.protest_decide(
                protest=protest,
                user=request.user,
                upheld=form.cleaned_data["upheld"],
                decision=form.cleaned_data["decision"],
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("The protest has been decided."))
    return redirect("ratings:protests")
