"""List downloads (public, cached, streamed) and the officer-only list import pages: the form
with the recent imports, and a page per import job (progress, then the counts or the problems).
The import itself runs on a Celery worker (lists/imports/jobs.py)."""

from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.messages import stored_message
from core.permissions import objectgetter, permission_required
from lists import exports
from lists.imports import jobs as import_jobs
from lists.imports.external import external_lists_recent, external_preview
from lists.imports.importer import ListImportError
from lists.imports.preview import PREVIEW_BYTES, list_preview
from lists.imports.source import ByteSource
from lists.models import ListImportJob
from periods.models import RatingSystem
from ratings.models import PublishedList

CACHE_MAX_AGE = 60 * 60 * 24 * 365
FORMAT_LABELS = {
    "csv": _("CSV (spreadsheets)"),
    "json": _("JSON"),
    "txt": _("Fixed-width TXT in the regulation's layout (with the federation ID)"),
    "xml": _("XML in the regulation's layout (with the federation ID)"),
    "fide.txt": _("FIDE's TXT: FIDE's columns only, for tools that read FIDE's files"),
    "fide.xml": _("FIDE's XML: FIDE's columns only, for tools that read FIDE's files"),
}


#: The object the import rule (lists.import_list, lists/rules.py) is tested on.
_job = objectgetter(ListImportJob)


@require_safe
@permission_required("ratings.browse_lists")
def list_downloads(request: HttpRequest, pk: int) -> HttpResponse:
    published = get_object_or_404(PublishedList.objects.select_related("system"), pk=pk)
    formats = [(fmt, FORMAT_LABELS[fmt]) for fmt in exports.FORMATS]
    layout = exports.layout_description(published_list=published)
    return render(
        request,
        "lists/downloads.html",
        {"list": published, "formats": formats, "layout": layout},
    )


def _etag_matches(header: str, etag: str) -> bool:
    """If-None-Match uses the weak comparison (RFC 9110 13.1.2)."""
    if header.strip() == "*":
        return True
    candidates = [c.strip() for c in header.split(",")]
    return any(c.removeprefix("W/") == etag for c in candidates)


@require_safe
@permission_required("ratings.browse_lists")
def list_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse | StreamingHttpResponse:
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
        label=_("Rating system"),
        queryset=RatingSystem.objects.order_by("name"),
        help_text=_(
            "Its rate of play chooses the rating read from a FIDE list of one rate. Its "
            "ratings are written only when “This rating system's ratings” is chosen below."
        ),
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            ("txt", _("FIDE TXT list (columns found from the header line)")),
            ("xml", _("FIDE XML list")),
            ("csv", _("CSV with a header row")),
        ],
    )
    target = forms.ChoiceField(
        label=_("Ratings written"),
        required=False,
        choices=[
            (
                "",
                _("By format: FIDE ratings for TXT and XML, this system's ratings for CSV"),
            ),
            ("fide", _("FIDE ratings of the players")),
            ("system", _("This rating system's ratings")),
        ],
        help_text=_(
            "A FIDE list sets each player's FIDE rating of its rate of play (standard, rapid "
            "or blitz; FIDE's combined list sets all three) and leaves the national ratings as "
            "they are. Choose this rating system's ratings only to start a national list from "
            "a file."
        ),
    )
    players = forms.ChoiceField(
        label=_("Players created"),
        required=False,
        choices=[
            ("", _("By ratings written: none for FIDE ratings, every player for this system's")),
            ("update", _("None: only update the players already in the registry")),
            ("federation", _("The federation's own players")),
            ("all", _("Every player of the file, foreign ones too")),
        ],
        help_text=_(
            "Players are matched by FIDE ID. A FIDE list holds every federation's players: by "
            "default it only updates those already in the registry. “The federation's own” "
            "also creates the rows whose federation is this federation's code; the preview "
            "counts what will be created, updated and skipped."
        ),
    )
    file = forms.FileField(label=_("List file"))

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > import_jobs.max_bytes():
            raise forms.ValidationError(import_jobs.too_large_message())
        return upload


def _upload_source(upload: UploadedFile) -> ByteSource:
    """The uploaded file read in pieces, from its start, each time the import asks."""

    def pieces() -> Iterator[bytes]:
        upload.seek(0)
        yield from upload.chunks(import_jobs.CHUNK_BYTES)

    return pieces


