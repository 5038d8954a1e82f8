"""The schema's view of every operation, as the API behaves (docs/api.md, "The schema tells the
truth"; tests/api/test_schemathesis.py holds the two together): its errors in the one shape of
core.api.errors; an operation whose rule lets anonymous clients in declared public (``{}``
beside the token and the session); request bodies that refuse unknown fields declared closed
(``additionalProperties: false``); text fields with the characters the API refuses excluded."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

from core.api.errors import ErrorSerializer
from core.api.permissions import rule_is_public, rule_of
from core.api.serializers import RefuseUnknownFields

#: What any operation may answer besides its success.
READ_ERRORS = {
    "400": "Invalid parameters (each named in `errors`).",
    "401": "Authentication needed, or the token is invalid.",
    "403": "The rules refuse this to the user.",
    "404": "No such object.",
    "406": "The Accept header asks for a type the API does not serve (JSON only).",
    "429": "Throttled: retry after `Retry-After` seconds.",
}
WRITE_ERRORS = {
    **READ_ERRORS,
    "400": "The body or the parameters do not match the schema (each field named in `errors`).",
    "409": "The office refuses it (wrong state, deadline passed…): `message` says why.",
    "413": "The body is too large.",
    "415": "Unsupported media type.",
    "422": "The body matches the schema but names what does not exist or does not hold "
    "together (an unknown id, an end before the start): each field named in `errors`.",
}

#: What Python's str.strip() (DRF's trim_whitespace) removes: a required text field must hold
#: one character besides these (and no NUL, which DRF and PostgreSQL refuse).
_STRIPPED = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = rf"^[^\x00]*[^\x00{_STRIPPED}][^\x00]*$"


class ApiSchema(AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        if rule_is_public(rule_of(self.view, self.method)) and {} not in auths:
            auths.append({})  # anonymous clients pass the operation's rule
        return auths

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        errors = READ_ERRORS if self.method in ("GET", "HEAD") else WRITE_ERRORS
        for code, description in errors.items():
            if code not in responses:
                body = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                body["description"] = description
                responses[code] = body
        return responses

    def _get_request_for_media_type(self, serializer: Any, direction: Any = "request") -> Any:
        schema, required = super()._get_request_for_media_type(serializer, direction)
        if isinstance(serializer, dict) and serializer.get("required"):
            required = True  # a schema given whole (the calculator's) with required fields
        return schema, required

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, RefuseUnknownFields):
            schema["additionalProperties"] = False
        return schema

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        text = isinstance(field, serializers.CharField | serializers.SlugRelatedField)
        plain = schema.get("type") == "string" and not {"pattern", "format"} & set(schema)
        if direction == "request" and text and plain:
            trimmed = getattr(field, "trim_whitespace", False)
            blank_refused = trimmed and not getattr(field, "allow_blank", True)
            schema["pattern"] = NOT_BLANK if blank_refused else NO_NUL
        return schema
