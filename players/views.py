from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.permissions import permission_required
from players.selectors import player_search

PER_PAGE = 50


@permission_required("players.browse_players")
def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:200]
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    result = player_search(query=query, page=page, per_page=PER_PAGE)
    return render(request, "players/list.html", {"result": result, "q": query})
