"""The pages: "my notices", the notice preferences, and the one-click unsubscribe (RFC 8058)
that mail programs POST to without a session."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.permissions import permission_required
from notices import selectors, services
from notices.forms import PreferenceForm
from notices.models import NoticeKind
from notices.tokens import unsubscribe_read


@require_http_methods(["GET", "HEAD", "POST"])
@permission_required("notices.follow_notices")
def notices_mine(request: HttpRequest) -> HttpResponse:
    """His notices, newest first; POST marks them all read."""
    if request.method == "POST":
        count = services.notices_mark_read(user=request.user)
        if count:
            messages.success(request, _("Your notices are marked read."))
        return redirect("notices:mine")
    page = Paginator(selectors.notices_for_user(user=request.user), 25).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "notices/notices.html",
        {"page": page, "unread": selectors.notices_unread_count(user=request.user)},
    )


@require_http_methods(["GET", "HEAD", "POST"])
@permission_required("notices.follow_notices")
def preferences(request: HttpRequest) -> HttpResponse:
    preference = selectors.preference_for(user=request.user)
    initial = {} if preference.pk else {"language": get_language()}
    form = PreferenceForm(request.POST or None, instance=preference, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        services.preference_update(user=request.user, **data)
        messages.success(request, _("Your choices are saved."))
        return redirect("notices:preferences")
    return render(request, "notices/preferences.html", {"form": form})


# Why csrf_exempt: RFC 8058's one-click unsubscribe is a POST from the user's mail program,
# without his session or a CSRF token; the signed token in the URL is what authorises it, and
# it can only turn one kind of notice off for one user.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
@permission_required("notices.unsubscribe")
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page asking to confirm (a link scanner that follows it changes nothing); POST
    (the mail program's one click, or the page's button): done."""
    asked = unsubscribe_read(token=token)
    if asked is None:
        raise Http404(_("This unsubscribe link is not valid."))
    kind = NoticeKind(asked.kind)
    done = False
    if request.method == "POST":
        if not services.kind_stop(user_id=asked.user_id, kind=kind):
            raise Http404(_("This unsubscribe link is not valid."))
        done = True
    return render(request, "notices/unsubscribe.html", {"kind": kind, "done": done, "token": token})
