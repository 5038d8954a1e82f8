from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class BirthYearForm(forms.Form):
    birth_year_public = forms.BooleanField(
        label=_("Show my birth year on my card and in the API"), required=False
    )


class ErasureForm(forms.Form):
    note = forms.CharField(
        label=_("Anything the office should know (optional)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
