"""Token authentication for programs: ``Authorization: Token <key>`` (or ``Bearer <key>``).

The browser uses DRF's SessionAuthentication, which enforces CSRF on unsafe methods."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from core.api.tokens import token_user

KEYWORDS = ("token", "bearer")


class ApiTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].decode("latin-1").lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Give the token after the keyword."))
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        found = token_user(key=key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return found

    def authenticate_header(self, request: Request) -> str:
        # Anonymous requests that need a user answer 401 with this challenge (not 403).
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """How the schema describes the token (drf-spectacular finds the subclass by its target)."""

    target_class = "core.api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: a key created on the site's API tokens page.",
        }
