"""List downloads (public, cached, streamed) and the officer-only list import page."""
from __future__ import annotations

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from players.roles import RATING_OFFICER, user_has_role
from ratings import exports, imports
from ratings.models import PublishedList, RatingSystem

CACHE_MAX_AGE = 60 * 60 * 24 * 365
FORMAT_LABELS = {
    "csv": _("CSV (spreadsheets)"),
    "json": _("JSON"),
    "txt": _("FIDE-style fixed-width TXT"),
    "xml": _("FIDE-style XML"),
}


@require_safe
def list_downloads(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system"), pk=pk)
    formats = [(fmt, FORMAT_LABELS[fmt]) for fmt in exports.FORMATS]
    return render(request, "ratings/downloads.html", {"list": published, "formats": formats})


def _etag_matches(header: str, etag: str) -> bool:
    """If-None-Match uses the weak comparison (RFC 9110 13.1.2)."""
    if header.strip() == "*":
        return True
    candidates = [c.strip() for c in header.split(",")]
    return any(c.removeprefix("W/") == etag for c in candidates)


@require_safe
def list_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    if fmt not in exports.FORMATS:
        raise Http404
    published = get_object_or_404(PublishedList.objects.select_related("system"), pk=pk)
    etag = exports.list_etag(published_list=published, fmt=fmt)
    response: HttpResponse | StreamingHttpResponse
    if _etag_matches(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304)
    else:
        body = exports.list_download(published_list=published, fmt=fmt)
        content_type = exports.FORMATS[fmt]
        if isinstance(body, bytes):
            response = HttpResponse(body, content_type=content_type)
        else:
            response = StreamingHttpResponse(body, content_type=content_type)
        filename = exports.list_filename(published_list=published, fmt=fmt)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=CACHE_MAX_AGE, immutable=True)
    return response


class ListImportForm(forms.Form):
    system = forms.ModelChoiceField(
        label=_("Rating system"), queryset=RatingSystem.objects.order_by("name"),
        help_text=_("The ratings are written to this system."),
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("txt", _("FIDE TXT list (columns found from the header line)")),
                 ("csv", _("CSV with a header row"))],
    )
    file = forms.FileField(label=_("List file"))


@require_http_methods(["GET", "POST"])
def list_import(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not user_has_role(request.user, RATING_OFFICER):
        raise PermissionDenied
    result = None
    problems: list[str] = []
    total = 0
    status = 200
    if request.method == "POST":
        form = ListImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                result = imports.list_import(
                    system=form.cleaned_data["system"], data=form.cleaned_data["file"].read(),
                    format=form.cleaned_data["format"],
                )
            except imports.ListImportError as exc:
                problems = [_render_problem(p) for p in exc.problems]
                total = exc.total
                status = 422
        else:
            status = 400
    else:
        form = ListImportForm()
    return render(request, "ratings/import.html", {
        "form": form, "result": result, "problems": problems, "problem_total": total,
        "problems_cut": total > len(problems),
    }, status=status)


def _render_problem(problem) -> str:
    """Translate the template, then format it with the params (CONTRIBUTING.md)."""
    try:
        return gettext(problem.template) % dict(problem.params)
    except (KeyError, TypeError, ValueError):
        return problem.message
