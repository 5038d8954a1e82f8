"""The accounts' forms: sign-up, claim, correction request, an officer's decision. They check
the shape of what is typed; the services (accounts.services) decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from accounts.models import ClaimMethod
from players.models import Player


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Letters, digits and @/./+/-/_ only. Others see it."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(
        label=_("E-mail address"),
        help_text=_("We send a link to it: the account opens when you follow it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


class ClaimForm(forms.Form):
    method = forms.ChoiceField(
        label=_("How you prove it is you"),
        choices=ClaimMethod.choices,
        initial=ClaimMethod.FED_ID,
        widget=forms.RadioSelect,
    )
    fed_id = forms.CharField(label=_("Federation ID"), max_length=16, required=False)
    birth_date = forms.DateField(
        label=_("Birth date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    fide_id = forms.IntegerField(label=_("FIDE ID"), min_value=1, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("method") == ClaimMethod.FED_ID:
            if not data.get("fed_id"):
                self.add_error("fed_id", _("Give your federation ID."))
            if not data.get("birth_date"):
                self.add_error("birth_date", _("Give your birth date."))
        elif data.get("method") == ClaimMethod.FIDE_ID and not data.get("fide_id"):
            self.add_error("fide_id", _("Give your FIDE ID."))
        return data


class CorrectionForm(forms.Form):
    """The record's fields, filled with its values: the player changes those that are wrong."""

    surname = forms.CharField(label=_("surname(s)"), max_length=120)
    given_name = forms.CharField(label=_("given name"), max_length=120)
    birth_date = forms.DateField(
        label=_("birth date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    birth_year = forms.IntegerField(label=_("birth year"), required=False)
    club = forms.CharField(label=_("club"), max_length=120, required=False)
    region = forms.CharField(label=_("region"), max_length=80, required=False)
    note = forms.CharField(
        label=_("Note for the rating office"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What is wrong, and how the office can check it."),
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial", {f: getattr(player, f) for f in self.base_fields if f != "note"}
        )
        super().__init__(*args, **kwargs)


class DecisionForm(forms.Form):
    approve = forms.TypedChoiceField(
        choices=[("1", _("Approve")), ("0", _("Refuse"))], coerce=lambda v: v == "1"
    )
    reason = forms.CharField(required=False, max_length=2000)
