"""Thin forms: the services decide; the forms read the request."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem
from tournaments.kinds import kind_grouped_choices
from tournaments.models import DESCRIPTION_FIELDS, DecisionKind, SubstitutionSide, Tournament
from tournaments.officials.levels import level_grouped_choices
from tournaments.officials.models import Arbiter, Organiser, RecordState

#: The registry's records a tournament names (tournaments.officials) and its level of event.
OFFICIAL_FIELDS = ("chief_arbiter_record", "organiser", "level")

MAX_FORM_PLAYERS = 20


def kind_field() -> forms.ChoiceField:
    """The kind of competition: the kinds of every regulation, grouped under its name; the
    model's ``clean`` refuses one the rating system's regulation does not name."""
    field = Tournament._meta.get_field("kind")
    return forms.ChoiceField(
        label=capfirst(field.verbose_name),
        help_text=field.help_text,
        choices=kind_grouped_choices,
        required=False,
    )


def level_field() -> forms.ChoiceField:
    """The level of the event (feda-1996 1.1): every regulation's levels, grouped under its
    name; the model's ``clean`` refuses one the rating system's regulation does not name."""
    field = Tournament._meta.get_field("level")
    return forms.ChoiceField(
        label=capfirst(field.verbose_name),
        help_text=field.help_text,
        choices=level_grouped_choices,
        required=False,
    )


class TournamentRegistrationForm(forms.ModelForm):
    top_rating = forms.IntegerField(
        label=_("Highest rating expected"),
        required=False,
        min_value=0,
        max_value=3500,
        help_text=_("fide-2024 0.2: over 2700 (a woman over 2500) → register 30 days ahead."),
    )
    top_woman_rating = forms.IntegerField(
        label=_("Highest rating of a woman expected"), required=False, min_value=0, max_value=3500
    )

    class Meta:
        model = Tournament
        fields = [*DESCRIPTION_FIELDS, *OFFICIAL_FIELDS, "rating_system"]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast("forms.ModelChoiceField[RatingSystem]", self.fields["rating_system"])
        field.queryset = RatingSystem.objects.filter(is_active=True).order_by("name")
        self.fields["kind"] = kind_field()
        self.fields["level"] = level_field()
        # Any record but a refused one: a pending one waits for the officer (feda-1996 1.1's
        # check says so); a new one is registered on the registry's page.
        arbiters = cast("forms.ModelChoiceField[Arbiter]", self.fields["chief_arbiter_record"])
        arbiters.queryset = Arbiter.objects.exclude(state=RecordState.REFUSED).order_by("name")
        organisers = cast("forms.ModelChoiceField[Organiser]", self.fields["organiser"])
        organisers.queryset = Organiser.objects.exclude(state=RecordState.REFUSED).order_by("name")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a ModelForm's clean() returns cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        return data


class ReportUploadForm(forms.Form):
    FORMATS = [
        ("auto", _("From the file name")),
        ("trf16", _("FIDE TRF16")),
        ("trf26", _("FIDE TRF26")),
        ("feda", _("FEDA ASCII file")),
        ("csv", _("CSV crosstable")),
    ]
    file = forms.FileField(label=_("Report file"), allow_empty_file=True)
    format = forms.ChoiceField(label=_("Format"), choices=FORMATS, initial="auto")


class CrosstableForm(forms.Form):
    """Up to 20 players: name, IDs, rating per row, and one cell per opponent (``1 ½ 0 + -``;
    several games of a match separated by spaces)."""

    def __init__(self, *args: Any, size: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size = max(2, min(MAX_FORM_PLAYERS, size))
        for i in range(1, self.size + 1):
            self.fields[f"name_{i}"] = forms.CharField(label=_("Name"), max_length=120)
            self.fields[f"fed_id_{i}"] = forms.CharField(
                label=_("Federation ID"),
                max_length=16,
                required=False,
                widget=forms.TextInput(attrs={"size": 8}),
            )
            self.fields[f"fide_id_{i}"] = forms.CharField(
                label=_("FIDE ID"),
                max_length=15,
                required=False,
                widget=forms.TextInput(attrs={"size": 9, "inputmode": "numeric"}),
            )
            self.fields[f"rating_{i}"] = forms.IntegerField(
                label=_("Rating"),
                required=False,
                min_value=0,
                max_value=3500,
                widget=forms.NumberInput(attrs={"class": "rating-input"}),
            )
            for j in range(1, self.size + 1):
                if i != j:
                    self.fields[f"cell_{i}_{j}"] = forms.CharField(
                        max_length=20, required=False, widget=forms.TextInput(attrs={"size": 3})
                    )

    def rows(self) -> list[dict[str, Any]]:
        d = self.cleaned_data
        return [
            {
                "name": d[f"name_{i}"],
                "fed_id": d[f"fed_id_{i}"],
                "fide_id": d[f"fide_id_{i}"],
                "rating": d[f"rating_{i}"],
            }
            for i in range(1, self.size + 1)
        ]

    def cells(self) -> dict[tuple[int, int], str]:
        d = self.cleaned_data
        return {
            (i, j): d.get(f"cell_{i}_{j}", "")
            for i in range(1, self.size + 1)
            for j in range(1, self.size + 1)
            if i != j
        }

    def grid(self, *, error_fields: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """Rows for the template: each player's inputs and result cells with their labels (read
        by screen readers, visually hidden) and whether the checks found an error there."""
        out = []
        for i in range(1, self.size + 1):
            inputs = []
            for key, label in (
                ("name", _("Player %(n)s: name")),
                ("fed_id", _("Player %(n)s: federation ID")),
                ("fide_id", _("Player %(n)s: FIDE ID")),
                ("rating", _("Player %(n)s: rating")),
            ):
                name = f"{key}_{i}"
                inputs.append(
                    {
                        "field": self[name],
                        "label": label % {"n": i},
                        "error": name in error_fields,
                        "key": key,
                    }
                )
            cells: list[dict[str, Any] | None] = []
            for j in range(1, self.size + 1):
                if i == j:
                    cells.append(None)
                    continue
                name = f"cell_{i}_{j}"
                cells.append(
                    {
                        "field": self[name],
                        "label": _("Player %(i)s against player %(j)s: result") % {"i": i, "j": j},
                        "error": name in error_fields,
                    }
                )
            out.append({"n": i, "inputs": inputs, "cells": cells})
        return out


class SubstitutionForm(forms.Form):
    """A team substitution (cnxc-2000 7.2); the players by their start rank in the report."""

    round = forms.IntegerField(label=_("Round (match)"), min_value=1, max_value=32767)
    board = forms.IntegerField(label=_("Board"), min_value=1, max_value=32767, required=False)
    side = forms.ChoiceField(label=_("Colour of the game"), choices=SubstitutionSide.choices)
    replaced_rank = forms.TypedChoiceField(label=_("Player replaced"), coerce=int)
    replaced_moved = forms.BooleanField(
        label=_("The player replaced had made a move"), required=False, initial=True
    )
    substitute_rank = forms.TypedChoiceField(label=_("Substitute"), coerce=int)
    substitute_moved = forms.BooleanField(
        label=_("The substitute made a move"), required=False, initial=True
    )
    date = forms.DateField(
        label=_("Date of the substitution"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = cast(Any, self.fields["replaced_rank"]).choices = players
        cast(Any, self.fields["substitute_rank"]).choices = choices


class WinnerForm(forms.Form):
    """The winner after tie-breaks of a competition valid for norms (cnxc-2000 7.1)."""

    rank = forms.TypedChoiceField(
        label=_("Winner after tie-breaks"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(Any, self.fields["rank"]).choices = [
            ("", _("The sole top scorer")),
            *players,
        ]


class DecisionForm(forms.Form):
    """A rating officer's decision on a tournament (tournaments.services.decisions): its kind,
    the written reason and what it names (a check's code, a game, a player)."""

    kind = forms.ChoiceField(label=_("Decision"), choices=DecisionKind.choices)
    reason = forms.CharField(
        label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    check_code = forms.CharField(label=_("Check"), max_length=40, required=False)
    game = forms.IntegerField(label=_("Game"), min_value=1, required=False)
    start_rank = forms.IntegerField(
        label=_("Player (start rank)"), min_value=1, max_value=32767, required=False
    )


class AppealForm(forms.Form):
    """The organiser's appeal against a refusal to rate (fide-2024 0.4)."""

    grounds = forms.CharField(
        label=_("Grounds of the appeal"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class AppealDecisionForm(forms.Form):
    """The officer's decision on an appeal (fide-2024 0.4)."""

    upheld = forms.TypedChoiceField(
        label=_("Decision on the appeal"),
        choices=[("1", _("Upheld: the refusal is lifted")), ("0", _("Dismissed"))],
        coerce=lambda v: v == "1",
    )
    resolution = forms.CharField(
        label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
