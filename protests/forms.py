"""The protest forms: submit, request information, answer, decide, appeal, and the officers'
list filter."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem


class _GameChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        black = obj.black.name if obj.black is not None else _("bye")
        return _("%(tournament)s, round %(round)s: %(white)s – %(black)s (%(result)s)") % {
            "tournament": obj.tournament.name,
            "round": obj.round,
            "white": obj.white.name,
            "black": black,
            "result": obj.result,
        }


class ProtestForm(forms.Form):
    """The tournament or game and the grounds; the attachment is checked by the service
    (protests.attachments: by content, not by name)."""

    tournament: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        label=_("Tournament"), queryset=None, required=False, empty_label="—"
    )
    game = _GameChoice(label=_("Game"), queryset=None, required=False, empty_label="—")
    subject = forms.CharField(
        label=_("Or name it in your words"),
        required=False,
        max_length=200,
        help_text=_("When the tournament or game is not in the lists above."),
    )
    text = forms.CharField(
        label=_("Grounds"), widget=forms.Textarea(attrs={"rows": 5}), max_length=5000
    )
    attachment = forms.FileField(
        label=_("Attachment (optional)"),
        required=False,
        help_text=_("A PDF document or an image."),
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,image/*"}),
    )

    def __init__(
        self, *args: Any, tournaments: QuerySet[Any], games: QuerySet[Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments  # type: ignore[attr-defined]
        self.fields["game"].queryset = games  # type: ignore[attr-defined]


class ProtestDecisionForm(forms.Form):
    upheld = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("", "—"), ("1", _("Uphold")), ("0", _("Reject"))],
        coerce=lambda v: v == "1",
    )
    decision = forms.CharField(label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))


class ProtestInformationRequestForm(forms.Form):
    request = forms.CharField(
        label=_("Information needed from the player"), widget=forms.Textarea(attrs={"rows": 3})
    )


class ProtestAnswerForm(forms.Form):
    answer = forms.CharField(label=_("Your answer"), widget=forms.Textarea(attrs={"rows": 4}))


class ProtestAppealForm(forms.Form):
    text = forms.CharField(
        label=_("Grounds of the appeal"), widget=forms.Textarea(attrs={"rows": 4})
    )


class ProtestFilterForm(forms.Form):
    """The officers' protest list: by group of statuses, rating system, player."""

    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[
            ("", _("All")),
            ("open", _("Open")),
            ("waiting", _("Waiting for the player")),
            ("decided", _("Decided")),
        ],
    )
    system = forms.ModelChoiceField(
        label=_("Rating system"),
        queryset=RatingSystem.objects.order_by("name"),
        required=False,
        empty_label=_("All"),
    )
    q = forms.CharField(label=_("Player"), required=False, max_length=80)
