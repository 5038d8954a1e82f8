"""The API's URLs (docs/api.md). Version 1 lives under /api/v1/; any other /api/ path without
a version is answered 308 with the same path under /api/v1/ (method and body kept), so
/api/ points to the current version."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import include, path, re_path
from django.utils.translation import gettext
from django.views.generic import RedirectView
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularSwaggerSplitView,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import SimpleRouter
from rest_framework.views import APIView

from accounts.api import ClaimViewSet, CorrectionViewSet, SignupView
from core import error_views
from core.api.errors import error_response
from core.api.permissions import Rule
from core.errors import RETRY_AFTER_SECONDS, unavailable
from desk.api import DeskView, DuplicatesView, MergeView
from lists.api import ListImportViewSet
from lists.api_external import ExternalListViewSet
from notices.api import NoticePreferenceView, NoticeViewSet
from periods.api import RatingSystemViewSet
from players.api import MyDataView, MyErasureView, MyPrivacyView
from players.api_licences import DeceasedView, LicenceViewSet, SeasonViewSet
from protests.api import ProtestViewSet
from ratings.api.calculator import CalculatorView
from ratings.api.differentials import DifferentialViewSet
from ratings.api.lists import PublishedListViewSet
from ratings.api.periods import RatingPeriodViewSet
from ratings.api.players import PlayerViewSet
from ratings.api.statistics import ListStatisticsViewSet, ScaleMonitoringViewSet
from ratings.api.tournaments import TournamentViewSet
from tournaments.officials.api import ArbiterViewSet, OrganiserViewSet

CURRENT = "v1"

router = SimpleRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("systems", RatingSystemViewSet, basename="system")
router.register("periods", RatingPeriodViewSet, basename="period")
router.register("lists", PublishedListViewSet, basename="list")
router.register("differentials", DifferentialViewSet, basename="differential")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("arbiters", ArbiterViewSet, basename="arbiter")
router.register("organisers", OrganiserViewSet, basename="organiser")
router.register("protests", ProtestViewSet, basename="protest")
router.register("accounts/claims", ClaimViewSet, basename="claim")
router.register("accounts/corrections", CorrectionViewSet, basename="correction")
router.register("notices", NoticeViewSet, basename="notice")
router.register("statistics", ListStatisticsViewSet, basename="statistics")
router.register("scale-monitoring", ScaleMonitoringViewSet, basename="scale-monitoring")
router.register("external-lists", ExternalListViewSet, basename="external-list")
router.register("list-imports", ListImportViewSet, basename="list-import")
router.register("seasons", SeasonViewSet, basename="season")
router.register("licences", LicenceViewSet, basename="licence")


class ApiRoot(APIView):
    """The collections of version 1, and its schema and documentation."""

    rules = {"get": Rule("ratings.browse_lists")}

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        names = [
            *("player", "system", "period", "list", "tournament", "protest"),
            *("claim", "correction", "notice"),
        ]
        links = {f"{n}s": reverse(f"api-v1:{n}-list", request=request) for n in names}
        links["statistics"] = reverse("api-v1:statistics-list", request=request)
        for name in ("calculator", "desk", "signup", "schema", "docs"):
            links[name] = reverse(f"api-v1:{name}", request=request)
        return Response(links)


v1 = [
    path("", ApiRoot.as_view(), name="root"),
    # Before the router's notices/<pk>/, which would take "preferences" for a notice's id.
    path("notices/preferences/", NoticePreferenceView.as_view(), name="notice-preferences"),
    *router.urls,
    path("calculator/", CalculatorView.as_view(), name="calculator"),
    path("desk/", DeskView.as_view(), name="desk"),
    path("registry/deceased/", DeceasedView.as_view(), name="deceased"),
    # The registry's likely duplicates and the merge of two records (docs/registry.md).
    path("registry/duplicates/", DuplicatesView.as_view(), name="duplicates"),
    path("registry/merges/", MergeView.as_view(), name="merges"),
    # The signed-in player's own data (docs/privacy.md).
    path("me/data/", MyDataView.as_view(), name="me-data"),
    path("me/privacy/", MyPrivacyView.as_view(), name="me-privacy"),
    path("me/erasure/", MyErasureView.as_view(), name="me-erasure"),
    path("accounts/signup/", SignupView.as_view(), name="signup"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-v1:schema"), name="docs"),
    # Redoc's bundle asks for its footer logo from Redocly's CDN on every view, with no option
    # to turn it off; the site's policy blocks that request, and every visit logged a
    # Content-Security-Policy error. Its old address now leads to the Swagger UI page, which
    # loads nothing from elsewhere (issue 29).
    path(
        "redoc/",
        RedirectView.as_view(pattern_name="api-v1:docs", permanent=True),
        name="redoc",
    ),
]


def _error(request: HttpRequest, status: int, code: str, message: str) -> JsonResponse:
    return error_response(status=status, code=code, message=message)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: under /api/, the API's error shape; elsewhere the site's page."""
    if request.path.startswith("/api/"):
        return _error(request, 404, "not_found", gettext("Not found."))
    return error_views.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: under /api/, the API's error shape; elsewhere the site's page. A passing
    outage (a lost database connection, core.errors.unavailable) is a 503 with Retry-After
    instead, in the same two forms (issue 28). Why here and not in a middleware: Django calls
    this for an exception raised anywhere (a middleware loading the session, the view, DRF
    re-raising what it does not handle) while the exception is being handled, so
    sys.exc_info() names it; a middleware's process_exception sees only the view's."""
    outage = unavailable(sys.exc_info()[1])
    if outage is not None:
        if request.path.startswith("/api/"):
            response = _error(request, 503, "unavailable", str(outage))
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return response
        return error_views.service_unavailable(request, str(outage))
    if request.path.startswith("/api/"):
        return _error(request, 500, "server_error", gettext("Server error."))
    return error_views.server_error(request)


def unversioned(request: HttpRequest, rest: str) -> HttpResponsePermanentRedirect:
    """/api/<rest> → /api/v1/<rest>: 308 keeps the method and the body."""
    target = f"/api/{CURRENT}/{rest}"
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    response = HttpResponsePermanentRedirect(target)
    response.status_code = 308
    return response


urlpatterns = [
    path(f"{CURRENT}/", include((v1, "api-v1"))),
    re_path(r"^(?P<rest>(?!v[0-9]+/).*)$", unversioned, name="api-unversioned"),
]
