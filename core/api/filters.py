"""The API's filters (django-filter), read strictly and described as they are read: each
filter's schema (type, bounds, choices) comes from ``filter_schema``, which the schema shows
(``StrictFilterExtension``) and the backend checks every request against
(core.api.query.query_check) before django-filter reads it. A filter kind this module cannot
describe exactly is refused when the schema is built, not described loosely."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.extensions import OpenApiFilterExtension
from drf_spectacular.plumbing import build_parameter_type, get_manager, get_view_model
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from core.api.query import STRING_SCHEMA, integer_schema, query_check


class IntegerFilter(django_filters.NumberFilter):
    """A whole number (NumberFilter reads decimals); bounds from ``min_value``/``max_value``."""

    field_class = forms.IntegerField


def filter_schema(f: django_filters.Filter) -> dict[str, Any]:
    """The schema of one filter's query parameter, as core.api.query reads it."""
    schema: dict[str, Any]
    if isinstance(f, django_filters.BooleanFilter):
        schema = {"type": "boolean"}
    elif isinstance(f, django_filters.DateFilter):
        schema = {"type": "string", "format": "date"}
    elif isinstance(f, IntegerFilter):
        schema = integer_schema(f.extra.get("min_value"), f.extra.get("max_value"))
    elif isinstance(f, django_filters.ChoiceFilter) and not callable(f.extra.get("choices")):
        schema = {"type": "string", "enum": [str(value) for value, _l in f.extra["choices"]]}
    elif type(f) is django_filters.CharFilter:
        schema = dict(STRING_SCHEMA)
    else:
        raise ImproperlyConfigured(
            f"{type(f).__name__} {f.field_name!r}: the API describes only boolean, date, "
            "integer (IntegerFilter), choice and text filters"
        )
    description = f.extra.get("help_text") or f.label
    if description:
        schema["description"] = str(description)
    return schema


def filterset_schemas(filterset: type[django_filters.FilterSet]) -> dict[str, dict[str, Any]]:
    return {name: filter_schema(f) for name, f in filterset.base_filters.items()}


def filter_parameters(filterset: type[django_filters.FilterSet]) -> list[OpenApiParameter]:
    """A FilterSet's filters as query parameters, for an action that applies it itself (the
    schema describes a backend's filters only on list actions)."""
    out = []
    for name, schema in filterset_schemas(filterset).items():
        schema = dict(schema)
        description = schema.pop("description", "")
        out.append(OpenApiParameter(name, schema, description=description))
    return out


class StrictFilterBackend(DjangoFilterBackend):
    """django-filter's backend, after the strict reading of its parameters (400 each named);
    django-filter then refuses a value out of its bounds or choices as before (400)."""

    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        filterset = self.get_filterset_class(view, queryset)
        if filterset is not None:
            query_check(request.query_params, filterset_schemas(filterset))
        return super().filter_queryset(request, queryset, view)


class StrictFilterExtension(OpenApiFilterExtension):
    """The schema of StrictFilterBackend's parameters: ``filter_schema`` of each filter (in
    place of drf-spectacular's guesses from the model, which know no bounds)."""

    target_class = StrictFilterBackend
    priority = 1

    def get_schema_operation_parameters(self, auto_schema: Any, *args: Any, **kwargs: Any) -> Any:
        model = get_view_model(auto_schema.view)
        if not model:
            return []
        filterset = self.target.get_filterset_class(auto_schema.view, get_manager(model).none())
        if not filterset:
            return []
        out = []
        for name, schema in filterset_schemas(filterset).items():
            schema = dict(schema)
            description = schema.pop("description", None)
            out.append(
                build_parameter_type(
                    name=name,
                    schema=schema,
                    location=OpenApiParameter.QUERY,
                    description=description,
                )
            )
        return out
