"""Thin views over tournaments.services and tournaments.selectors."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from core.caching import public_page
from core.errors import RETRY_AFTER_SECONDS, Refused, Unavailable
from core.permissions import objectgetter, permission_required
from players.selectors import player_search as player_search_selector
from tournaments import part_selectors, selectors, services
from tournaments.decision_selectors import decision_page
from tournaments.forms import (
    MAX_FORM_PLAYERS,
    CrosstableForm,
    ReportUploadForm,
    SubstitutionForm,
    TournamentRegistrationForm,
    WinnerForm,
)
from tournaments.models import (
    Report,
    ReportFormat,
    ReportStatus,
    ReportUploadJob,
    Tournament,
    TournamentStatus,
)
from tournaments.substitution_selectors import competition_records

#: The object the tournament rules (tournaments/rules.py) are tested on.
_tournament = objectgetter(Tournament)


def _managed(request: HttpRequest, pk: int) -> Tournament:
    """The tournament with what its management pages show (the permission is already checked)."""
    try:
        return selectors.tournament_get(pk=pk)
    except Tournament.DoesNotExist:
        raise Http404 from None


#: Tournaments on a page of the list (an arbiter of years, an officer: thousands).
TOURNAMENT_PAGE_SIZE = 100


@permission_required("tournaments.browse_tournaments")
@public_page
def tournament_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    mine = request.GET.get("mine") and request.user.is_authenticated
    filterset = None
    if mine:
        found = selectors.tournament_list_for_user(user=request.user, query=query)
    else:
        filterset, found = selectors.tournament_list_filtered(params=request.GET)
    page = Paginator(found, TOURNAMENT_PAGE_SIZE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": page.object_list,
            "page": page,
            "query": params.urlencode(),
            "q": query,
            "mine": mine,
            "filter": filterset,
        },
    )


@permission_required("tournaments.register_tournament")
def tournament_desk(request: HttpRequest) -> HttpResponse:
    """The arbiter's desk: his tournaments by status, each with what comes next."""
    statuses = dict(TournamentStatus.choices)
    groups = [
        (status, statuses[status], entries)
        for status, entries in selectors.tournament_desk(user=request.user)
    ]
    return render(request, "tournaments/desk.html", {"groups": groups})


