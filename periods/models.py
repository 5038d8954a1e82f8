"""Rating systems and their periods: the calendar every other app hangs its work on.

A rating system is one list the office publishes, rated under one regulation set; a period is
the span of games one list of it rates. Tournaments are assigned to periods
(`periods.selectors.period_for_tournament`), the ratings app calculates and publishes them.
The tables keep the names they had when these models lived in the ratings app.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.messages import stored_message
from core.track import history_track
from rating_engine.errors import EngineInputError
from rating_engine.registry import all_regulations, get_regulation


def ruleset_choices() -> list[tuple[str, Promise]]:
    """The regulation sets the engine implements (rating_engine/regulations/, found by the
    registry), each with its label (marked in the engine, translated here); the ids in
    reverse order, so the newest FIDE regulations come first."""
    regulations = sorted(all_regulations().values(), key=lambda r: r.id, reverse=True)
    return [(regulation.id, _(regulation.label)) for regulation in regulations]


#: A rating system's choices of regulation set (``ruleset_choices``).
RULESET_CHOICES = ruleset_choices()


class RateOfPlay(models.TextChoices):
    STANDARD = "standard", _("Standard")
    RAPID = "rapid", _("Rapid")
    BLITZ = "blitz", _("Blitz")
    CORRESPONDENCE = "correspondence", _("Correspondence")


class ListCycle(models.TextChoices):
    MONTHLY = "monthly", _("Monthly")
    QUARTERLY = "quarterly", _("Quarterly")
    SEMESTRAL = "semestral", _("Semestral")


#: Days a published list stays open to protests where the regulation fixes none (the FIDE and
#: FEDA texts): the office's default.
OFFICE_PROTEST_DAYS = 30


def default_protest_days(ruleset: str) -> int:
    """Days a list of `ruleset` stays open to protests: the regulation's own
    (`facts.lists.protest_days`: fce 9.3, 25 days; cnxc-2000 4.3, 30 days), else the office's."""
    rule = get_regulation(ruleset).facts.lists.protest_days
    return OFFICE_PROTEST_DAYS if rule is None else rule.value


# History (core/history.py, docs/audit.md), like every tracked model: statement-level.
@history_track()
class RatingSystem(models.Model):
    """One list the office publishes, rated under one regulation set."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=120)
    ruleset = models.CharField(_("regulation set"), max_length=20, choices=RULESET_CHOICES)
    rate_of_play = models.CharField(_("rate of play"), max_length=20, choices=RateOfPlay.choices)
    cycle = models.CharField(_("list cycle"), max_length=20, choices=ListCycle.choices)
    parameters = models.JSONField(
        _("regulation parameters"),
        default=dict,
        blank=True,
        help_text=_("Validated by the regulation, e.g. the FCE FIDE→FCE differential by bands."),
    )
    protest_days = models.PositiveSmallIntegerField(
        _("days to protest a list"), default=OFFICE_PROTEST_DAYS
    )
    registration_days = models.PositiveSmallIntegerField(
        _("registration deadline (days before start)"),
        default=3,
        help_text=_("Used where the regulation sets no deadline of its own."),
    )
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        db_table = (
            "ratings_ratingsystem"  # created by the ratings app before the move (periods 0001)
        )
        verbose_name = _("rating system")
        verbose_name_plural = _("rating systems")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The parameters as the regulation types them (``Regulation.parameters_from``), its
        defaults filled in; an error names the field (``floor: must be of type int``)."""
        try:
            regulation = get_regulation(self.ruleset)
            regulation.parameters_from(self.parameters or {})
            self.parameters = dict(regulation.validate_parameters(self.parameters or {}))
        except EngineInputError as exc:
            problem = stored_message(exc.template, exc.params)
            field = exc.location.removeprefix("parameters").lstrip(".")
            message = f"{field}: {problem}" if field else problem
            raise ValidationError({"parameters": message}) from None


class PeriodStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")
    CALCULATED = "calculated", _("Calculated")
    PUBLISHED = "published", _("Published")


#: What a list of periods shows of each (the admin's list, the API's period).
LISTED_FIELDS = (
    "system",
    "start",
    "end",
    "closing_date",
    "list_date",
    "status",
    "needs_recalculation",
)


@history_track()
class RatingPeriod(models.Model):
    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="periods",
        verbose_name=_("rating system"),
    )
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    closing_date = models.DateField(_("closing date"))
    list_date = models.DateField(_("list date"))
    status = models.CharField(
        _("status"), max_length=12, choices=PeriodStatus.choices, default=PeriodStatus.OPEN
    )
    needs_recalculation = models.BooleanField(_("needs recalculation"), default=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    calculated_at = models.DateTimeField(_("calculated at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)

    class Meta:
        db_table = (
            "ratings_ratingperiod"  # created by the ratings app before the move (periods 0001)
        )
        verbose_name = _("rating period")
        verbose_name_plural = _("rating periods")
        ordering = ["system", "-start"]
        constraints = [
            models.UniqueConstraint(fields=["system", "start"], name="period_unique_start"),
            models.CheckConstraint(condition=Q(end__gte=F("start")), name="period_end_after_start"),
        ]

    def __str__(self) -> str:
        # In the reader's date format (the active language), not ISO.
        start = date_format(self.start, "SHORT_DATE_FORMAT")
        return f"{self.system} {start} – {date_format(self.end, 'SHORT_DATE_FORMAT')}"


@history_track()
class SystemRuleset(models.Model):
    """An entry of a rating system's timeline of regulation sets: from `effective_from` on, the
    tournaments of the system that *start* on or after that day are rated under `ruleset`
    (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1: new rules apply to tournaments starting on
    or after their effective date). The entry with the latest date on or before a tournament's
    start applies to it; the first entry also covers any earlier day (before it the system had
    no other). Read through `periods.selectors.system_ruleset_on`; added through
    `periods.services.system_ruleset_add`, which refuses an entry that would change the
    regulation of a published period (docs/periods.md, "Effective dates")."""

    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.CASCADE,
        related_name="rulesets",
        verbose_name=_("rating system"),
    )
    ruleset = models.CharField(_("regulation set"), max_length=20, choices=RULESET_CHOICES)
    effective_from = models.DateField(
        _("effective from"),
        help_text=_("Applies to the tournaments starting on or after this day."),
    )
    parameters = models.JSONField(
        _("regulation parameters"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: the system's parameters when the regulation set is the system's own, "
            "else the regulation's defaults."
        ),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("regulation set in force")
        verbose_name_plural = _("regulation sets in force")
        ordering = ["system", "effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "effective_from"], name="system_ruleset_unique_date"
            ),
        ]

    def __str__(self) -> str:
        day = date_format(self.effective_from, "SHORT_DATE_FORMAT")
        return f"{self.system} {self.ruleset} ({day})"
