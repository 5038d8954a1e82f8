from __future__ import annotations

from django import forms

from notices.models import NoticePreference
from periods.models import RatingSystem


class PreferenceForm(forms.ModelForm):
    systems = forms.ModelMultipleChoiceField(
        queryset=RatingSystem.objects.order_by("name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=NoticePreference._meta.get_field("systems").verbose_name,
        help_text=NoticePreference._meta.get_field("systems").help_text,
    )

    class Meta:
        model = NoticePreference
        fields = [
            "language",
            "by_email",
            "list_published",
            "event_rated",
            "live_rating",
            "report",
            "officer_digest",
            "systems",
        ]
