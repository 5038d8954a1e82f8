"""Public list pages, and the officers' rating-period pages (close, calculate with a progress
bar, review, publish, re-rate; protests: views/protests.py). Thin: every write goes through
the services (periods.services, ratings.rerating.services; closing, calculating and
publishing: ratings/views/office.py, through ratings.calculation.runs and
ratings.publication.services)."""

import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import history
from core.caching import page_cached, page_private, public_page
from core.errors import Refused
from core.pagination import EstimatedCountPaginator
from core.permissions import objectgetter, permission_required
from core.release import release
from periods import selectors as period_selectors
from periods import services as period_services
from periods.models import RatingPeriod, RatingSystem
from periods.rulesets import system_ruleset_on, system_timeline
from rating_engine.registry import get_regulation
from ratings.calculation import selectors as calculation_selectors
from ratings.cards import selectors as card_selectors
from ratings.lists import selectors as list_selectors
from ratings.lists.filters import ListEntryFilter
from ratings.lists.layouts import list_layout_page
from ratings.models import PublishedList
from ratings.office import selectors as office_selectors
from ratings.rerating import services as rerating

# The objects the rules (periods/rules.py, ratings/rules.py) are tested on.
_system = objectgetter(RatingSystem, "code", "code")
_period_object = objectgetter(RatingPeriod)


@permission_required("ratings.browse_lists")
@public_page
def system_list(request: HttpRequest) -> HttpResponse:
    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    return render(request, "ratings/systems.html", {"systems": systems})


@permission_required("ratings.browse_lists")
@public_page
def system_detail(request: HttpRequest, code: str) -> HttpResponse:
    system = get_object_or_404(RatingSystem, code=code)
    lists = list_selectors.list_system_versions(system_id=system.pk)
    periods = system.periods.order_by("-start")[:12]
    # fce 9.5: a regulation that reads a published differential links to its page (the
    # regulation in force today in the system's timeline, not its newest entry).
    in_force = system_ruleset_on(system=system, day=timezone.localdate())
    differential = get_regulation(in_force.ruleset).inputs.differential
    return render(
        request,
        "ratings/system.html",
        {
            "system": system,
            "lists": lists,
            "periods": periods,
            "differential_article": differential.article if differential else "",
            # effective dates (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1)
            "timeline": system_timeline(system=system),
        },
    )


#: Seconds a rendered page of a list is kept (its key holds the list id: lists never change;
#: the time only bounds memory).
LIST_PAGE_TTL = 24 * 3600

#: The parameters of a list page: its filters and sort, the page and the top list.
LIST_PAGE_PARAMS = frozenset([*ListEntryFilter.base_filters, "page", "top"])

#: Top lists: their name and the filters that make them (active players, by rating).
TOP_LISTS = {
    "open": {"active": "true"},
    "women": {"active": "true", "sex": "F"},
    "juniors": {"active": "true", "age": "u20"},
    "seniors": {"active": "true", "age": "s50"},
}


def _page_number(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), 1_000_000))
    except ValueError:
        return 1


