"""Tournaments, their uploaded reports, their players and games."""

from __future__ import annotations

import pghistory
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.jobs import Job
from core.track import history_track
from periods.models import RatingPeriod, RatingSystem
from players.models import Player
from tournaments.kinds import (
    kind_refusal,
    tournament_kind,
    tournament_ruleset,
    tournament_virtual_rating,
)
from tournaments.officials.levels import level_label, level_refusal
from tournaments.officials.models import Arbiter, Organiser


class PairingSystem(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
    MATCH = "match", _("Match")
    TEAM = "team", _("Team competition")


class TournamentStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    REPORT_RECEIVED = "report_received", _("Report received")
    VALIDATED = "validated", _("Validated")
    RATED = "rated", _("Rated")
    PUBLISHED = "published", _("Published")


#: What describes a tournament, as its arbiter registers it (the registration form and API; the
#: public API and the synthetic federation's COPY list them too).
DESCRIPTION_FIELDS = (
    "name",
    "city",
    "federation",
    "start_date",
    "end_date",
    "system",
    "category",
    "rounds",
    "base_minutes",
    "moves_per_control",
    "extra_minutes",
    "increment_seconds",
    "national_championship",
    "norm_event",
    "chief_arbiter",
    "kind",
    "thematic",
    "organised_by_others",
    "rated_by_its_rules",
)


# History (core/history.py, docs/audit.md), like every tracked model: statement-level.
@history_track()
class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=100)
    federation = models.CharField(_("federation"), max_length=3, default="ESP")
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    system = models.CharField(_("pairing system"), max_length=20, choices=PairingSystem.choices)
    category = models.CharField(
        _("category"),
        max_length=40,
        blank=True,
        help_text=_("e.g. national, regional or provincial; closed or open (feda-1996 1.1)."),
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    # The time control as structured data: `moves` moves in `base_minutes`, then the rest of
    # the game in `extra_minutes`, with `increment_seconds` added per move from move 1.
    base_minutes = models.PositiveSmallIntegerField(_("base time (minutes)"))
    increment_seconds = models.PositiveSmallIntegerField(
        _("increment (seconds per move)"), default=0
    )
    moves_per_control = models.PositiveSmallIntegerField(
        _("moves in the first control"),
        null=True,
        blank=True,
        help_text=_("Empty when the base time is for the whole game."),
    )
    extra_minutes = models.PositiveSmallIntegerField(
        _("time added after the first control"), default=0
    )
    national_championship = models.BooleanField(_("national championship"), default=False)
    norm_event = models.BooleanField(_("valid for national master norms"), default=False)
    chief_arbiter = models.CharField(_("chief arbiter"), max_length=120)
    # The registry's records (tournaments/officials): the text above stays for display where
    # no record matches (a report's line 102, a tournament registered before the registry).
    chief_arbiter_record = models.ForeignKey(
        Arbiter,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_directed",
        verbose_name=_("chief arbiter (registry)"),
    )
    organiser = models.ForeignKey(
        Organiser,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("organiser"),
    )
    # feda-1996 1.1: the event's level (1.11 national/international, 1.12 autonómica, 1.13
    # provincial), a level of the regulation's facts.arbiters; "" when not given.
    level = models.CharField(
        _("level of the event"),
        max_length=20,
        blank=True,
        default="",
        db_default="",
        help_text=_("feda-1996 1.1: the chief arbiter's category must match it."),
    )
    # The kind of competition as the system's regulation names it (tournaments/kinds.py,
    # facts.competition): "" is none of them. Passed to the engine as TournamentInput.kind.
    kind = models.CharField(
        _("kind of competition"),
        max_length=40,
        blank=True,
        default="",
        db_default="",
        help_text=_(
            "As the regulation names it: a championship rated with fewer rated players "
            "(fide-2000 6.33, feda-1996 7.33), or the competition that sets an unrated "
            "opponent's virtual rating (cnxc-2000 5.3)."
        ),
    )
    thematic = models.BooleanField(
        _("thematic tournament"),
        default=False,
        db_default=False,
        help_text=_("cnxc-2000 3.1: thematic tournaments are not rated."),
    )
    organised_by_others = models.BooleanField(
        _("organised by another body"),
        default=False,
        db_default=False,
        help_text=_(
            "cnxc-2000 3.1: a competition organised by another body and officialised is rated "
            "only if its rules say so."
        ),
    )
    rated_by_its_rules = models.BooleanField(
        _("its rules say it is rated"),
        default=False,
        db_default=False,
        help_text=_(
            "cnxc-2000 3.1: the competition's own rules state that its results count for this "
            "rating."
        ),
    )
    arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("registered by"),
    )
    rating_system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("rating system"),
    )
    period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("rating period"),
    )
    # Validated after the list of its period was published: the period it was in, kept to
    # say so on both desks and to let the officer rate it there as a correction (issue 23).
    moved_from_period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("moved from the published period"),
    )
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=TournamentStatus.choices,
        default=TournamentStatus.REGISTERED,
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    late_registration = models.BooleanField(_("registered late"), default=False)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("late registration approved by"),
    )
    approved_at = models.DateTimeField(_("late registration approved at"), null=True, blank=True)
    report_received_at = models.DateTimeField(_("report received at"), null=True, blank=True)
    validated_at = models.DateTimeField(_("validated at"), null=True, blank=True)
    rated_at = models.DateTimeField(_("rated at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # fide-2024 9.1: the rating officer uploads the rated tournament's TRF to the FIDE Rating
    # Server; he records here when and who (tournaments.services.fide_export, kept in the
    # history). Empty: not sent yet (the officer's desk lists it).
    fide_sent_on = models.DateField(_("sent to FIDE on"), null=True, blank=True)
    fide_sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sent to FIDE by"),
    )
    # cnxc-2000 7.1 (InputFacts.norm_winner): the winner after tie-breaks of a competition valid
    # for norms, by his start rank in the report (the report's lines are rewritten at every
    # upload; the rank names the same player). Empty: the sole top scorer.
    norm_winner_rank = models.PositiveSmallIntegerField(
        _("winner after tie-breaks (start rank)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-end_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="tournament_dates_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.start_date:%Y})"

    def clean(self) -> None:
        super().clean()
        if self.rating_system_id is not None:
            # The regulation in force on its start day (periods.rulesets), not the newest.
            ruleset = tournament_ruleset(system=self.rating_system, start=self.start_date)
            refusal = kind_refusal(ruleset=ruleset, kind=self.kind)
            if refusal is not None:
                raise ValidationError({"kind": refusal})
            refusal = level_refusal(ruleset=ruleset, level=self.level)
            if refusal is not None:
                raise ValidationError({"level": refusal})

    @property
    def kind_display(self) -> str:
        """The kind's name as its regulation gives it, translated ("" when none)."""
        kind = tournament_kind(tournament=self) if self.kind else None
        return gettext(kind.label) if kind is not None else self.kind

    @property
    def level_display(self) -> str:
        """The level of the event as its regulation names it, translated (feda-1996 1.1)."""
        ruleset = tournament_ruleset(system=self.rating_system, start=self.start_date)
        return level_label(ruleset=ruleset, level=self.level)

    @property
    def virtual_rating(self) -> tuple[int, str] | None:
        """An unrated opponent's virtual rating here and its article (cnxc-2000 5.3)."""
        return tournament_virtual_rating(tournament=self)

    @property
    def minutes_for_60_moves(self) -> float:
        """Each player's time for a 60-move game (fide-2024 1.1, fce 5.1)."""
        minutes = self.base_minutes + self.increment_seconds * 60 / 60
        if self.moves_per_control and self.moves_per_control < 60:
            minutes += self.extra_minutes
        return float(minutes)


class ReportFormat(models.TextChoices):
    TRF16 = "trf16", _("FIDE TRF16")
    TRF26 = "trf26", _("FIDE TRF26")
    FEDA = "feda", _("FEDA ASCII file")
    CSV = "csv", _("CSV crosstable")
    FORM = "form", _("Crosstable form")


class ReportStatus(models.TextChoices):
    ACCEPTED = "accepted", _("Accepted")
    # Not the protest's "Rejected" (desestimada): a report refused on reading.
    REJECTED = "rejected", pgettext_lazy("report status", "Rejected")
    SUPERSEDED = "superseded", _("Superseded")


# The bytes are left out (up to REPORT_MAX_BYTES each; the SHA-256 names them), and so are
# the problems, which every revalidation recomputes from the bytes and the regulation.
@history_track(
    exclude=["data", "problems"],
    meta={"indexes": [models.Index(fields=["tournament"], name="reportevent_tournament")]},
)
class Report(models.Model):
    """An uploaded report, kept exactly as sent."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="reports", verbose_name=_("tournament")
    )
    submission = models.PositiveSmallIntegerField(_("submission number"))
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    format = models.CharField(_("format"), max_length=8, choices=ReportFormat.choices)
    data = models.BinaryField(_("bytes as sent"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    size = models.PositiveIntegerField(_("size in bytes"))
    status = models.CharField(_("status"), max_length=12, choices=ReportStatus.choices)
    problems = models.JSONField(_("problems found"), default=list, blank=True)
    # What the report holds, counted when it is read (null: read before these were counted):
    # games between two players (played or not) and byes, so a period's pages can say what a
    # report not yet validated holds before its games are written (issue 23).
    paired_games = models.PositiveIntegerField(_("games in the report"), null=True, blank=True)
    byes = models.PositiveIntegerField(_("byes in the report"), null=True, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["tournament", "-submission"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "submission"], name="report_unique_submission"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.submission}"


class TournamentPlayer(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=_("registry player"),
    )
    start_rank = models.PositiveSmallIntegerField(
        _("start rank"), validators=[MinValueValidator(1)]
    )
    name = models.CharField(_("name as reported"), max_length=120)
    sex = models.CharField(_("sex"), max_length=1, blank=True)
    title = models.CharField(_("title"), max_length=4, blank=True)
    fide_id = models.CharField(_("FIDE ID as reported"), max_length=15, blank=True)
    fed_id = models.CharField(_("federation ID as reported"), max_length=16, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    rating_at_start = models.PositiveSmallIntegerField(
        _("rating at start"), null=True, blank=True, validators=[MaxValueValidator(3500)]
    )
    declared_points = models.DecimalField(
        _("declared points"), max_digits=5, decimal_places=1, null=True, blank=True
    )

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        ordering = ["tournament", "start_rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_rank"], name="tournament_player_unique_rank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_rank}. {self.name}"


class GameResult(models.TextChoices):
    WHITE_WINS = "1-0", "1-0"
    BLACK_WINS = "0-1", "0-1"
    DRAW = "1/2-1/2", "½-½"
    WHITE_FORFEIT_WIN = "+-", _("+/- (forfeit)")
    BLACK_FORFEIT_WIN = "-+", _("-/+ (forfeit)")
    DOUBLE_FORFEIT = "--", _("-/- (double forfeit)")
    BYE = "bye", _("Bye")


class GameKind(models.TextChoices):
    PLAYED = "played", _("Played")
    FORFEIT = "forfeit", _("Forfeit")
    SHORT = "short", _("Less than one move")
    BYE_HALF = "bye_half", _("Half-point bye")
    BYE_FULL = "bye_full", _("Full-point bye")
    BYE_PAB = "bye_pab", _("Pairing-allocated bye")
    BYE_ZERO = "bye_zero", _("Zero-point bye")


#: Why a game is left out of the calculation (Game.left_out_code), as the draft's exclusion
#: and the player's calculation page say it (an untranslated msgid, translated when shown).
LEFT_OUT_REASONS = {
    "rate_of_play": gettext_noop("below the minimum time for its players' ratings"),
    # The officer's decisions (tournaments.services.decisions); the reason is on the
    # tournament's page, with the decision.
    "fair_play": gettext_noop("excluded by the rating officer under the fair-play rules"),
    "withdrawal": gettext_noop("a justified withdrawal the rating officer exempted"),
}


# Corrections only (UPDATE, DELETE): games are written from the current report, by COPY, and
# rewritten whenever the report is revalidated; the report itself is the record of that
# (its insert event, its SHA-256). The report rewrite skips the delete tracker
# (tournaments.services.GAME_DELETE_EVENT), so what is left is a change made to a game
# afterwards (admin, SQL). Measured cost of insert events on COPY: docs/audit.md.
@history_track(
    pghistory.UpdateEvent(),
    pghistory.DeleteEvent(),
    meta={"indexes": [models.Index(fields=["tournament"], name="gameevent_tournament")]},
)
class Game(models.Model):
    """One pairing. Byes have no black player; only `played` games can be rated."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="games", verbose_name=_("tournament")
    )
    # Null: the report does not say (a crosstable, the crosstable form): shown as unknown,
    # never invented (issue 23). `colours_known` False: who had White is not known either.
    round = models.PositiveSmallIntegerField(
        _("round"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    white = models.ForeignKey(
        TournamentPlayer,
        on_delete=models.CASCADE,
        related_name="white_games",
        verbose_name=_("white"),
    )
    black = models.ForeignKey(
        TournamentPlayer,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="black_games",
        verbose_name=_("black"),
    )
    result = models.CharField(_("result"), max_length=8, choices=GameResult.choices)
    kind = models.CharField(
        _("kind"), max_length=10, choices=GameKind.choices, default=GameKind.PLAYED
    )
    colours_known = models.BooleanField(
        _("colours known"),
        default=True,
        db_default=True,
        help_text=_("False when the report does not say who had White (a crosstable)."),
    )
    white_score = models.DecimalField(_("white's points"), max_digits=3, decimal_places=1)
    black_score = models.DecimalField(
        _("black's points"), max_digits=3, decimal_places=1, null=True, blank=True
    )
    # A played game the regulation's checks leave out of the calculation (fide-2024 1.1: below
    # the minimum time for its players' ratings), set when the report is validated; "": rated.
    left_out_code = models.CharField(
        _("left out (code)"), max_length=30, blank=True, default="", db_default=""
    )
    left_out_article = models.CharField(
        _("left out by article"), max_length=40, blank=True, default="", db_default=""
    )
    # A tournament rated in parts (TournamentPart): the period of the game's part, where it is
    # rated with that period's list. Null: its tournament's period (a tournament rated whole).
    period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("rated in the period"),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["tournament", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_not_against_oneself"),
            models.CheckConstraint(
                condition=Q(black__isnull=False) | Q(kind__startswith="bye"),
                name="game_bye_has_no_black",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "round"])]

    def __str__(self) -> str:
        black = self.black if self.black is not None else _("bye")
        rnd = f"R{self.round}" if self.round is not None else "R?"
        return f"{rnd}: {self.white} – {black} {self.result}"

    @property
    def played(self) -> bool:
        return self.kind == GameKind.PLAYED


class ReportUploadJob(Job):
    """An upload larger than REPORT_INLINE_BYTES, read and checked on a worker so no web request
    waits for the parser; its page follows the progress and then shows the report's outcome.
    The bytes are dropped here once the report (which keeps them) is stored."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="upload_jobs",
        verbose_name=_("tournament"),
    )
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    declared_format = models.CharField(_("format"), max_length=8, blank=True)
    data = models.BinaryField(_("bytes as sent"), blank=True)
    report = models.ForeignKey(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("report"),
    )

    class Meta(Job.Meta):
        verbose_name = _("report upload")
        verbose_name_plural = _("report uploads")

    def __str__(self) -> str:
        return f"{self.tournament} upload {self.pk}"


class SubstitutionSide(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


@history_track(meta={"indexes": [models.Index(fields=["tournament"], name="subevent_tournament")]})
class Substitution(models.Model):
    """In a team competition, a player who took over another's game (cnxc-2000 7.2): the game
    is the one the replaced player held with ``side`` in ``round``; a substitute replaced in
    turn is the ``replaced`` player of a later substitution of the same game. Players are named
    by their start rank in the report (its lines are rewritten at every upload)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="substitutions",
        verbose_name=_("tournament"),
    )
    round = models.PositiveSmallIntegerField(_("round (match)"), validators=[MinValueValidator(1)])
    board = models.PositiveSmallIntegerField(
        _("board"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    side = models.CharField(
        _("colour of the game's side"), max_length=5, choices=SubstitutionSide.choices
    )
    replaced_rank = models.PositiveSmallIntegerField(
        _("player replaced (start rank)"), validators=[MinValueValidator(1)]
    )
    replaced_moved = models.BooleanField(_("the player replaced had made a move"), default=True)
    substitute_rank = models.PositiveSmallIntegerField(
        _("substitute (start rank)"), validators=[MinValueValidator(1)]
    )
    substitute_moved = models.BooleanField(_("the substitute made a move"), default=True)
    date = models.DateField(_("date of the substitution"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["tournament", "round", "side", "date", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(replaced_rank=F("substitute_rank")),
                name="substitution_not_oneself",
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "side", "replaced_rank"],
                name="substitution_replaced_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.round}: {self.replaced_rank} → {self.substitute_rank}"


class DecisionKind(models.TextChoices):
    """The rating officer's decisions on a tournament (docs/arbiters.md, "The officer's
    decisions"), each offered where the regulation's facts provide for it (facts.decisions)."""

    RETURN_FOR_CORRECTION = "return_for_correction", _("Report returned for correction")
    REJECT_REGISTRATION = "reject_registration", _("Registration rejected")
    REFUSE_RATING = "refuse_rating", _("Rating refused")
    OVERRIDE_CHECK = "override_check", _("Rated despite a blocking check")
    AUTHORISE_LONG_EVENT = "authorise_long_event", _("Long event authorised")
    EXCLUDE_GAME = "exclude_game", _("Game excluded (fair play)")
    EXEMPT_WITHDRAWAL = "exempt_withdrawal", _("Withdrawal exempted")


class DecisionState(models.TextChoices):
    IN_FORCE = "in_force", _("In force")
    # A return for correction: the corrected report came back in time / it did not.
    CORRECTED = "corrected", _("Corrected in time")
    LAPSED = "lapsed", _("Lapsed: counted as not reported")
    # A refusal to rate: the organiser appealed; the officer upheld the appeal or dismissed it.
    APPEALED = "appealed", _("Appealed")
    APPEAL_UPHELD = "appeal_upheld", _("Appeal upheld: the refusal is lifted")
    APPEAL_DISMISSED = "appeal_dismissed", _("Appeal dismissed")


@history_track(meta={"indexes": [models.Index(fields=["tournament"], name="decisionevent_t")]})
class TournamentDecision(models.Model):
    """A rating officer's decision on a tournament, with its written reason and article; its
    changes of state (corrected, lapsed, appealed, decided) go through
    tournaments.services.decisions and are kept in its history."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="decisions",
        verbose_name=_("tournament"),
    )
    kind = models.CharField(_("decision"), max_length=30, choices=DecisionKind.choices)
    reason = models.TextField(_("reason"))
    article = models.CharField(_("article"), max_length=40)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"))
    # Return for correction: the last day for the corrected report; refusal: the last day
    # of the organiser's appeal.
    deadline = models.DateField(_("deadline"), null=True, blank=True)
    state = models.CharField(
        _("state"), max_length=20, choices=DecisionState.choices, default=DecisionState.IN_FORCE
    )
    # Override: the check's code (a problem's ``code``). Games are named by their round and
    # players' start ranks: the report's games are rewritten at every validation.
    check_code = models.CharField(_("check overridden"), max_length=40, blank=True, default="")
    game_round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    white_rank = models.PositiveSmallIntegerField(_("white (start rank)"), null=True, blank=True)
    black_rank = models.PositiveSmallIntegerField(_("black (start rank)"), null=True, blank=True)
    # An exempted withdrawal (cnxc-2000 3.2): the player who withdrew, by start rank.
    player_rank = models.PositiveSmallIntegerField(
        _("player who withdrew (start rank)"), null=True, blank=True
    )
    appeal_reason = models.TextField(_("grounds of the appeal"), blank=True, default="")
    appealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("appealed by"),
    )
    appealed_at = models.DateTimeField(_("appealed at"), null=True, blank=True)
    resolution = models.TextField(_("decision on the appeal"), blank=True, default="")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("appeal decided by"),
    )
    resolved_at = models.DateTimeField(_("appeal decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("officer's decision")
        verbose_name_plural = _("officer's decisions")
        ordering = ["tournament", "-decided_at", "-id"]
        indexes = [models.Index(fields=["kind", "state", "deadline"])]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_kind_display()}"


@history_track(meta={"indexes": [models.Index(fields=["tournament"], name="partevent_tournament")]})
class TournamentPart(models.Model):
    """A part of a tournament rated in parts (the regulation's ``play.rated_in_parts``:
    fide-2024 4.1, fide-2000 4.11): the games of the report as it stood at a period's closing
    date that no earlier part holds, rated in that period with its list. ``players`` and
    ``games`` are what the part held when its report was validated: once the period is
    published, a later report must hold them unchanged (a change is the officer's correction).
    Players and games are named by start rank and round, as the report's lines are rewritten
    at every upload."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="parts", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("part"), validators=[MinValueValidator(1)])
    period = models.ForeignKey(
        RatingPeriod,
        on_delete=models.PROTECT,
        related_name="tournament_parts",
        verbose_name=_("rating period"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("report"),
    )
    #: [[start rank, name, FIDE ID], ...] of the report the part was validated with.
    players = models.JSONField(_("players"), default=list, blank=True)
    #: [[round, white rank, black rank or null, result], ...]: this part's games only.
    games = models.JSONField(_("games"), default=list, blank=True)
    played_games = models.PositiveIntegerField(_("games played"), default=0)
    last_round = models.PositiveSmallIntegerField(_("last round"), null=True, blank=True)
    validated_at = models.DateTimeField(_("validated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament part")
        verbose_name_plural = _("tournament parts")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="part_unique_number"),
            models.UniqueConstraint(fields=["tournament", "period"], name="part_unique_period"),
        ]
        indexes = [models.Index(fields=["period"], name="part_period")]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"
