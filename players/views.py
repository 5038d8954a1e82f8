from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.permissions import permission_required
from players.selectors import player_search


@permission_required("players.browse_players")
def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    return render(request, "players/list.html", {"players": player_search(query=query), "q": query})
