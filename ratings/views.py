from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ratings.models import PublishedList, RatingSystem


def system_list(request: HttpRequest) -> HttpResponse:
    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    return render(request, "ratings/systems.html", {"systems": systems})


def system_detail(request: HttpRequest, code: str) -> HttpResponse:
    system = get_object_or_404(RatingSystem, code=code)
    lists = system.lists.order_by("-list_date", "-version")[:60]
    periods = system.periods.order_by("-start")[:12]
    return render(request, "ratings/system.html", {"system": system, "lists": lists, "periods": periods})


def list_detail(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system", "period"), pk=pk)
    entries = published.entries.select_related("player").order_by("-rating", "player__surname")[:500]
    return render(request, "ratings/list.html", {"list": published, "entries": entries})
