"""The client's address behind the site's own proxies (core.middleware.ForwardedForMiddleware):
read from X-Forwarded-For only as far as TRUSTED_PROXY_COUNT proxies vouch for it, so the
per-address limits count visitors, not the proxy, and a client cannot name his own address."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from core.middleware import forwarded_client

PASSWORD = "Quiet-Knight-4812"


@pytest.mark.parametrize(
    ("header", "proxies", "client"),
    [
        ("203.0.113.7", 1, "203.0.113.7"),
        # The client wrote the first entry himself; nginx appended the address it saw.
        ("1.2.3.4, 203.0.113.7", 1, "203.0.113.7"),
        ("1.2.3.4, 203.0.113.7, 10.0.0.2", 2, "203.0.113.7"),
        ("203.0.113.7", 2, ""),  # fewer entries than proxies: nothing believed
        ("not-an-address", 1, ""),
        ("", 1, ""),
        (" 2001:db8::1 ", 1, "2001:db8::1"),
    ],
)
def test_the_client_is_the_entry_the_trusted_proxies_wrote(header, proxies, client) -> None:
    assert forwarded_client(header, proxies=proxies) == client


def _sign_up(client: Client, n: int, forwarded: str):
    return client.post(
        "/accounts/signup/",
        {
            "username": f"user{n}",
            "email": f"user{n}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_X_FORWARDED_FOR=forwarded,
    )


@pytest.mark.django_db
@override_settings(ACCOUNTS_SIGNUPS_PER_HOUR=1)
def test_behind_one_proxy_each_visitor_has_his_own_sign_up_limit() -> None:
    with override_settings(TRUSTED_PROXY_COUNT=1):
        client = Client()  # its handler reads the setting when it first builds the chain
        assert _sign_up(client, 1, "203.0.113.7").status_code == 302
        assert _sign_up(client, 2, "203.0.113.8").status_code == 302
        # The same visitor again: over the limit, whatever he puts in front of the header.
        again = _sign_up(client, 3, "198.51.100.1, 203.0.113.7")
        assert again.status_code == 200 and b"Too many sign-ups" in again.content


@pytest.mark.django_db
@override_settings(ACCOUNTS_SIGNUPS_PER_HOUR=1, TRUSTED_PROXY_COUNT=0)
def test_without_a_proxy_the_header_is_not_believed() -> None:
    client = Client()
    assert _sign_up(client, 1, "203.0.113.7").status_code == 302
    again = _sign_up(client, 2, "203.0.113.8")  # a new address named by the client himself
    assert again.status_code == 200 and b"Too many sign-ups" in again.content
