"""Thin forms of the registry's pages: a new arbiter or organiser, the officer's decision."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.officials.models import Arbiter, Organiser


class ArbiterForm(forms.ModelForm):
    class Meta:
        model = Arbiter
        fields = ["name", "fide_id", "title", "category", "federation"]


class OrganiserForm(forms.ModelForm):
    class Meta:
        model = Organiser
        fields = ["name", "contact", "federation"]


class DecisionForm(forms.Form):
    approve = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("1", _("Approve")), ("0", _("Refuse"))],
        coerce=lambda v: v == "1",
        widget=forms.Select(attrs={"aria-label": _("Decision")}),
    )
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=1000,
        widget=forms.TextInput(attrs={"size": 30, "aria-label": _("Reason")}),
        help_text=_("Required to refuse."),
    )
