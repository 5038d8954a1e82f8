"""Every API error in one JSON shape (docs/api.md, "Errors"):

    {"status": 400, "code": "invalid", "message": "Invalid input.",
     "errors": [{"field": "start_date", "code": "required", "message": "This field is required."}]}

``errors`` names each field at fault (``players[3].rating`` for a nested one; ``null`` for the
request as a whole). Invalid input is 400 when the request does not match the schema, and 422
when it does but names nothing that exists or does not hold together (every error's code in
UNPROCESSABLE_CODES: an unknown list id, an end before the start). A refusal of the office
(``core.errors.Refused``) is 409 with its translated sentence; Django's ValidationError from
a service is 400 with its fields; 429 keeps DRF's ``Retry-After`` header. A part of the
office away for a moment (``core.errors.Unavailable``: the workers' broker) is 503 with
``Retry-After`` and the code ``unavailable``; so is a lost database connection
(config.api_urls.server_error)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.errors import RETRY_AFTER_SECONDS, Refused, Unavailable


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(allow_null=True, help_text="The field at fault, or null.")
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer[Any]):
    status = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()
    errors = FieldErrorSerializer(many=True)  # type: ignore[assignment]  # a field named errors


#: Error codes of a request that matches the schema yet cannot be processed (422, not 400):
#: the schema cannot know which ids exist, nor compare two fields.
UNPROCESSABLE_CODES = frozenset({"does_not_exist", "inconsistent", "unknown_cursor"})


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "refused"


class ServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    #: DRF's exception handler turns `wait` into the Retry-After header.
    wait = RETRY_AFTER_SECONDS


def _path(prefix: str, key: object) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key in ("non_field_errors", "__all__"):
                out.extend(_flatten(value, prefix))
            else:
                out.extend(_flatten(value, _path(prefix, key)))
    elif isinstance(detail, list):
        if all(isinstance(v, exceptions.ErrorDetail | str) for v in detail):
            for v in detail:
                out.append(_one(prefix, v))
        else:
            for i, v in enumerate(detail):
                out.extend(_flatten(v, _path(prefix, i)))
    else:
        out.append(_one(prefix, detail))
    return out


def _one(field: str, value: Any) -> dict[str, Any]:
    return {
        "field": field or None,
        "code": str(getattr(value, "code", "invalid") or "invalid"),
        "message": str(value),
    }


def _convert(exc: Exception) -> Exception:
    if isinstance(exc, Refused):
        return Conflict(str(exc))
    if isinstance(exc, Unavailable):
        return ServiceUnavailable(str(exc))
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            return exceptions.ValidationError(
                {field: [str(m) for m in msgs] for field, msgs in exc.message_dict.items()}
            )
        return exceptions.ValidationError({"non_field_errors": exc.messages})
    return exc


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    exc = _convert(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django's 500
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        code, message = "invalid", str(_("Invalid input."))
        if errors and all(e["code"] in UNPROCESSABLE_CODES for e in errors):
            response.status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    else:
        detail = getattr(exc, "detail", None) or str(exc)
        code = str(getattr(detail, "code", None) or getattr(exc, "default_code", "error"))
        message = str(detail)
        errors = []
    response.data = {
        "status": response.status_code,
        "code": code,
        "message": message,
        "errors": errors,
    }
    return response


def error_response(*, status: int, code: str, message: str) -> JsonResponse:
    """The API's error shape for an answer made outside DRF (a middleware, a URL handler)."""
    return JsonResponse(
        {"status": status, "code": code, "message": message, "errors": []}, status=status
    )
