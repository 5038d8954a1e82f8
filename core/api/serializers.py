"""Serializers that refuse what they do not declare (no mass assignment)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail


class RefuseUnknownFields:
    """A field sent that the serializer does not accept as input (unknown, or read-only:
    ``status``, ``arbiter``…) is an error naming it, not silently dropped."""

    fields: Any

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = sorted(str(k) for k in data if k not in writable)
            if unknown:
                message = _("This field is not accepted here.")
                raise serializers.ValidationError(
                    {k: [ErrorDetail(str(message), code="unknown_field")] for k in unknown}
                )
        return super().to_internal_value(data)  # type: ignore[misc]  # the serializer's


class StrictSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    pass
