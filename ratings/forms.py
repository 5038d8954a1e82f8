from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class PublishForm(forms.Form):
    note = forms.CharField(
        label=_("Note (why this version)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
