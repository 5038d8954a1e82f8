"""The API tokens page: a signed-in user creates tokens for his programs and revokes them
(core/api/tokens.py). A new token's key is shown once, on the page that created it. The
login page, the landing page after a login, and the language links of every page."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
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


class LoginView(auth_views.LoginView):
    """Django's login page, but a `next` address that is the public home page is not kept:
    the home page's "Log in" link (and an old bookmark of it) lands each role on its own page
    (`landing`), as the login page without `next` does. Any other `next` still wins."""

    def get_redirect_url(self) -> str:
        url = super().get_redirect_url()
        if url and urlsplit(url).path == reverse("home"):
            return ""
        return url


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


@require_GET
@never_cache
def language_switch(request: HttpRequest, code: str) -> HttpResponse:
    """The language links of every page (templates/base.html): keep `code` in the language
    cookie and go back to `next` (this site only; the home page otherwise). A link, not a form
    with a CSRF token, so an anonymous page is the same for every visitor and a proxy may share
    it (docs/caching.md). Never cached: each click sets the visitor's own cookie."""
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    response = HttpResponseRedirect(target)
    if check_for_language(code) and code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
