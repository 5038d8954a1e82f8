"""Control characters are refused at the edge with a 400 page in the site's layout, in the
user's language; the error pages (400, 403, 404) use the layout too."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory

from core.error_views import server_error
from core.roles import ARBITER
from tests.factories import make_system, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/players/?q=%00",
        "/tournaments/?q=%00",
        "/players/%00/",
        "/players/?q=a%01b",
        "/tournaments/?q%00=1",
        "/ratings/%1b/",
    ],
)
def test_a_control_character_in_the_address_is_a_400_page(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="site-header"' in html  # the site's layout, not Django's bare page
    assert "control character" in html


def test_the_400_page_is_translated(client: Client) -> None:
    client.cookies["django_language"] = "es"
    response = client.get("/players/?q=%00")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'lang="es"' in html
    assert "control character" not in html


def test_tab_and_newline_pass_in_a_search(client: Client) -> None:
    assert client.get("/players/?q=a%09b%0Ac").status_code == 200


def test_a_control_character_in_a_form_field_or_file_name(client: Client) -> None:
    arbiter = make_user(role=ARBITER)
    tournament = make_tournament(make_system(), arbiter)
    client.force_login(arbiter)
    response = client.post(f"/tournaments/{tournament.pk}/crosstable/", {"size": "3\x00"})
    assert response.status_code == 400
    upload = SimpleUploadedFile("re\x07port.trf", b"012 x\n")
    response = client.post(f"/tournaments/{tournament.pk}/upload/", {"file": upload})
    assert response.status_code == 400
    assert "file" in response.content.decode()


def test_a_1000_character_file_name_gets_a_clear_400_page(client: Client) -> None:
    """Django refuses a multipart part whose headers exceed 1,024 bytes; the answer is the
    site's 400 page with a sentence, not Django's bare one. (The test client would cut the
    name to 255 characters, so the body is written by hand.)"""
    arbiter = make_user(role=ARBITER)
    tournament = make_tournament(make_system(), arbiter)
    client.force_login(arbiter)
    boundary = "b0undary"
    body = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="format"\r\n\r\nauto\r\n'
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="file"; filename="{"x" * 996}.trf"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n012 Open\r\n"
        f"--{boundary}--\r\n"
    ).encode()
    response = client.generic(
        "POST",
        f"/tournaments/{tournament.pk}/upload/",
        body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="site-header"' in html
    assert "Rename the file" in html


def test_404_and_403_pages_use_the_layout(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert 'class="site-header"' in response.content.decode()
    client.cookies["django_language"] = "ca"
    response = client.get("/no-such-page/")
    assert "Page not found" not in response.content.decode()
    client.force_login(make_user())
    response = client.get("/ratings/lists/import/")
    assert response.status_code == 403
    assert 'class="site-header"' in response.content.decode()


def test_500_page_uses_the_layout() -> None:
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert 'class="site-header"' in response.content.decode()


def test_under_the_api_the_refusal_is_in_the_apis_error_shape(client: Client) -> None:
    response = client.get("/api/v1/players/?q=%00")
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == 400 and body["code"] == "control_character"
    assert "control character" in body["message"] and body["errors"] == []
