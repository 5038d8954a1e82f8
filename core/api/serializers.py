"""Serializers that refuse what they do not declare (no mass assignment) and read a JSON body
as strictly as the schema describes it (docs/api.md, "The schema tells the truth")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

#: The JSON types each kind of field takes, and the field's own message for another type.
#: DRF converts more (the string "5" for an integer, 5 for a string, "yes" for true), which the
#: schema does not promise: those are refused as the schema says.
_JSON_TYPES: list[tuple[type[serializers.Field[Any, Any, Any, Any]], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "invalid"),
    (serializers.IntegerField, (int, float), "invalid"),  # 2.0 is a JSON integer; 2.5 is not
    (serializers.FloatField, (int, float), "invalid"),
    (serializers.CharField, (str,), "invalid"),
    (serializers.ChoiceField, (str,), "invalid_choice"),
    (serializers.DateField, (str,), "invalid"),
    (serializers.PrimaryKeyRelatedField, (int,), "incorrect_type"),
    (serializers.SlugRelatedField, (str,), "invalid"),
]


#: PostgreSQL cannot hold a NUL character (DRF's CharField refuses it; a slug looked up with
#: one would be a server error): refused in any text, as the schema's patterns say.
_NO_NUL = ProhibitNullCharactersValidator()


def _wrong_json_type(field: Any, value: Any) -> ErrorDetail | None:
    """The field's message when ``value`` is not of the JSON type the schema declares."""
    if isinstance(value, str) and "\x00" in value:
        return ErrorDetail(str(_NO_NUL.message), code=_NO_NUL.code)
    if isinstance(field, serializers.ManyRelatedField):  # a list of the child's values
        if not isinstance(value, list):
            return ErrorDetail(
                str(field.error_messages["not_a_list"]).format(input_type=type(value).__name__),
                code="not_a_list",
            )
        for item in value:
            found = _wrong_json_type(field.child_relation, item)
            if found is not None:
                return found
        return None
    for kind, types, key in _JSON_TYPES:
        if isinstance(field, kind):
            if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
                return None
            try:
                field.fail(key, input=value, format="YYYY-MM-DD", data_type=type(value).__name__)
            except serializers.ValidationError as exc:
                detail = exc.detail
                return detail[0] if isinstance(detail, list) else None  # type: ignore[return-value]
    return None


class RefuseUnknownFields:
    """A field sent that the serializer does not accept as input (unknown, or read-only:
    ``status``, ``arbiter``…) is an error naming it, not silently dropped; in a JSON body a
    value of another JSON type than the field's is an error too."""

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
            if not isinstance(data, QueryDict):  # a form's values are all text
                wrong = {
                    name: _wrong_json_type(self.fields[name], value)
                    for name, value in data.items()
                    if value is not None
                }
                errors = {name: [detail] for name, detail in wrong.items() if detail is not None}
                if errors:
                    raise serializers.ValidationError(errors)
        return super().to_internal_value(data)  # type: ignore[misc]  # the serializer's


class StrictSerializer(RefuseUnknownFields, serializers.Serializer[Any]):
    pass
