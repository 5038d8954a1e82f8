from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Season


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


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Season"), max_length=40, help_text=_("For example 2026-2027."))
    start = forms.DateField(
        label=_("Start"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    end = forms.DateField(
        label=_("End"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )


class LicenceImportForm(forms.Form):
    season = forms.ModelChoiceField(label=_("Season"), queryset=Season.objects.all())
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("Columns fed_id,category,club,licensed_on, with a header line."),
    )
    preview = forms.BooleanField(
        label=_("Preview: count what would be written, write nothing"),
        required=False,
        initial=True,
    )


class LicenceForm(forms.Form):
    season = forms.ModelChoiceField(label=_("Season"), queryset=Season.objects.all())
    category = forms.CharField(label=_("Category"), max_length=40)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    licensed_on = forms.DateField(
        label=_("Licensed on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )


class DeceasedForm(forms.Form):
    deceased_on = forms.DateField(
        label=_("Deceased on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("Leave empty to clear a death recorded by mistake."),
    )