@require_GET
@permission_required("tournaments.browse_tournaments")
def report_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The report of a rated tournament, byte for byte as the arbiter sent it."""
    tournament = get_object_or_404(Tournament, pk=pk)
    report = selectors.report_public(tournament=tournament)
    if report is None:
        raise Http404
    response = HttpResponse(bytes(report.data), content_type="application/octet-stream")
    name = report.filename or f"tournament-{tournament.pk}.{report.format}"
    response["Content-Disposition"] = content_disposition_header(True, name) or "attachment"
    response["X-Content-Type-Options"] = "nosniff"
    return response


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


SUBMISSIONS_PER_PAGE = 25


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
    problems = selectors.problems_display(problems=report.problems) if report else []
    context = {
        "tournament": tournament,
        "form": form,
        "report": report,
        "problems": problems,
        "decisions": decision_page(
            tournament=tournament,
            problems=problems,
            officer=request.user.has_perm("tournaments.decide_tournament", tournament),
        ),
        "upload_problems": selectors.problems_display(problems=upload_problems)
        if upload_problems
        else None,
        "reports": Paginator(
            selectors.report_list(tournament=tournament), SUBMISSIONS_PER_PAGE
        ).get_page(request.GET.get("page")),
        "counts": counts,
        "max_bytes": settings.REPORT_MAX_BYTES,
        "max_form_players": MAX_FORM_PLAYERS,
        # fide-2024 4.1, fide-2000 4.11: a tournament rated in parts, each with its period.
        "parts_rule": part_selectors.tournament_parts_rule(tournament=tournament),
        "parts": part_selectors.tournament_parts(tournament=tournament),
        "awaits_part": part_selectors.tournament_awaits_part(tournament=tournament),
        **_competition_context(request, tournament),
    }
    return render(request, "tournaments/manage.html", context, status=status)


def _competition_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The substitutions and norm winner (cnxc-2000 7.2, 7.1) with their forms."""
    records = competition_records(tournament=tournament)
    return {
        "records": records,
        "can_record": request.user.has_perm("tournaments.record_substitutions", tournament),
        "substitution_form": SubstitutionForm(players=records.players),
        "winner_form": WinnerForm(
            players=records.players, initial={"rank": tournament.norm_winner_rank}
        ),
    }


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
    try:
        received = services.report_receive(
            tournament=tournament,
            user=request.user,
            file=form.cleaned_data["file"],
            declared_format=form.cleaned_data["format"],
        )
    except services.ReportLocked as exc:
        messages.error(request, str(exc))
        return _manage_page(request, tournament, form, status=403)
    except Unavailable as exc:  # a large file, and the workers' broker away: nothing kept
        messages.error(request, str(exc))
        response = _manage_page(request, tournament, form, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if isinstance(received, ReportUploadJob):  # a large file: its page follows the worker
        return redirect("tournaments:upload_job", pk=tournament.pk, job=received.pk)
    report = received
    return _upload_answer(request, tournament, report, form)


@permission_required("tournaments.manage_tournament", fn=_tournament)
def crosstable_form(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    try:  # the same rule as the upload (tournaments.submit_report), for GET too
        services.report_change_authorize(tournament=tournament, user=request.user)
    except services.ReportLocked as exc:
        raise PermissionDenied(str(exc)) from None
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
        problems = selectors.problems_display(
            problems=services.crosstable_form_cells(text=text, problems=report.problems)
        )
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
            "grid": form.grid(
                error_fields=frozenset(p["form_field"] for p in problems or [] if "form_field" in p)
            ),
            "size": form.size,
            "max_players": MAX_FORM_PLAYERS,
            "form_format": ReportFormat.FORM,
        },
        status=status,
    )


def _matching_post(request: HttpRequest) -> dict[str, Any]:
    """The review form as the service's arguments: pick_<rank>, fedid_<rank> (a new player's
    federation ID), find_<rank> (a registry player found by the search) and create_all_new."""
    picks: dict[int, str] = {}
    fed_ids: dict[int, str] = {}
    found: dict[int, str] = {}
    for key, value in request.POST.items():
        assert isinstance(value, str)  # items() gives a list only for a key with no value
        prefix, _sep, rank = key.partition("_")
        if not rank.isdigit():
            continue
        if prefix == "pick":
            picks[int(rank)] = value
        elif prefix == "fedid" and value.strip():
            fed_ids[int(rank)] = value.strip()
        elif prefix == "find" and value.strip():
            found[int(rank)] = value.strip()
    return {
        "picks": picks,
        "new_fed_ids": fed_ids,
        "found_fed_ids": found,
        "create_all_new": "create_all_new" in request.POST,
    }


