"""The API tokens page: a signed-in user creates tokens for his programs and revokes them
(core/api/tokens.py). A new token's key is shown once, on the page that created it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.api.tokens import token_create, token_revoke, tokens_of
from core.errors import Refused
from core.permissions import permission_required
from core.rules import is_arbiter, is_officer, is_player


@require_http_methods(["GET", "POST"])
@permission_required("core.manage_api_tokens")
def api_tokens(request: HttpRequest) -> HttpResponse:
    new_key = ""
    status = 200
    if request.method == "POST":
        try:
            _token, new_key = token_create(user=request.user, name=request.POST.get("name", ""))
        except Refused as exc:
            messages.error(request, str(exc))
            status = 400
    return render(
        request,
        "core/api_tokens.html",
        {"tokens": tokens_of(user=request.user), "new_key": new_key},
        status=status,
    )


@require_POST
@permission_required("core.manage_api_tokens")
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    if token_revoke(user=request.user, token_id=pk):
        messages.success(request, _("The token is revoked: programs using it are refused."))
    else:
        messages.error(request, _("You have no such token."))
    return redirect("api_tokens")


@require_GET
@login_required
def landing(request: HttpRequest) -> HttpResponse:
    """Where a user lands after logging in (LOGIN_REDIRECT_URL; a `next` address still wins):
    the page of his work rather than the public home page. A rating officer on his desk, an
    arbiter on his tournaments, a player on his own card; anyone else on the home page."""
    user = request.user
    if is_officer(user):
        return redirect("ratings:desk")
    if is_arbiter(user):
        return redirect("tournaments:desk")
    player = getattr(user, "player", None)
    if is_player(user) and player is not None:
        return redirect("players:detail", player.fed_id)
    return redirect("home")
