from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class ScaleMonitoringForm(forms.Form):
    """The officer's settings of a system's drift check (ratings.models.ScaleMonitoring)."""

    threshold = forms.FloatField(
        label=_("Threshold (rating points)"),
        min_value=0.1,
        max_value=1000,
        help_text=_("The top-50 average may move this much before the officers are told."),
    )
    lists = forms.IntegerField(
        label=_("Number of lists"),
        min_value=1,
        max_value=60,
        help_text=_("The movement is measured from this many lists before the newest one."),
    )


class PublishForm(forms.Form):
    note = forms.CharField(
        label=_("Note (why this version)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


#: The calculator page's games: at most this many lines, named opp1…, id1…, res1… in the
#: address (the form is GET: the address is the shareable calculation).
CALCULATOR_MAX_LINES = 50
#: The lines the page shows: those filled in plus a few blank ones, at least this many.
CALCULATOR_MIN_ROWS = 9
CALCULATOR_SCORES = {"1": 1.0, "0.5": 0.5, "½": 0.5, "=": 0.5, "0": 0.0}


class CalculatorForm(forms.Form):
    """The calculator page's player and date; its games are read by ``calculator_lines``."""

    system: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        label=_("Rating system"), queryset=None, to_field_name="code", empty_label=None
    )
    player = forms.CharField(
        label=_("You in the registry (federation ID)"),
        required=False,
        max_length=16,
        help_text=_("Optional: your rating and games in the system are taken from your record."),
    )
    rating = forms.IntegerField(
        label=_("Your rating"),
        required=False,
        min_value=0,
        max_value=3500,
        help_text=_("Leave blank if you are unrated (or taken from your record)."),
    )
    games = forms.IntegerField(
        label=_("Rated games before"), required=False, min_value=0, max_value=100000
    )
    birth_date = forms.DateField(
        label=_("Birth date"),
        required=False,
        help_text=_("Optional (YYYY-MM-DD): some regulations give juniors a higher K."),
    )
    date = forms.DateField(
        label=_("Date of the games"), required=False, help_text=_("YYYY-MM-DD; today if blank.")
    )

    def __init__(self, *args: Any, systems: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["system"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = systems


@dataclass(frozen=True)
class CalculatorRow:
    """A line of the form as typed: opponent's rating, his federation ID, the result."""

    number: int
    rating: str = ""
    fed_id: str = ""
    result: str = ""

    @property
    def blank(self) -> bool:
        return not (self.rating or self.fed_id or self.result)


def calculator_lines(data: Mapping[str, str]) -> tuple[list[CalculatorRow], list[str]]:
    """The games typed (opp<n>: rating, id<n>: federation ID, res<n>: 1, ½ or 0), blank ones
    dropped, and the problems, each naming its line."""
    errors: list[str] = []
    numbers: set[int] = set()
    for key in data:
        match = re.fullmatch(r"(opp|id|res)([0-9]{1,4})", key)
        if match:
            numbers.add(int(match[2]))
    rows = []
    for n in sorted(numbers):
        row = CalculatorRow(
            n,
            data.get(f"opp{n}", "").strip()[:10],
            data.get(f"id{n}", "").strip()[:16],
            data.get(f"res{n}", "").strip()[:4],
        )
        if row.blank:
            continue
        if n < 1 or n > CALCULATOR_MAX_LINES:
            errors.append(
                _("Line %(line)s: at most %(max)s games (lines 1 to %(max)s).")
                % {"line": n, "max": CALCULATOR_MAX_LINES}
            )
            continue
        if row.rating and not re.fullmatch(r"[0-9]{1,4}", row.rating):
            errors.append(
                _("Line %(line)s: the opponent's rating must be a whole number (got “%(v)s”).")
                % {"line": n, "v": row.rating}
            )
        elif row.rating and int(row.rating) > 3500:
            errors.append(
                _("Line %(line)s: the opponent's rating must be at most 3500.") % {"line": n}
            )
        if not row.rating and not row.fed_id:
            errors.append(_("Line %(line)s: type the opponent's rating or pick him.") % {"line": n})
        if row.result not in CALCULATOR_SCORES:
            errors.append(
                _("Line %(line)s: the result must be 1, ½ or 0 (got “%(v)s”).")
                % {"line": n, "v": row.result}
            )
        rows.append(row)
    return rows, errors


class DifferentialPublishForm(forms.Form):
    """fce 9.5: the date from which the calculation reads the differential."""

    effective_date = forms.DateField(
        label=_("Effective from"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("Periods ending on or after this date read this differential."),
    )


class SystemRulesetForm(forms.Form):
    """A new entry of a rating system's timeline (periods.rulesets.system_ruleset_add)."""

    ruleset = forms.ChoiceField(label=_("Regulation set"), choices=())
    effective_from = forms.DateField(
        label=_("Effective from"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_(
            "It applies to the tournaments starting on or after this day (fide-2024 0.1, "
            "fide-2000 0.1.1, cnxc-2000 8.1)."
        ),
    )
    parameters = forms.JSONField(
        label=_("Regulation parameters"),
        required=False,
        help_text=_("A JSON object; empty: the regulation's defaults."),
    )

    def __init__(self, *args: Any, choices: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = choices  # type: ignore[attr-defined]  # ChoiceField

    def clean_parameters(self) -> dict[str, Any]:
        value = self.cleaned_data.get("parameters")
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            raise forms.ValidationError(_("Give a JSON object, e.g. {}."))
        return value
