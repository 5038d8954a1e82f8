from __future__ import annotations

from typing import Any

import pgtrigger
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from core.track import history_track
from players.names import full_name_key

RATING_VALIDATORS = [MinValueValidator(0), MaxValueValidator(3500)]


class Sex(models.TextChoices):
    MALE = "M", _("Male")
    FEMALE = "F", _("Female")


class Title(models.TextChoices):
    # FIDE titles, then the national titles of the FCE list (fce 9.4) and FEDA.
    GM = "GM", _("Grandmaster")
    IM = "IM", _("International Master")
    WGM = "WGM", _("Woman Grandmaster")
    FM = "FM", _("FIDE Master")
    WIM = "WIM", _("Woman International Master")
    CM = "CM", _("Candidate Master")
    WFM = "WFM", _("Woman FIDE Master")
    WCM = "WCM", _("Woman Candidate Master")
    MN = "MN", _("National Master")
    MF = "MF", _("Federation Master")
    MC = "MC", _("Catalan Master")
    WMF = "WMF", _("Woman Federation Master")
    MI = "MI", _("International Master (national list)")
    WMI = "WMI", _("Woman International Master (national list)")


class NameWord(models.Model):
    """A word of some registry player's folded name (Player.name_key): the vocabulary the player
    search looks a typed word up in (players.selectors.player_search_sql).

    Kept by the database, set-based: Player's NAME_WORDS_TRIGGERS add the words of every
    statement's inserted or renamed players at once (statement-level triggers reading the
    statement's rows), whatever wrote them: save(), bulk_create, COPY, a list import's one
    INSERT … SELECT, an UPDATE. Words are never removed: a word no player has any more only
    matches nobody. Read only by the search's SQL."""

    word = models.CharField(primary_key=True, max_length=250, db_collation="C")

    class Meta:
        verbose_name = _("name word")
        verbose_name_plural = _("name words")
        # A typed word of 3 letters or more is looked for inside the words (LIKE '%w%').
        indexes = [GinIndex(fields=["word"], opclasses=["gin_trgm_ops"], name="nameword_trgm")]

    def __str__(self) -> str:
        return self.word


#: The words of a name_key, as the search's SQL and the player_name_words index write them.
NAME_WORDS_SQL = "string_to_array({}::text, ' ')"


def _name_words_sql(rows: str, name_key: str, where: str = "") -> str:
    """The trigger function adding the words of `name_key` over `rows` to NameWord: one
    statement, the distinct words sorted (so the word b-tree is filled in order)."""
    return (
        f'INSERT INTO {NameWord._meta.db_table} (word) SELECT DISTINCT w COLLATE "C" '
        f"FROM {rows}, unnest({NAME_WORDS_SQL.format(name_key)}) AS w WHERE w <> ''{where} "
        "ORDER BY 1 ON CONFLICT DO NOTHING; RETURN NULL;"
    )


#: The vocabulary follows the registry set-based (issue 29 item 3): once per statement, from
#: the statement's rows (transition tables), never once per row — a list import's INSERT of
#: 500,000 players is one call and one sorted INSERT of their distinct words. An UPDATE adds
#: the words of the rows whose name changed (old and new rows joined by id: a bulk update of
#: ratings or birth years adds nothing). PostgreSQL allows no column list on a trigger with
#: transition tables, hence the join.
NAME_WORDS_TRIGGERS = [
    pgtrigger.Trigger(
        name="name_words_insert",
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        operation=pgtrigger.Insert,
        referencing=pgtrigger.Referencing(new="new_rows"),
        func=_name_words_sql("new_rows", "new_rows.name_key"),
    ),
    pgtrigger.Trigger(
        name="name_words_update",
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        operation=pgtrigger.Update,
        referencing=pgtrigger.Referencing(old="old_rows", new="new_rows"),
        func=_name_words_sql(
            "new_rows JOIN old_rows ON old_rows.id = new_rows.id",
            "new_rows.name_key",
            " AND new_rows.name_key IS DISTINCT FROM old_rows.name_key",
        ),
    ),
]


#: What anyone may read of a registry player (the API's player; the synthetic federation's COPY
#: writes these columns first).
PUBLIC_FIELDS = (
    "fed_id",
    "surname",
    "given_name",
    "sex",
    "birth_year",
    "club",
    "region",
    "federation",
    "title",
    "fide_id",
    "fide_standard",
    "fide_rapid",
    "fide_blitz",
)


