"""Forms of the officer's pages: the draft list's filters and a game's correction."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.models import EntryStatus
from ratings.office.services import CORRECTABLE
from tournaments.models import GameResult


class DraftListFilter(forms.Form):
    q = forms.CharField(label=_("Name or federation ID"), required=False, max_length=100)
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any"))] + list(EntryStatus.choices)
    )
    changed = forms.BooleanField(label=_("Rating changes only"), required=False)
    flagged = forms.BooleanField(label=_("With a note only"), required=False)


class GameCorrectionForm(forms.Form):
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[(value, label) for value, label in GameResult.choices if value in CORRECTABLE],
    )
    reason = forms.CharField(
        label=_("Why (kept in the history)"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
