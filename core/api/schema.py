"""The schema's view of every operation: its errors, in the one shape of core.api.errors."""

from __future__ import annotations

from typing import Any

import django_filters
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from core.api.errors import ErrorSerializer

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
    "409": "The office refuses it (wrong state, deadline passed…): `message` says why.",
    "413": "The body is too large.",
    "415": "Unsupported media type.",
}


class ApiSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        errors = READ_ERRORS if self.method in ("GET", "HEAD") else WRITE_ERRORS
        for code, description in errors.items():
            if code not in responses:
                body = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                body["description"] = description
                responses[code] = body
        return responses


_FILTER_TYPES = [
    (django_filters.BooleanFilter, OpenApiTypes.BOOL),
    (django_filters.DateFilter, OpenApiTypes.DATE),
    (django_filters.NumberFilter, OpenApiTypes.INT),
]


def filter_parameters(filterset: type[django_filters.FilterSet]) -> list[OpenApiParameter]:
    """A FilterSet's filters as query parameters, for an action that applies it itself (the
    schema describes filters only on list actions)."""
    out = []
    for name, f in filterset.get_filters().items():
        kind = next((t for cls, t in _FILTER_TYPES if isinstance(f, cls)), OpenApiTypes.STR)
        choices = f.extra.get("choices") if isinstance(f, django_filters.ChoiceFilter) else None
        out.append(
            OpenApiParameter(
                name,
                kind,
                enum=[c[0] for c in choices] if choices else None,
                description=str(f.extra.get("help_text") or f.label or ""),
            )
        )
    return out
