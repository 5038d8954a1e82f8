"""Public pages that show ratings: the home page and a player's card."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from core import history as record_history
from core.permissions import permission_required
from periods.models import RatingSystem
from players.models import Player
from ratings.lists.selectors import player_list_history
from ratings.models import PublishedList


@permission_required("ratings.browse_lists")
def home(request: HttpRequest) -> HttpResponse:
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


@permission_required("players.browse_players")
def player_detail(request: HttpRequest, fed_id: str) -> HttpResponse:
    player = get_object_or_404(Player, fed_id=fed_id)
    ratings = player.ratings.select_related("system").order_by("system__name")
    history = player_list_history(player_id=player.pk)
    events = (
        record_history.object_history(obj=player)
        if record_history.history_visible(user=request.user)
        else None
    )
    return render(
        request,
        "players/detail.html",
        {"player": player, "ratings": ratings, "history": history, "history_events": events},
    )