@permission_required("ratings.browse_lists")
def list_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A page of a published list. Anonymous visitors get the whole page from the cache: the
    list never changes, and whether it is current or superseded changes only with a new
    publication (the newest list's id is the page's state: one statement per request). The
    entries (count, table, pager) are a fragment kept per list, filters, sort, page and
    language (ratings/list.html): a published list never changes, so neither does any page
    of it."""
    if not set(request.GET).issubset(LIST_PAGE_PARAMS):  # only the page's own parameters
        return page_private(_list_detail(request, pk))
    newest = card_selectors.publication_state()
    return page_cached(
        request,
        kind="list",
        state=str(newest),
        timeout=LIST_PAGE_TTL,
        render=lambda: _list_detail(request, pk, newest=newest),
    )


def _list_detail(request: HttpRequest, pk: int, newest: int = 0) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system", "period"), pk=pk)
    top = request.GET.get("top", "")
    top = top if top in TOP_LISTS else ""
    params: Any = TOP_LISTS.get(top, request.GET)
    query = request.GET.copy()
    query.pop("page", None)
    page_number = 1 if top else _page_number(request)
    wanted = sorted((k, v) for k, v in request.GET.items() if k != "page")
    # Its publication and the protests against it (they refer to the list).
    events = (
        history.object_history(obj=published, related=True)
        if history.history_visible(user=request.user)
        else None
    )
    # The page's filters, built once: the form shows them and the entries are read through them
    # (a top list reads its own filters).
    # (Lazy: built only when a fragment that needs it is not kept.)
    filterset: Any = SimpleLazyObject(
        lambda: list_selectors.list_entry_filter(
            published=published, params=request.GET, with_values=True
        )
    )
    return render(
        request,
        "ratings/list.html",
        {
            "list": published,
            "current": list_selectors.list_current_version(published=published, newest_id=newest),
            "filter": filterset,
            "top": top,
            "current_section": list_selectors.list_section(published=published, params=request.GET),
            "layout": list_layout_page(published=published),
            "history_events": events,
            # The entries' fragment ({% cache %} in ratings/list.html): its key, and the page
            # of entries, read only when the fragment is not kept.
            "entries_key": hashlib.sha1(repr((wanted, page_number)).encode()).hexdigest(),
            # The filter form's fragment: its key (the filters without the page).
            "filters_key": hashlib.sha1(repr(wanted).encode()).hexdigest(),
            "entries_ttl": LIST_PAGE_TTL,
            "release": release(),
            "query": query.urlencode(),
            "page": SimpleLazyObject(
                lambda: list_selectors.list_entries_page(
                    published=published,
                    params=params,
                    page=page_number,
                    filterset=None if top else filterset,
                )
            ),
        },
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
            "calibration": calculation_selectors.run_calibration(run=draft),
            "progress": calculation_selectors.run_progress(run=run),
            "lost_runs": calculation_selectors.runs_lost_recently(period=period, latest=run),
            "lists": period.lists.order_by("-version"),
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
@permission_required("ratings.publish_list", fn=_period_object)
def period_rerate(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue the re-rating chain from this period and follow it on its page."""
    period = _period(pk)
    try:
        chain = rerating.rerate_request(period=period, user=request.user)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("ratings:period", pk=period.pk)
    messages.success(
        request,
        _(
            "Re-rating queued: this period and every later one will be recalculated and "
            "republished."
        ),
    )
    return redirect("ratings:rerate_chain", pk=chain.pk)


@permission_required("periods.open_period", fn=_system)
def system_open_next(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the period that would open (and the open one that stops it); POST with confirm=1:
    open it (refused while a period of the system is open)."""
    system = get_object_or_404(RatingSystem, code=code)
    if request.method == "POST" and request.POST.get("confirm") == "1":
        try:
            period = period_services.period_open_next(system=system)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("ratings:system", code=system.code)
        messages.success(request, _("The period is open."))
        return redirect("ratings:period", pk=period.pk)
    return render(
        request,
        "ratings/confirm_open_next.html",
        {
            "system": system,
            "dates": period_selectors.period_next_dates(system=system),
            "open_period": period_selectors.period_current_open(system=system),
        },
    )


#: Rows of a page of the review of statuses (a month can change thousands of statuses).
REVIEW_PAGE_SIZE = 100


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
    rows, totals = office_selectors.review_rows_kept(run=run)
    reasons = calculation_selectors.draft_excluded_reasons(run=run)
    return render(
        request,
        "ratings/review_tournaments.html",
        {"period": period, "run": run, "rows": rows, "totals": totals, "reasons": reasons},
    )


@permission_required("periods.manage_period", fn=_period_object)
def review_statuses(request: HttpRequest, pk: int) -> HttpResponse:
    period = _period(pk)
    run = _draft_or_404(period, request)
    qs = calculation_selectors.draft_status_changes(run=run)
    status = request.GET.get("status", "")
    if status:
        qs = qs.filter(status=status)
    page = EstimatedCountPaginator(
        qs, REVIEW_PAGE_SIZE, exact_below=office_selectors.DRAFT_EXACT_COUNT_BELOW
    ).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "ratings/review_statuses.html",
        {
            "period": period,
            "run": run,
            "page": page,
            "status": status,
            "query": query.urlencode(),
        },
    )


@permission_required("periods.manage_period", fn=_period_object)
def review_calibration(request: HttpRequest, pk: int) -> HttpResponse:
    """The draft's calibration (cnxc-2000 7.3): the list read, the players in both lists, the
    mean difference, applied or why not, each effective rating before and after."""
    period = _period(pk)
    run = _draft_or_404(period, request)
    calibration = calculation_selectors.run_calibration(run=run)
    if calibration is None:
        raise Http404(_("This calculation has no calibration."))
    return render(
        request,
        "ratings/review_calibration.html",
        {
            "period": period,
            "run": run,
            "calibration": calibration,
            "rows": calculation_selectors.calibration_entries(calibration=calibration)[:5000],
        },
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
