"""The page of a re-rating chain (officers): one progress bar over every period it re-rates,
polled as every job page is (static/js/site.js), then the outcome. Thin: the chain is
ratings.rerating.chain's."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from core.permissions import objectgetter, permission_required
from periods.models import RatingPeriod
from ratings.models import RerateChain
from ratings.rerating import selectors

_chain = objectgetter(RerateChain)


@require_safe
@permission_required("ratings.publish_list", fn=_chain)
def rerate_chain(request: HttpRequest, pk: int) -> HttpResponse:
    chain = get_object_or_404(
        RerateChain.objects.select_related("system", "first_period", "requested_by"), pk=pk
    )
    last = RatingPeriod.objects.filter(pk=chain.periods[-1]).first() if chain.periods else None
    return render(
        request,
        "ratings/rerate_chain.html",
        {
            "chain": chain,
            "last_period": last,
            "progress": selectors.rerate_chain_progress(chain=chain),
        },
    )


@require_safe
@permission_required("ratings.publish_list", fn=_chain)
def rerate_chain_progress(request: HttpRequest, pk: int) -> HttpResponse:
    chain = get_object_or_404(RerateChain, pk=pk)
    return JsonResponse(selectors.rerate_chain_progress(chain=chain))
