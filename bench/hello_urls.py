"""URLs of bench/hello_wsgi.py: the bare "hello" view, the same word in the site's layout, then
every URL of the site unchanged."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

from config import urls as site_urls


def hello(request: HttpRequest) -> HttpResponse:
    """The framework's floor: no template, no query, no cache."""
    return HttpResponse(b"hello", content_type="text/plain")


#: The site's layout (base.html) around one word: what any page of the site costs before its own
#: content (compiled once).
_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}<p>hello</p>{% endblock %}'
)


def hello_page(request: HttpRequest) -> HttpResponse:
    """The site's page floor: the layout, its context processors, no query of its own."""
    return HttpResponse(_PAGE.render({}, request))


urlpatterns = [
    path("bench/hello/", hello, name="bench-hello"),
    path("bench/hello-page/", hello_page, name="bench-hello-page"),
    *site_urls.urlpatterns,
]
