"""The site's URLs and ``/bench-hello/`` (bench/hello_wsgi.py): a view doing nothing but
answering, the framework's floor per request."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("hello", content_type="text/plain")


urlpatterns = [path("bench-hello/", hello), *site_urlpatterns]