@permission_required("tournaments.manage_tournament", fn=_tournament)
def tournament_matching(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    row_errors: dict[int, list[str]] = {}
    status = 200
    if request.method == "POST":
        try:
            done = services.players_confirm(
                tournament=tournament, user=request.user, **_matching_post(request)
            )
        except services.ReportLocked as exc:
            raise PermissionDenied(str(exc)) from None
        except services.MatchingRefused as exc:
            row_errors = exc.errors
            status = 422
            messages.error(
                request,
                ngettext(
                    "%(n)s line could not be confirmed: see its row. Nothing was saved.",
                    "%(n)s lines could not be confirmed: see their rows. Nothing was saved.",
                    len(row_errors),
                )
                % {"n": len(row_errors)},
            )
        else:
            picked = ngettext("%(n)s player picked.", "%(n)s players picked.", done["picked"]) % {
                "n": done["picked"]
            }
            created = ngettext(
                "%(n)s new player created.", "%(n)s new players created.", done["created"]
            ) % {"n": done["created"]}
            messages.success(request, f"{picked} {created}")
            tournament.refresh_from_db()
            if tournament.status == "validated":
                messages.success(request, _("The tournament is validated."))
            return redirect("tournaments:matching", pk=tournament.pk)
    matching = selectors.tournament_matching(tournament=tournament)
    posted = request.POST if request.method == "POST" else {}
    rows = [
        {
            "m": m,
            "errors": row_errors.get(m.line.start_rank, []),
            "pick": posted.get(f"pick_{m.line.start_rank}", ""),
            "find": posted.get(f"find_{m.line.start_rank}", ""),
            "fedid": posted.get(f"fedid_{m.line.start_rank}", m.line.fed_id),
        }
        for m in matching
    ]
    counts = {"matched": 0, "ambiguous": 0, "new": 0}
    for m in matching:
        counts[m.state] += 1
    return render(
        request,
        "tournaments/matching.html",
        {"tournament": tournament, "rows": rows, "counts": counts},
        status=status,
    )


@require_GET
@permission_required("tournaments.manage_tournament", fn=_tournament)
def player_search(request: HttpRequest, pk: int) -> JsonResponse:
    """The matching form's registry search (players.selectors.player_search), as JSON."""
    result = player_search_selector(query=request.GET.get("q", "")[:100], per_page=20)
    return JsonResponse(
        {
            "total": result.total,
            "results": [
                {
                    "fed_id": p.fed_id,
                    "name": str(p),
                    "birth_year": p.birth_year,
                    "fide_id": p.fide_id,
                    "federation": p.federation,
                }
                for p in result.players
            ],
        }
    )


@require_POST
@permission_required("tournaments.approve_registration", fn=_tournament)
def tournament_approve(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    services.tournament_approve_late(tournament=tournament, officer=request.user)
    messages.success(request, _("Late registration approved."))
    return redirect("tournaments:manage", pk=tournament.pk)


def _moved_from_period(request: HttpRequest, pk: int) -> Any:
    """The period a tournament left when validated after its publication: the object the
    officer's rule (periods.manage_period) is tested on."""
    return get_object_or_404(
        Tournament.objects.select_related("moved_from_period"), pk=pk
    ).moved_from_period


@require_POST
@permission_required("periods.manage_period", fn=_moved_from_period)
def tournament_rate_as_correction(request: HttpRequest, pk: int) -> HttpResponse:
    """The officer rates a tournament validated after its period's publication in that period,
    as a correction of its list, instead of in the open period."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        services.tournament_rate_as_correction(tournament=tournament, officer=request.user)
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _(
                "It will be rated in %(period)s as a correction: that period is marked for "
                "recalculation."
            )
            % {"period": tournament.period},
        )
    return redirect("tournaments:manage", pk=tournament.pk)


def _upload_job(request: HttpRequest, pk: int, job: int) -> ReportUploadJob:
    return get_object_or_404(
        ReportUploadJob.objects.select_related("report"), pk=job, tournament=pk
    )


@require_GET
@permission_required("tournaments.manage_tournament", fn=_tournament)
def upload_job(request: HttpRequest, pk: int, job: int) -> HttpResponse:
    """A large upload on a worker: its progress, then the report's outcome."""
    tournament = _managed(request, pk)
    upload = _upload_job(request, pk, job)
    report = upload.report
    context = {
        "tournament": tournament,
        "job": upload,
        "progress": services.report_upload_job_progress(job=upload),
        "report": report,
        "problems": selectors.problems_display(problems=report.problems) if report else [],
    }
    return render(request, "tournaments/upload_job.html", context)


@require_GET
@permission_required("tournaments.manage_tournament", fn=_tournament)
def upload_job_progress(request: HttpRequest, pk: int, job: int) -> HttpResponse:
    upload = _upload_job(request, pk, job)
    return JsonResponse(services.report_upload_job_progress(job=upload))
