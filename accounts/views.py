"""The accounts' pages (docs/accounts.md): sign up, confirm the address, claim a record, ask
for corrections; the officer's decisions (posted from his desk). Thin: accounts.services
decides."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts import selectors
from accounts.forms import ClaimForm, CorrectionForm, DecisionForm, SignupForm
from accounts.models import CORRECTABLE_FIELDS, ClaimRequest, CorrectionRequest
from accounts.services import claims, corrections, signup
from core.errors import Refused
from core.permissions import objectgetter, permission_required

#: Who logs in a user whose address was just confirmed (there is no password to check).
_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
@permission_required("accounts.sign_up")
def signup_page(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            signup.account_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                address=request.META.get("REMOTE_ADDR", ""),
                language=get_language() or "",
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error("password1" if field == "password" else field, errors)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            return redirect("accounts:signup_sent")
    return render(request, "accounts/signup.html", {"form": form})


@require_safe
@permission_required("accounts.sign_up")
def signup_sent(request: HttpRequest) -> HttpResponse:
    """The same page whether the address was new or had an account (docs/accounts.md)."""
    return render(
        request, "accounts/signup_sent.html", {"confirm_days": settings.ACCOUNTS_CONFIRM_DAYS}
    )


@require_http_methods(["GET", "POST"])
@permission_required("accounts.confirm_email")
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button, POST confirms: a mail program that opens links to check them
    does not open the account."""
    if request.method == "POST":
        try:
            user = signup.account_confirm(token=token)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            login(request, user, backend=_BACKEND)
            messages.success(
                request, _("Your address is confirmed. Claim your player record if you have one.")
            )
            return redirect("accounts:claim")
    return render(request, "accounts/signup_confirm.html", {"token": token})


@require_http_methods(["GET", "POST"])
@permission_required("accounts.claim_player")
def claim_page(request: HttpRequest) -> HttpResponse:
    """Claim my record: the form, and my claims with their decisions."""
    form = ClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            claims.claim_submit(
                user=request.user,
                method=form.cleaned_data["method"],
                fed_id=form.cleaned_data["fed_id"] or "",
                birth_date=form.cleaned_data["birth_date"],
                fide_id=form.cleaned_data["fide_id"],
                language=get_language() or "",
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Your claim is sent. The rating office will answer."))
            return redirect("accounts:claim")
    mine = list(selectors.claims_of_user(user=request.user)[:20])
    pending = any(c.status == "pending" for c in mine)
    return render(
        request, "accounts/claim.html", {"form": form, "claims": mine, "pending": pending}
    )


@require_http_methods(["GET", "POST"])
@permission_required("accounts.request_correction")
def corrections_page(request: HttpRequest) -> HttpResponse:
    """My correction requests: the form with my record's values, and my requests."""
    player = getattr(request.user, "player", None)
    if player is None:  # a superuser passes every rule; he has no record to correct
        messages.error(request, _("Your account is not linked to a player of the registry."))
        return redirect("home")
    form = CorrectionForm(request.POST or None, player=player)
    if request.method == "POST" and form.is_valid():
        try:
            corrections.correction_submit(
                user=request.user,
                changes={f: form.cleaned_data[f] for f in CORRECTABLE_FIELDS},
                note=form.cleaned_data["note"],
                language=get_language() or "",
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Your request is sent. The rating office will answer."))
            return redirect("accounts:corrections")
    return render(
        request,
        "accounts/corrections.html",
        {"form": form, "requests": selectors.corrections_of_user(user=request.user)[:20]},
    )


def _decided(request: HttpRequest, done: str) -> HttpResponse:
    messages.success(request, done)
    return redirect("ratings:desk")


def _decide(
    request: HttpRequest, decide: Callable[..., Any], done: tuple[str, str]
) -> HttpResponse:
    """The desk's approve/refuse form for one request: `decide(approve=, reason=)` is the
    service; `done` the messages for an approval and a refusal."""
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose approve or refuse."))
        return redirect("ratings:desk")
    try:
        decided = decide(
            user=request.user,
            approve=form.cleaned_data["approve"],
            reason=form.cleaned_data["reason"],
        )
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("ratings:desk")
    return _decided(request, done[0] if decided.status == "approved" else done[1])


@require_POST
@permission_required("accounts.decide_claim", fn=objectgetter(ClaimRequest))
def claim_decide(request: HttpRequest, pk: int) -> HttpResponse:
    claim = ClaimRequest.objects.get(pk=pk)
    return _decide(
        request,
        partial(claims.claim_decide, claim=claim),
        (_("Claim approved: the account is linked."), _("Claim refused.")),
    )


@require_POST
@permission_required("accounts.decide_correction", fn=objectgetter(CorrectionRequest))
def correction_decide(request: HttpRequest, pk: int) -> HttpResponse:
    correction = CorrectionRequest.objects.get(pk=pk)
    return _decide(
        request,
        partial(corrections.correction_decide, correction=correction),
        (_("Correction accepted: the record is changed."), _("Correction refused.")),
    )
