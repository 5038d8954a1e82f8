"""Protest pages: file a protest against a list entry; "my protests" (the player's own, open
and decided); one protest's page (status, decision, history; the player answers a request for
information and appeals there, the officer acts there); the officers' filtered list. Thin:
every change goes through protests.services (docs/protests.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core import history
from core.errors import Refused
from core.permissions import objectgetter, permission_required
from protests import selectors, services
from protests.deadlines import protest_window
from protests.forms import (
    ProtestAnswerForm,
    ProtestAppealForm,
    ProtestDecisionForm,
    ProtestFilterForm,
    ProtestForm,
    ProtestInformationRequestForm,
)
from protests.models import Protest, ProtestAttachment
from ratings.models import PublishedList

_list = objectgetter(PublishedList)
#: The download's extension, from the content type found in its first bytes (never the name
#: the player gave).
_EXTENSIONS = {
    "application/pdf": "pdf",
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/gif": "gif",
    "image/webp": "webp",
}
_protest = objectgetter(Protest)


@permission_required("protests.submit_protest", fn=_list)
def protest_create(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system"), pk=pk)
    player = getattr(request.user, "player", None)
    tournaments, games = selectors.protest_subjects(published=published, player=player)
    form = ProtestForm(
        request.POST or None, request.FILES or None, tournaments=tournaments, games=games
    )
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["attachment"]
        try:
            protest = services.protest_submit(
                published=published,
                player=player,
                user=request.user,
                text=form.cleaned_data["text"],
                tournament=form.cleaned_data["tournament"],
                game=form.cleaned_data["game"],
                subject=form.cleaned_data["subject"],
                attachment=upload.file if upload else None,
                attachment_name=upload.name if upload else "",
                language=get_language() or "",
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Your protest has been submitted."))
            return redirect("ratings:protest", pk=protest.pk)
    window = protest_window(published=published)
    return render(
        request,
        "protests/protest_form.html",
        {
            "list": published,
            "form": form,
            "window": window,
            "closed": not window.accepts(timezone.now()),
        },
    )


@require_safe
@permission_required("protests.follow_protests")
def protest_mine(request: HttpRequest) -> HttpResponse:
    """ "My protests": his protests with their status and decision, open and decided."""
    page = Paginator(selectors.protest_list_for_player(user=request.user), 25).get_page(
        request.GET.get("page")
    )
    return render(request, "protests/protests_mine.html", {"page": page})


@require_safe
@permission_required("protests.decide_protest")
def protest_list(request: HttpRequest) -> HttpResponse:
    """The officers' list: open, waiting and decided protests, filtered (the officer's desk
    links here)."""
    form = ProtestFilterForm(request.GET or None)
    filters: dict[str, Any] = {}
    if form.is_valid():
        system = form.cleaned_data["system"]
        filters = {
            "status_group": form.cleaned_data["status"],
            "system_id": system.pk if system else None,
            "search": form.cleaned_data["q"],
        }
    page = Paginator(selectors.protest_list_for_office(**filters), 50).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "protests/protests.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "counts": selectors.protest_counts(),
            "history_events": history.model_history(model=Protest),
        },
    )


@require_safe
@permission_required("protests.view_protest", fn=_protest)
def protest_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A protest, its decision and its history: for the player and officers; the forms of the
    steps the viewer may take now."""
    protest = selectors.protest_get(pk=pk)
    page = selectors.protest_page(protest=protest)
    now = timezone.now()
    return render(
        request,
        "protests/protest.html",
        {
            "protest": protest,
            "page": page,
            "appeal_open": page.appeal is not None and page.appeal.accepts(now),
            "history_events": page.events,
            "answer_form": ProtestAnswerForm(),
            "appeal_form": ProtestAppealForm(),
            "request_form": ProtestInformationRequestForm(),
            "decision_form": ProtestDecisionForm(),
        },
    )


@require_safe
@permission_required("protests.view_protest", fn=_protest)
def protest_attachment(request: HttpRequest, pk: int) -> HttpResponse:
    """The attachment, as a download (never shown inline: it is the player's file)."""
    attachment = get_object_or_404(ProtestAttachment, protest_id=pk)
    response = HttpResponse(bytes(attachment.data), content_type=attachment.content_type)
    extension = _EXTENSIONS.get(attachment.content_type, "bin")
    response["Content-Disposition"] = f'attachment; filename="protest-{pk}.{extension}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _act(
    request: HttpRequest,
    pk: int,
    form_class: type[Any],
    action: Callable[[Protest, dict[str, Any]], Any],
    done: str,
) -> HttpResponse:
    protest = get_object_or_404(Protest.objects.select_related("published_list__system"), pk=pk)
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, _("Fill in the form to continue."))
    else:
        try:
            action(protest, form.cleaned_data)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, done)
    return redirect("ratings:protest", pk=pk)


@require_POST
@permission_required("protests.decide_protest", fn=_protest)
def protest_request_information(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        ProtestInformationRequestForm,
        lambda p, data: services.protest_request_information(
            protest=p, user=request.user, request=data["request"]
        ),
        _("The player has been asked for information."),
    )


@require_POST
@permission_required("protests.answer_protest", fn=_protest)
def protest_answer(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        ProtestAnswerForm,
        lambda p, data: services.protest_answer(
            protest=p, user=request.user, answer=data["answer"]
        ),
        _("Your answer has been sent."),
    )


@require_POST
@permission_required("protests.decide_protest", fn=_protest)
def protest_decide(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        ProtestDecisionForm,
        lambda p, data: services.protest_decide(
            protest=p, user=request.user, upheld=data["upheld"], decision=data["decision"]
        ),
        _("The protest has been decided."),
    )


@require_POST
@permission_required("protests.answer_protest", fn=_protest)
def protest_appeal(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        ProtestAppealForm,
        lambda p, data: services.protest_appeal(protest=p, user=request.user, text=data["text"]),
        _("Your appeal has been submitted."),
    )


@require_POST
@permission_required("protests.decide_protest", fn=_protest)
def protest_decide_appeal(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        ProtestDecisionForm,
        lambda p, data: services.protest_decide_appeal(
            protest=p, user=request.user, upheld=data["upheld"], decision=data["decision"]
        ),
        _("The appeal has been decided."),
    )
