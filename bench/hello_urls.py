"""URLs of bench/hello_wsgi.py: the bare "hello" view, then every URL of the site unchanged."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config import urls as site_urls


def hello(request: HttpRequest) -> HttpResponse:
    """The framework's floor: no template, no query, no cache."""
    return HttpResponse(b"hello", content_type="text/plain")


urlpatterns = [path("bench/hello/", hello, name="bench-hello"), *site_urls.urlpatterns]
