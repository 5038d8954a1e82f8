"""core.skeleton: a page rendered once with slots, filled for each request, is byte for byte
the page the template renders with the values themselves."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory, override_settings
from django.utils import translation
from django.utils.safestring import mark_safe

from core import skeleton
from core.html import escape_text
from core.skeleton import skeleton_render

QUERIES = ["", "garcia", 'Núñez "el <b>"', "a&b's <script>alert(1)</script>", "ü" * 200]


@pytest.mark.parametrize("language", ["en", "es", "ca", "pt"])
@pytest.mark.parametrize("debug", [False, True])
def test_the_filled_skeleton_is_the_rendered_page(language: str, debug: bool) -> None:
    skeleton._kept.clear()
    factory = RequestFactory()
    with translation.override(language), override_settings(DEBUG=debug):
        for n, query in enumerate(QUERIES):
            request = factory.get("/players/", {"q": query, "page": str(n)})
            request.user = AnonymousUser()
            results = f"<p>results of {escape_text(query)} &amp; more</p>"
            expected = render_to_string(
                "players/list.html",
                {"results": mark_safe(results), "q": query, "csrf_token": "tok"},
                request=request,
            )
            filled = skeleton_render(
                request,
                template_name="players/list.html",
                context={"csrf_token": "tok"},
                slots={
                    "results": results,
                    "q": escape_text(query),
                    "next_path": escape_text(request.get_full_path()),
                },
            )
            assert filled == expected
            assert len(skeleton._kept) == (0 if debug else 1)


def test_a_value_that_looks_like_a_mark_is_not_filled_again() -> None:
    skeleton._kept.clear()
    request = RequestFactory().get("/players/")
    request.user = AnonymousUser()
    mark = skeleton._MARK.format("q")
    html = skeleton_render(
        request,
        template_name="players/list.html",
        context={"csrf_token": "tok"},
        slots={"results": mark, "q": "x", "next_path": "/players/"},
    )
    assert html.count(mark) == 1 and 'value="x"' in html


@pytest.mark.django_db
def test_an_anonymous_search_page_comes_from_the_skeleton(client) -> None:
    skeleton._kept.clear()
    response = client.get("/players/", {"q": '<i>"x"</i>'})
    html = response.content.decode()
    assert 'value="&lt;i&gt;&quot;x&quot;&lt;/i&gt;"' in html
    path = response.wsgi_request.get_full_path()
    assert path.startswith("/players/?q=%3Ci%3E")
    assert f'name="next" type="hidden" value="{path}"' in html
    assert "skeleton-slot" not in html and "csrf-placeholder" not in html
    assert len(skeleton._kept) == 1
