"""Pages of the API: ``?limit=&offset=``, read strictly (core.api.query) and declared with their
bounds: ``limit`` from 1 to MAX_LIMIT, ``offset`` from 0 to MAX_OFFSET; a value outside them
is 400 naming the parameter, not clamped in silence (the schema says what the API reads)."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from core.api.query import integer_schema, query_int

#: No page of any list is longer than this.
MAX_LIMIT = 200
#: Deeper than any list of the office (a bound, so no request asks the database for more).
MAX_OFFSET = 1_000_000_000


class LimitOffset(LimitOffsetPagination):
    default_limit = 50
    max_limit = MAX_LIMIT

    def get_limit(self, request: Request) -> int:
        return query_int(
            request.query_params,
            self.limit_query_param,
            default=self.default_limit,
            minimum=1,
            maximum=self.max_limit,
        )

    def get_offset(self, request: Request) -> int:
        return query_int(
            request.query_params,
            self.offset_query_param,
            default=0,
            minimum=0,
            maximum=MAX_OFFSET,
        )

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": self.limit_query_param,
                "required": False,
                "in": "query",
                "description": f"Items per page ({self.default_limit} by default).",
                "schema": integer_schema(1, self.max_limit),
            },
            {
                "name": self.offset_query_param,
                "required": False,
                "in": "query",
                "description": "Items to skip.",
                "schema": integer_schema(0, MAX_OFFSET),
            },
        ]

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged: dict[str, Any] = super().get_paginated_response_schema(schema)
        paged["properties"]["results"] = {**schema, "maxItems": self.max_limit}
        return paged
