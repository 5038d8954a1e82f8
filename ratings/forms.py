from django import forms
from django.utils.translation import gettext_lazy as _


class PublishForm(forms.Form):
    note = forms.CharField(
        label=_("Note (why this version)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class ProtestForm(forms.Form):
    text = forms.CharField(
        label=_("Grounds"), widget=forms.Textarea(attrs={"rows": 5}), max_length=5000
    )


class ProtestDecisionForm(forms.Form):
    upheld = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("1", _("Uphold")), ("0", _("Reject"))],
        coerce=lambda v: v == "1",
    )
    decision = forms.CharField(
        label=_("Reasons"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
