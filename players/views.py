import hashlib

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.caching import page_cached, page_private
from core.errors import Refused
from core.permissions import permission_required
from core.release import release
from players import services
from players.forms import BirthYearForm, ErasureForm
from players.models import ErasureStatus, Player
from players.personal_data import personal_data_collect, personal_data_zip
from players.selectors import player_search

PER_PAGE = 50
#: Seconds a rendered page of results is kept: a player added or renamed shows up in searches
#: at most this late (the registry has no cheap "last changed" to key the cache on).
RESULTS_TTL = 120
#: The search page's parameters; an address with any other is rendered, not kept.
SEARCH_PARAMS = frozenset(["q", "page"])
#: What a row of results shows (templates/players/_results.html): the rest is not read.
RESULT_FIELDS = ("fed_id", "surname", "given_name", "title", "club", "region", "fide_standard")


@permission_required("players.browse_players")
def player_list(request: HttpRequest) -> HttpResponseBase:
    """The player search. Anonymous visitors get the whole page from the cache (RESULTS_TTL),
    shared with the proxy (core.caching); everyone gets the results from the template's
    fragment cache (players/list.html)."""
    if not set(request.GET).issubset(SEARCH_PARAMS):
        return page_private(_player_list(request))
    return page_cached(
        request,
        kind="search",
        state="",
        timeout=RESULTS_TTL,
        render=lambda: _player_list(request),
    )


def _player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:200]
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    return render(
        request,
        "players/list.html",
        {
            "q": query,
            # The results' fragment is kept per language, query and page (players/list.html:
            # {% cache %}); the search runs only when it is rendered.
            "results_key": hashlib.sha1(f"{query.strip()}\x00{page}".encode()).hexdigest(),
            "results_ttl": RESULTS_TTL,
            "release": release(),
            "result": SimpleLazyObject(
                lambda: player_search(
                    query=query, page=page, per_page=PER_PAGE, fields=RESULT_FIELDS
                )
            ),
        },
    )


@require_GET
@permission_required("players.browse_players")
def privacy(request: HttpRequest) -> HttpResponse:
    """What the office keeps about players and why (docs/privacy.md), in the reader's
    language."""
    return render(request, "players/privacy.html")


def _own(request: HttpRequest) -> Player:
    """His record; a superuser passes every rule but may have none: 404."""
    player = getattr(request.user, "player", None)
    if player is None:
        raise Http404
    assert isinstance(player, Player)
    return player


@permission_required("players.manage_own_data")
def my_data(request: HttpRequest) -> HttpResponse:
    """His data: the birth year's visibility, the downloads, the erasure request and what it
    does (docs/privacy.md)."""
    player = _own(request)
    return render(
        request,
        "players/my_data.html",
        {
            "player": player,
            "birth_form": BirthYearForm(initial={"birth_year_public": player.birth_year_public}),
            "erasure_form": ErasureForm(),
            "requests": player.erasure_requests.all(),
            "pending": player.erasure_requests.filter(status=ErasureStatus.PENDING).exists(),
        },
    )


@require_POST
@permission_required("players.manage_own_data")
def my_birth_year(request: HttpRequest) -> HttpResponse:
    _own(request)
    form = BirthYearForm(request.POST)
    form.is_valid()  # a checkbox: always valid (absent = not public)
    public = bool(form.cleaned_data.get("birth_year_public"))
    services.birth_year_visibility_set(user=request.user, public=public)
    messages.success(
        request,
        _("Your birth year is now shown on your card.")
        if public
        else _("Your birth year is now hidden on your card."),
    )
    return redirect("mydata:page")


@require_POST
@permission_required("players.manage_own_data")
def my_erasure(request: HttpRequest) -> HttpResponse:
    _own(request)
    form = ErasureForm(request.POST)
    if form.is_valid():
        try:
            services.erasure_request(user=request.user, note=form.cleaned_data["note"])
        except Refused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, _("Your erasure request was sent to the rating office."))
    return redirect("mydata:page")


@require_GET
@permission_required("players.manage_own_data")
def my_data_json(request: HttpRequest) -> HttpResponse:
    player = _own(request)
    data = personal_data_collect(player=player)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="my-data-{player.fed_id}.json"'
    return response


@require_GET
@permission_required("players.manage_own_data")
def my_data_csv(request: HttpRequest) -> HttpResponse:
    player = _own(request)
    body = personal_data_zip(data=personal_data_collect(player=player))
    response = HttpResponse(body, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="my-data-{player.fed_id}.zip"'
    return response
