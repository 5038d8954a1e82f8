"""The rating calculator over HTTP: POST the engine's JSON (docs/calculator.md), get the
result. The body is size-limited (413) and the calls rate-limited (the ``calculator``
throttle); a bad input names the item and the field (``players[3].rating``): 400 when the
body does not match the input's schema (rating_engine.input_schema, the one the API's schema
shows), 422 when it does and the engine refuses what it says (a game of an unknown player)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema
from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions
from rest_framework.exceptions import ErrorDetail
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from core.api.permissions import Rule
from core.api.throttles import SignedInRateThrottle
from rating_engine.errors import EngineInputError
from rating_engine.input_schema import period_input_schema
from ratings.calculation.calculator import calculator_error_message, calculator_rate


class TooLarge(exceptions.APIException):
    status_code = 413
    default_code = "too_large"


class RawJSONParser(BaseParser):
    """The body as text: the engine's reader parses it and names the field at fault."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.API_CALCULATOR_MAX_BYTES
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:
            raise TooLarge(_("The period is larger than %(n)s bytes.") % {"n": limit})
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.ParseError(_("The body is not UTF-8 text.")) from None


EXAMPLE = {
    "ruleset": "fide-2024",
    "period": {"start": "2026-10-01", "end": "2026-10-31"},
    "players": [
        {"id": "1001", "rating": 2105, "games": 57},
        {"id": "1002", "rating": 1980, "games": 120},
    ],
    "tournaments": [
        {
            "id": "T1",
            "system": "swiss",
            "end_date": "2026-10-20",
            "games": [{"white": "1001", "black": "1002", "result": "1-0", "round": 1}],
        }
    ],
}


@cache
def _input_validator() -> Any:
    schema = period_input_schema(nullable="json-schema")
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def _matches_schema(text: str) -> bool:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return bool(_input_validator().is_valid(data))


class CalculatorView(APIView):
    parser_classes = [RawJSONParser]
    throttle_classes = [AnonRateThrottle, SignedInRateThrottle, ScopedRateThrottle]
    throttle_scope = "calculator"
    rules = {"post": Rule("ratings.browse_lists")}

    @extend_schema(
        request={"application/json": period_input_schema()},
        responses={200: OpenApiTypes.OBJECT},
        examples=[OpenApiExample("A two-player period", value=EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        """Rate a period given as the calculator's JSON (docs/calculator.md); the answer is
        the engine's result, every decision with its article. The calculator page makes the
        same call (ratings.calculation.calculator)."""
        text = request.data if isinstance(request.data, str) else ""
        try:
            result = calculator_rate(period=text)
        except EngineInputError as err:
            message = calculator_error_message(error=err)
            # Refused by the engine for what it says (422), or not of the input's shape (400).
            code = "inconsistent" if _matches_schema(text) else "invalid"
            raise exceptions.ValidationError(
                {err.location or "non_field_errors": [ErrorDetail(message, code=code)]}
            ) from None
        return Response(result)