@require_http_methods(["GET", "POST"])
@permission_required("lists.import_list")
def list_import(request: HttpRequest) -> HttpResponse:
    status = 200
    preview = None
    if request.method == "POST":
        form = ListImportForm(request.POST, request.FILES)
        if form.is_valid() and "preview" in request.POST:
            # The first rows as the import reads them; nothing is stored or written.
            upload = form.cleaned_data["file"]
            preview = list_preview(
                data=upload.read(PREVIEW_BYTES),
                format=form.cleaned_data["format"],
                system=form.cleaned_data["system"],
                target=form.cleaned_data["target"] or None,
                players=form.cleaned_data["players"] or None,
                source=_upload_source(upload),
            )
        elif form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                job = import_jobs.list_import_request(
                    system=form.cleaned_data["system"],
                    data=upload.chunks(import_jobs.CHUNK_BYTES),
                    format=form.cleaned_data["format"],
                    target=form.cleaned_data["target"] or None,
                    players=form.cleaned_data["players"] or None,
                    filename=upload.name or "",
                    user=request.user,
                )
            except import_jobs.ListImportRefused as exc:
                form.add_error("file", str(exc))
                status = 400
            else:
                return redirect("ratings:list_import_job", pk=job.pk)
        else:
            status = 400
    else:
        form = ListImportForm()
    return render(
        request,
        "lists/import.html",
        {
            "form": form,
            "preview": preview,
            "preview_system": form.cleaned_data.get("system") if preview else None,
            "preview_problems": [stored_message(p.template, p.params) for p in preview.problems]
            if preview
            else [],
            "jobs": import_jobs.list_import_jobs_recent(),
            "federation_code": settings.FEDERATION_CODE,
        },
        status=status,
    )


class ExternalListImportForm(forms.Form):
    source = forms.ChoiceField(
        label=_("List"),
        choices=[
            ("iccf", _("ICCF rating list")),
            ("fpx", _("FPX (Portuguese federation) Elo list")),
        ],
    )
    list_date = forms.DateField(
        label=_("In force from"),
        help_text=_(
            "The day the list comes into force (ICCF: 1 January, 1 April, 1 July or 1 October). "
            "A period reads the list in force on its date (cnxc-2000 5.3, 7.3)."
        ),
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            ("txt", _("ICCF's list saved as text (tab-separated, with its header row)")),
            ("csv", _("CSV with a header row (docs/lists.md)")),
        ],
    )
    file = forms.FileField(label=_("List file"))

    def clean_file(self) -> UploadedFile:
        upload = self.cleaned_data["file"]
        if upload.size > import_jobs.max_bytes():
            raise forms.ValidationError(import_jobs.too_large_message())
        return upload


@require_http_methods(["GET", "POST"])
@permission_required("lists.import_list")
def external_list_import(request: HttpRequest) -> HttpResponse:
    """The ICCF and FPX list imports: the preview runs the whole import and rolls it back (its
    counts are the import's); the import runs as a job, like the FIDE import's."""
    status = 200
    preview = None
    problems: list[str] = []
    if request.method == "POST":
        form = ExternalListImportForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            upload = data["file"]
            if "preview" in request.POST:
                try:
                    preview = external_preview(
                        source=data["source"],
                        list_date=data["list_date"],
                        # Read in pieces (chunks() rewinds the upload at each call).
                        data=lambda: iter(upload.chunks(import_jobs.CHUNK_BYTES)),
                    )
                except ListImportError as exc:
                    problems = [stored_message(p.template, p.params) for p in exc.problems]
            else:
                try:
                    job = import_jobs.list_import_request(
                        system=None,
                        data=upload.chunks(import_jobs.CHUNK_BYTES),
                        format=data["format"],
                        filename=upload.name or "",
                        user=request.user,
                        source=data["source"],
                        list_date=data["list_date"],
                    )
                except import_jobs.ListImportRefused as exc:
                    form.add_error("file", str(exc))
                    status = 400
                else:
                    return redirect("ratings:list_import_job", pk=job.pk)
        else:
            status = 400
    else:
        form = ExternalListImportForm()
    return render(
        request,
        "lists/import_external.html",
        {
            "form": form,
            "preview": preview,
            "preview_problems": problems,
            "lists": external_lists_recent(),
        },
        status=status,
    )


@require_safe
@permission_required("lists.import_list", fn=_job)
def list_import_job(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(ListImportJob.objects.select_related("system", "requested_by"), pk=pk)
    problems = [
        {
            "line": p.get("line"),
            "field": p.get("field", ""),
            "message": import_jobs.problem_message(p),
        }
        for p in job.problems
    ]
    return render(
        request,
        "lists/import_job.html",
        {
            "job": job,
            "unmatched": (job.rows or 0) - (job.players_updated or 0),
            "progress": import_jobs.list_import_job_progress(job=job),
            "problems": problems,
            "problems_cut": job.problem_total > len(problems),
            "error": gettext(job.error) if job.error else "",
        },
    )


@require_POST
@permission_required("lists.import_list", fn=_job)
def list_import_job_requeue(request: HttpRequest, pk: int) -> HttpResponse:
    """Send a job stuck in the queue to the workers again (same permission as the import)."""
    job = get_object_or_404(ListImportJob, pk=pk)
    try:
        import_jobs.list_import_requeue(job=job)
    except import_jobs.ListImportRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, gettext("The import was sent to the workers again."))
    return redirect("ratings:list_import_job", pk=job.pk)


@require_safe
@permission_required("lists.import_list", fn=_job)
def list_import_job_progress(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(ListImportJob, pk=pk)
    return JsonResponse(import_jobs.list_import_job_progress(job=job))
