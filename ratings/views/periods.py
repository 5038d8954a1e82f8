"""Public list pages, and the officers' rating-period pages (close, calculate with a progress
bar, review, publish, re-rate; protests: views/protests.py). Thin: every write goes through
the services (periods.services, ratings.rerating.services; closing, calculating and
publishing: ratings/views/office.py, through ratings.calculation.runs and
ratings.publication.services)."""

import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import history
from core.caching import page_cached
from core.errors import Refused
from core.permissions import objectgetter, permission_required
from periods import services as period_services
from periods.models import RatingPeriod, RatingSystem
from ratings.calculation import selectors as calculation_selectors
from ratings.cards import selectors as card_selectors
from ratings.lists import selectors as list_selectors
from ratings.lists.filters import ListEntryFilter
from ratings.models import PublishedList
from ratings.rerating import services as rerating

# The objects the rules (periods/rules.py, ratings/rules.py) are tested on.
_system = objectgetter(RatingSystem, "code", "code")
_period_object = objectgetter(RatingPeriod)


@permission_required("ratings.browse_lists")
def system_list(request: HttpRequest) -> HttpResponse:
    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    return render(request, "ratings/systems.html", {"systems": systems})


@permission_required("ratings.browse_lists")
def system_detail(request: HttpRequest, code: str) -> HttpResponse:
    system = get_object_or_404(RatingSystem, code=code)
    lists = list_selectors.list_system_versions(system_id=system.pk)
    periods = system.periods.order_by("-start")[:12]
    return render(
        request, "ratings/system.html", {"system": system, "lists": lists, "periods": periods}
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


def _entries_html(request: HttpRequest, published: PublishedList, top: str) -> str:
    """The entries of one page of a list (count, table, pager), rendered once per list,
    filters, sort, page and language, then served from the cache: a published list never
    changes, so neither does any page of it."""
    params: Any = TOP_LISTS.get(top, request.GET)
    query = request.GET.copy()
    query.pop("page", None)
    page_number = 1 if top else _page_number(request)
    wanted = sorted((k, v) for k, v in request.GET.items() if k != "page")
    digest = hashlib.sha1(repr((wanted, page_number)).encode()).hexdigest()
    key = f"list-page:{published.pk}:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        page = list_selectors.list_entries_page(
            published=published, params=params, page=page_number
        )
        html = render_to_string(
            "ratings/_list_entries.html",
            {"list": published, "page": page, "top": top, "query": query.urlencode()},
            request=request,
        )
        cache.set(key, html, LIST_PAGE_TTL)
    return str(html)


@permission_required("ratings.browse_lists")
def list_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A page of a published list. Anonymous visitors get the whole page from the cache: the
    list never changes, and whether it is current or superseded changes only with a new
    publication (the newest list's id is the page's state: one statement per request)."""
    if not set(request.GET).issubset(LIST_PAGE_PARAMS):  # only the page's own parameters
        return _list_detail(request, pk, {})
    return page_cached(
        request,
        kind="list",
        state=str(card_selectors.publication_state()),
        timeout=LIST_PAGE_TTL,
        render=lambda extra: _list_detail(request, pk, extra),
    )


def _list_detail(request: HttpRequest, pk: int, extra: dict[str, Any]) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system", "period"), pk=pk)
    top = request.GET.get("top", "")
    top = top if top in TOP_LISTS else ""
    # Its publication and the protests against it (they refer to the list).
    events = (
        history.object_history(obj=published, related=True)
        if history.history_visible(user=request.user)
        else None
    )
    return render(
        request,
        "ratings/list.html",
        {
            "list": published,
            "current": list_selectors.list_current_version(published=published),
            # Rendered from escaped template output (ratings/_list_entries.html).
            "entries_html": mark_safe(_entries_html(request, published, top)),
            "filter": list_selectors.list_entry_filter(
                published=published, params=request.GET, with_values=True
            ),
            "top": top,
            "history_events": events,
            **extra,
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
    reasons = calculation_selectors.draft_excluded_reasons(run=run)
    return render(
        request,
        "ratings/review_tournaments.html",
        {"period": period, "run": run, "rows": rows, "reasons": reasons},
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
