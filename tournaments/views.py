"""Thin views over tournaments.services and tournaments.selectors."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import history
from core.permissions import objectgetter, permission_required
from tournaments import selectors, services
from tournaments.forms import (
    MAX_FORM_PLAYERS,
    CrosstableForm,
    ReportUploadForm,
    TournamentRegistrationForm,
)
from tournaments.models import Report, ReportFormat, ReportStatus, Tournament

#: The object the tournament rules (tournaments/rules.py) are tested on.
_tournament = objectgetter(Tournament)


def _managed(request: HttpRequest, pk: int) -> Tournament:
    """The tournament with what its management pages show (the permission is already checked)."""
    try:
        return selectors.tournament_get(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None


@permission_required("tournaments.browse_tournaments")
def tournament_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    mine = request.GET.get("mine") and request.user.is_authenticated
    if mine:
        tournaments = selectors.tournament_list_for_user(user=request.user, query=query)[:500]
    else:
        tournaments = selectors.tournament_list_public(query=query)
    return render(
        request, "tournaments/list.html", {"tournaments": tournaments, "q": query, "mine": mine}
    )


@permission_required("tournaments.browse_tournaments")
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = selectors.tournament_get_public(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None
    # With its reports' and games' events (they refer to the tournament).
    events = (
        history.object_history(obj=tournament, related=True)
        if history.history_visible(user=request.user)
        else None
    )
    return render(
        request, "tournaments/detail.html", {"tournament": tournament, "history_events": events}
    )


@permission_required("tournaments.register_tournament")
def tournament_register(request: HttpRequest) -> HttpResponse:
    form = TournamentRegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = {
            k: v
            for k, v in form.cleaned_data.items()
            if k not in ("top_rating", "top_woman_rating")
        }
        try:
            tournament = services.tournament_register(
                arbiter=request.user,
                data=data,
                top_rating=form.cleaned_data.get("top_rating"),
                top_woman_rating=form.cleaned_data.get("top_woman_rating"),
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            if tournament.late_registration:
                messages.warning(
                    request, _("Registered late: a rating officer must approve the registration.")
                )
            else:
                messages.success(request, _("Tournament registered."))
            return redirect("tournaments:manage", pk=tournament.pk)
    return render(request, "tournaments/register.html", {"form": form})


@permission_required("tournaments.manage_tournament", fn=_tournament)
def tournament_manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    return _manage_page(request, tournament, ReportUploadForm())


def _manage_page(
    request: HttpRequest,
    tournament: Tournament,
    form: ReportUploadForm,
    *,
    upload_problems: list | None = None,
    status: int = 200,
) -> HttpResponse:
    report = selectors.report_current(tournament=tournament)
    matching = selectors.tournament_matching(tournament=tournament) if report else []
    counts = {"matched": 0, "ambiguous": 0, "new": 0}
    for m in matching:
        counts[m.state] += 1
    context = {
        "tournament": tournament,
        "form": form,
        "report": report,
        "problems": selectors.problems_display(problems=report.problems) if report else [],
        "upload_problems": selectors.problems_display(problems=upload_problems)
        if upload_problems
        else None,
        "reports": selectors.report_list(tournament=tournament),
        "counts": counts,
        "max_bytes": settings.REPORT_MAX_BYTES,
        "max_form_players": MAX_FORM_PLAYERS,
    }
    return render(request, "tournaments/manage.html", context, status=status)


def _upload_answer(
    request: HttpRequest, tournament: Tournament, report: Report, form: ReportUploadForm
) -> HttpResponse:
    if report.status == ReportStatus.REJECTED:
        codes = {p["code"] for p in report.problems}
        status = (
            413
            if "too_large" in codes
            else 400
            if codes & {"empty", "binary", "utf16", "format_mismatch", "unknown_format"}
            else 422
        )
        messages.error(
            request, _("The report was rejected (submission %(n)s).") % {"n": report.submission}
        )
        tournament.refresh_from_db()
        return _manage_page(
            request, tournament, form, upload_problems=report.problems, status=status
        )
    tournament.refresh_from_db()
    if tournament.status == "validated":
        messages.success(request, _("Report accepted and validated."))
    else:
        messages.info(
            request,
            _("Report accepted (submission %(n)s). See the problems and the players below.")
            % {"n": report.submission},
        )
    return redirect("tournaments:manage", pk=tournament.pk)


@require_POST
@permission_required("tournaments.manage_tournament", fn=_tournament)
def report_upload(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    form = ReportUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _manage_page(request, tournament, form, status=400)
    upload = form.cleaned_data["file"]
    try:
        if upload.size > settings.REPORT_MAX_BYTES:  # refused before reading or parsing
            report = services.report_reject_oversize(
                tournament=tournament, user=request.user, filename=upload.name, size=upload.size
            )
        else:
            report = services.report_upload(
                tournament=tournament,
                user=request.user,
                data=upload.read(),
                filename=upload.name,
                declared_format=form.cleaned_data["format"],
            )
    except services.ReportLocked as exc:
        messages.error(request, str(exc))
        return _manage_page(request, tournament, form, status=403)
    return _upload_answer(request, tournament, report, form)


@permission_required("tournaments.manage_tournament", fn=_tournament)
def crosstable_form(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    try:
        size = int(request.POST.get("size") or request.GET.get("size") or 4)
    except ValueError:
        size = 4
    form = CrosstableForm(request.POST or None, size=size)
    problems = None
    status = 200
    if request.method == "POST" and form.is_valid():
        text = services.crosstable_form_to_csv(rows=form.rows(), cells=form.cells())
        try:
            report = services.report_upload(
                tournament=tournament,
                user=request.user,
                data=text.encode("utf-8"),
                filename="crosstable-form.csv",
                declared_format="csv",
                form=True,
            )
        except services.ReportLocked as exc:
            raise PermissionDenied(str(exc)) from None
        if report.status == ReportStatus.ACCEPTED:
            messages.success(
                request, _("Crosstable accepted (submission %(n)s).") % {"n": report.submission}
            )
            return redirect("tournaments:manage", pk=tournament.pk)
        problems = selectors.problems_display(problems=report.problems)
        status = 422
    elif request.method == "POST":
        status = 400
    return render(
        request,
        "tournaments/crosstable_form.html",
        {
            "tournament": tournament,
            "form": form,
            "problems": problems,
            "size": form.size,
            "max_players": MAX_FORM_PLAYERS,
            "form_format": ReportFormat.FORM,
        },
        status=status,
    )


@permission_required("tournaments.manage_tournament", fn=_tournament)
def tournament_matching(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    if request.method == "POST":
        picks = {}
        fed_ids = {}
        for key, value in request.POST.items():
            assert isinstance(value, str)  # items() gives a list only for a key with no value
            if key.startswith("pick_") and key[5:].isdigit():
                picks[int(key[5:])] = value
            elif key.startswith("fedid_") and key[6:].isdigit() and value.strip():
                fed_ids[int(key[6:])] = value.strip()
        try:
            done = services.players_confirm(
                tournament=tournament, user=request.user, picks=picks, new_fed_ids=fed_ids
            )
        except services.ReportLocked as exc:
            raise PermissionDenied(str(exc)) from None
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request, _("%(picked)s players picked, %(created)s new players created.") % done
            )
            tournament.refresh_from_db()
            if tournament.status == "validated":
                messages.success(request, _("The tournament is validated."))
            return redirect("tournaments:matching", pk=tournament.pk)
    matching = selectors.tournament_matching(tournament=tournament)
    return render(
        request, "tournaments/matching.html", {"tournament": tournament, "matching": matching}
    )


@require_POST
@permission_required("tournaments.approve_registration", fn=_tournament)
def tournament_approve(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    services.tournament_approve_late(tournament=tournament, officer=request.user)
    messages.success(request, _("Late registration approved."))
    return redirect("tournaments:manage", pk=tournament.pk)
