from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("rating_system").order_by("-end_date")[:200]
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("rating_system", "period"), pk=pk)
    return render(request, "tournaments/detail.html", {"tournament": tournament})
