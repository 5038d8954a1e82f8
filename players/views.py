import hashlib

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.caching import page_cached, page_private, page_shared
from core.errors import Refused
from core.permissions import permission_required
from core.release import release
from players import licences as licence_services
from players import services
from players.forms import (
    BirthYearForm,
    DeceasedForm,
    ErasureForm,
    LicenceForm,
    LicenceImportForm,
    SeasonForm,
)
from players.models import ErasureStatus, Player
from players.personal_data import personal_data_collect, personal_data_zip
from players.selectors import licence_current, player_search_rows, season_licence_counts

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
        # A page anonymous visitors share is kept whole (as long as its results would be):
        # keeping its results apart too would cost two more round trips to the cache.
        render=lambda: _player_list(request, keep_results=not page_shared(request)),
        # Most searches are asked once (a name nobody asked for lately): in the process's
        # memory only, not the shared cache, whose get and set cost a cold search a fifth of
        # its CPU (docs/benchmarks.md, "Cold searches at three times the hello view").
        shared=False,
    )


def _player_list(request: HttpRequest, *, keep_results: bool = True) -> HttpResponse:
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
            # {% cache %}), unless the whole page is; the search runs only when it is rendered.
            "keep_results": keep_results,
            "results_key": hashlib.sha1(f"{query.strip()}\x00{page}".encode()).hexdigest(),
            "results_ttl": RESULTS_TTL,
            "release": release(),
            "result": SimpleLazyObject(
                lambda: player_search_rows(
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


# --------------------------------------------------------------------------- the licence roll


@require_http_methods(["GET", "POST"])
@permission_required("players.manage_licences")
def licences(request: HttpRequest) -> HttpResponse:
    """The seasons and their licences: a new season, the CSV import (preview first)."""
    season_form = SeasonForm(request.POST if "season_create" in request.POST else None)
    import_form = LicenceImportForm(
        request.POST if "import" in request.POST else None,
        request.FILES if "import" in request.POST else None,
    )
    result = None
    status = 200
    if request.method == "POST":
        status = 400
        try:
            if "season_create" in request.POST and season_form.is_valid():
                season = licence_services.season_create(
                    user=request.user, **season_form.cleaned_data
                )
                messages.success(request, _("Season %(name)s created.") % {"name": season.name})
                return redirect("players:licences")
            if "import" in request.POST and import_form.is_valid():
                result = licence_services.licences_import(
                    user=request.user,
                    season=import_form.cleaned_data["season"],
                    data=import_form.cleaned_data["file"].read(),
                    preview=import_form.cleaned_data["preview"],
                )
                status = 400 if result.errors else 200
        except Refused as exc:
            (season_form if "season_create" in request.POST else import_form).add_error(
                None, str(exc)
            )
    return render(
        request,
        "players/licences.html",
        {
            "seasons": season_licence_counts(),
            "season_form": season_form,
            "import_form": import_form,
            "result": result,
        },
        status=status,
    )


def _player(fed_id: str) -> Player:
    return get_object_or_404(Player, fed_id=fed_id, merged_into__isnull=True)


@require_http_methods(["GET", "POST"])
@permission_required("players.manage_licences")
def player_licence(request: HttpRequest, fed_id: str) -> HttpResponse:
    """A player's licence for a season, typed by an officer."""
    player = _player(fed_id)
    current = licence_current(player=player)
    initial = (
        {
            "season": current.season_id,
            "category": current.category,
            "club": current.club,
            "licensed_on": current.licensed_on,
        }
        if current
        else {"club": player.club}
    )
    form = LicenceForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                licence_services.licence_set(user=request.user, player=player, **form.cleaned_data)
            except Refused as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("The licence was saved."))
                return redirect("players:detail", fed_id=player.fed_id)
        status = 400
    return render(
        request,
        "players/licence_form.html",
        {"player": player, "form": form, "licences": player.licences.select_related("season")},
        status=status,
    )


@require_http_methods(["GET", "POST"])
@permission_required("players.withdraw_licence")
def player_licence_delete(request: HttpRequest, fed_id: str, pk: int) -> HttpResponse:
    """GET: the licence and a confirmation; POST: withdraw it (typed by mistake)."""
    player = _player(fed_id)
    licence = get_object_or_404(player.licences.select_related("season"), pk=pk)
    if request.method == "POST":
        licence_services.licence_delete(user=request.user, licence=licence)
        messages.success(
            request,
            _("The licence for %(season)s was withdrawn.") % {"season": licence.season.name},
        )
        return redirect("players:licence", fed_id=player.fed_id)
    return render(request, "players/licence_delete.html", {"player": player, "licence": licence})


@require_http_methods(["GET", "POST"])
@permission_required("players.record_death")
def player_deceased(request: HttpRequest, fed_id: str) -> HttpResponse:
    """Record a player's death (fide-2024 10.2), or clear one recorded by mistake."""
    player = _player(fed_id)
    # Bound on every POST: an empty date clears a death recorded by mistake.
    form = DeceasedForm(
        request.POST if request.method == "POST" else None,
        initial={"deceased_on": player.deceased_on},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                licence_services.player_deceased_set(
                    user=request.user, player=player, deceased_on=form.cleaned_data["deceased_on"]
                )
            except Refused as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("The record was saved."))
                return redirect("players:detail", fed_id=player.fed_id)
        status = 400
    return render(
        request, "players/deceased_form.html", {"player": player, "form": form}, status=status
    )