# History (core/history.py, docs/audit.md): statement-level, because list imports insert and
# complete players by the hundred thousand in one statement. The folded name and the
# timestamps are left out: they follow the other fields.
@history_track(
    exclude=["name_key", "created_at", "updated_at"],
)
class Player(models.Model):
    """A person in the federation's registry."""

    fed_id = models.CharField(
        _("federation ID"),
        max_length=16,
        validators=[RegexValidator(r"^[0-9A-Za-z\-]+$", _("Letters, digits and hyphens only."))],
    )
    surname = models.CharField(_("surname(s)"), max_length=120)
    given_name = models.CharField(_("given name"), max_length=120)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    # Reports often give the year only; the year is kept on its own, and follows birth_date.
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    region = models.CharField(
        _("region"), max_length=80, blank=True, help_text=_("Territorial federation.")
    )
    federation = models.CharField(
        _("federation"), max_length=3, default="ESP", help_text=_("FIDE three-letter code.")
    )
    title = models.CharField(_("title"), max_length=4, choices=Title.choices, blank=True)
    fide_id = models.BigIntegerField(_("FIDE ID"), null=True, blank=True, unique=True)
    fide_standard = models.PositiveSmallIntegerField(
        _("FIDE standard"), null=True, blank=True, validators=RATING_VALIDATORS
    )
    fide_rapid = models.PositiveSmallIntegerField(
        _("FIDE rapid"), null=True, blank=True, validators=RATING_VALIDATORS
    )
    fide_blitz = models.PositiveSmallIntegerField(
        _("FIDE blitz"), null=True, blank=True, validators=RATING_VALIDATORS
    )
    iccf_rating = models.PositiveSmallIntegerField(
        _("ICCF rating"), null=True, blank=True, validators=RATING_VALIDATORS
    )
    # The ICCF list's player ID: the ICCF list import matches by it (lists/imports/external.py).
    iccf_id = models.BigIntegerField(_("ICCF ID"), null=True, blank=True, unique=True)
    fpx_rating = models.PositiveSmallIntegerField(
        _("FPX rating"),
        null=True,
        blank=True,
        validators=RATING_VALIDATORS,
        help_text=_("Portuguese federation list, used for correspondence chess."),
    )
    affiliated = models.BooleanField(
        _("affiliated to the federation"),
        default=True,
        help_text=_(
            "Foreign players not affiliated are rated with their FIDE rating (feda-1996 9.56)."
        ),
    )
    # docs/privacy.md: the card, the search and the API's player show the birth year only if
    # the player chose so; the published lists keep the column their regulation requires.
    birth_year_public = models.BooleanField(
        _("birth year public"),
        # db_default too: list imports and the synthetic federation insert players in SQL.
        default=False,
        db_default=False,
        help_text=_("The player chose to show his birth year on his card and in the API."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    # A duplicate merged into another record (desk.merges.player_merge, docs/registry.md): the
    # record stays as a redirect (his card leads to the kept one; the published lists that
    # name him keep his id) and leaves the likely duplicates.
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("merged into"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
        help_text=_("This record was a duplicate of that one: everything moved there."),
    )
    # fide-2024 10.2: the federation reports a member's death. Set and cleared only through
    # players.licences.player_deceased_set (kept in the history like every column); a deceased
    # player leaves the lists from the next publication and keeps his record (docs/lists.md).
    deceased_on = models.DateField(_("deceased on"), null=True, blank=True)
    # Accent- and case-folded "surname given name", kept in step by save() and bulk loaders,
    # so matching a report line is one indexed look-up. PostgreSQL compares it as bytes
    # (COLLATE "C", set by migration 0004; keep it if this field is ever altered).
    name_key = models.CharField(max_length=250, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        # By the folded name ("garcia lopez jose"): alphabetical, accent-insensitive, and served
        # by the name_key index (binary collation on PostgreSQL, migration 0004).
        ordering = ["name_key", "id"]
        # Uniqueness and indexes are declared here rather than with unique=/db_index= on the
        # fields: on PostgreSQL those also add a varchar_pattern_ops "_like" index per field,
        # which no query here uses (name search is "%…%") and which slows the 500,000-row
        # list import and the synthetic generator.
        # PostgreSQL: fillfactor 70 (migration 0003) leaves room on each page for in-place
        # (HOT) updates of unindexed columns, e.g. a list import filling in birth years.
        constraints = [models.UniqueConstraint(fields=["fed_id"], name="player_unique_fed_id")]
        # name_key trigram GIN (migration 0006): a list's name filter (ratings.lists.filters,
        # LIKE '%word%' on the folded key). The GIN of the name's words (migration 0013): the
        # player search finds the players holding a typed word through it and the vocabulary
        # (NameWord; players.selectors.player_search_sql), 0.5 ms where the trigram GIN took
        # 2.6 ms (docs/benchmarks.md, "Cold searches").
        indexes = [
            models.Index(fields=["name_key"], name="player_name_key_idx"),
            GinIndex(fields=["name_key"], opclasses=["gin_trgm_ops"], name="player_name_key_trgm"),
            GinIndex(
                models.Func(
                    Cast("name_key", models.TextField()),
                    models.Value(" "),
                    function="string_to_array",
                    output_field=ArrayField(models.TextField()),
                ),
                name="player_name_words",
            ),
            # The likely duplicates (desk.duplicates): same name key and birth year, grouped
            # from the index in order instead of hashing 500,000 rows.
            models.Index(
                fields=["name_key", "birth_year"],
                condition=models.Q(merged_into__isnull=True, birth_year__isnull=False),
                name="player_name_birth_idx",
            ),
            # The few deceased players, which the publication leaves out (a probe per list
            # instead of reading the registry).
            models.Index(
                fields=["id"],
                condition=models.Q(deceased_on__isnull=False),
                name="player_deceased_idx",
            ),
        ]
        triggers = NAME_WORDS_TRIGGERS

    def __str__(self) -> str:
        return f"{self.surname}, {self.given_name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = full_name_key(self.surname, self.given_name)
        if self.birth_date:
            self.birth_year = self.birth_date.year
        super().save(*args, **kwargs)


class ErasureStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class ErasureRequest(models.Model):
    """A player's request to erase his data (docs/privacy.md): decided by an officer; on
    approval players.services.erasure_approve removes or pseudonymises what the published
    lists do not need."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="erasure_requests", verbose_name=_("player")
    )
    # Kept when the account is pseudonymised on approval (SET_NULL only if it is deleted).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="erasure_requests",
        verbose_name=_("user account"),
    )
    note = models.TextField(_("note"), blank=True, max_length=2000)
    status = models.CharField(
        _("status"), max_length=10, choices=ErasureStatus.choices, default=ErasureStatus.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    outcome = models.TextField(_("outcome"), blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("erasure request")
        verbose_name_plural = _("erasure requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            # One open request per player at a time.
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(status="pending"),
                name="erasure_one_pending_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.get_status_display()}"


class ExternalSource(models.TextChoices):
    """The external lists a regulation reads beside its own (formats.lists.external)."""

    ICCF = "iccf", _("ICCF")
    FPX = "fpx", _("FPX")


class ExternalList(models.Model):
    """One imported external list (ICCF or FPX), dated and kept: the list in force on a day
    is the latest one of its source dated on or before it (players.external). cnxc-2000 5.3
    reads the one in force when calculating, 7.3 the ICCF one in force the day after the
    period. Written once by its import (lists/imports/external.py); never changed."""

    source = models.CharField(_("list"), max_length=4, choices=ExternalSource.choices)
    list_date = models.DateField(_("in force from"))
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    rows = models.PositiveIntegerField(_("rows"), default=0)
    matched = models.PositiveIntegerField(_("players matched"), default=0)
    unmatched = models.PositiveIntegerField(_("rows matching no player"), default=0)
    created = models.PositiveIntegerField(_("players created"), default=0)

    class Meta:
        verbose_name = _("external list")
        verbose_name_plural = _("external lists")
        ordering = ["-list_date", "source", "-id"]
        constraints = [
            # One list per source and day: a second import of that day replaces the first.
            models.UniqueConstraint(fields=["source", "list_date"], name="external_list_day")
        ]

    def __str__(self) -> str:
        return f"{self.get_source_display()} {self.list_date.isoformat()}"


class ExternalListEntry(models.Model):
    """A row of an external list as read, with the registry player it matched (if any)."""

    external_list = models.ForeignKey(
        ExternalList,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("external list"),
        db_index=False,  # the unique (list, row) index serves it
    )
    row = models.PositiveIntegerField(_("row"))
    ext_id = models.BigIntegerField(_("ID in the list"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=200)
    federation = models.CharField(_("federation"), max_length=30, blank=True)
    title = models.CharField(_("title"), max_length=10, blank=True)
    games = models.PositiveIntegerField(_("games"), null=True, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    fide_id = models.BigIntegerField(_("FIDE ID"), null=True, blank=True)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="external_entries",
        verbose_name=_("player"),
    )

    class Meta:
        verbose_name = _("external list entry")
        verbose_name_plural = _("external list entries")
        ordering = ["external_list", "row"]
        constraints = [
            models.UniqueConstraint(fields=["external_list", "row"], name="external_entry_row")
        ]

    def __str__(self) -> str:
        return f"{self.external_list}: {self.name}"


class Season(models.Model):
    """A federation's season (fce 9.2 "l'actual temporada"): the licences are for one season,
    and a list dated within it holds its licensed players when its regulation says so."""

    name = models.CharField(_("name"), max_length=40, help_text=_("For example 2026-2027."))
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(fields=["name"], name="season_unique_name"),
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_end_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name


# History (docs/audit.md): who licensed whom, and what an import or an officer changed.
@history_track()
class Licence(models.Model):
    """A player's licence for a season: its category, the club that processed it, the date.
    Written by officers (players.licences) and by the CSV import (docs/lists.md)."""

    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="licences",
        verbose_name=_("player"),
        db_index=False,  # the unique (player, season) index serves it
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="licences", verbose_name=_("season")
    )
    category = models.CharField(_("category"), max_length=40)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licensed_on = models.DateField(_("licensed on"))

    class Meta:
        verbose_name = _("licence")
        verbose_name_plural = _("licences")
        ordering = ["season", "player"]
        constraints = [
            models.UniqueConstraint(fields=["player", "season"], name="licence_one_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.season}: {self.category}"
