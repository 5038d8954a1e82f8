from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from players.selectors import player_search


def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    return render(request, "players/list.html", {"players": player_search(query=query), "q": query})
