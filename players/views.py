from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from players.models import Player
from players.selectors import player_search
from ratings.selectors import player_list_history


def home(request: HttpRequest) -> HttpResponse:
    from ratings.models import PublishedList, RatingSystem

    systems = RatingSystem.objects.filter(is_active=True).order_by("name")
    latest = PublishedList.objects.select_related("system").order_by("-published_at")[:5]
    return render(
        request,
        "home.html",
        {
            "systems": systems,
            "latest_lists": latest,
            "player_count": Player.objects.aggregate(n=Count("id"))["n"],
        },
    )


def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    return render(request, "players/list.html", {"players": player_search(query=query), "q": query})


def player_detail(request: HttpRequest, fed_id: str) -> HttpResponse:
    player = get_object_or_404(Player, fed_id=fed_id)
    ratings = player.ratings.select_related("system").order_by("system__name")
    history = player_list_history(player_id=player.pk)
    return render(
        request, "players/detail.html", {"player": player, "ratings": ratings, "history": history}
    )
