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

    Kept by the database (Player's NAME_WORDS_TRIGGERS add the words of every player inserted
    or renamed, whatever wrote it: save(), a bulk import, COPY, an UPDATE), so no loader has
    to remember it. Words are never removed: a word no player has any more
    only matches nobody. Read only by the search's SQL."""

    word = models.CharField(primary_key=True, max_length=250, db_collation="C")

    class Meta:
        verbose_name = _("name word")
        verbose_name_plural = _("name words")
        # A typed word of 3 letters or more is looked for inside the words (LIKE '%w%').
        indexes = [GinIndex(fields=["word"], opclasses=["gin_trgm_ops"], name="nameword_trgm")]

    def __str__(self) -> str:
        return self.word


#: The words of a name_key, as the search's SQL and the name_words index write them.
NAME_WORDS_SQL = "string_to_array({}::text, ' ')"


def _name_words_sql(rows: str, name_key: str) -> str:
    """The trigger function adding the words of `name_key` over `rows` to NameWord."""
    return (
        f"INSERT INTO {NameWord._meta.db_table} (word) SELECT DISTINCT w "
        f"FROM {rows}unnest({NAME_WORDS_SQL.format(name_key)}) AS w WHERE w <> '' "
        "ON CONFLICT DO NOTHING; RETURN NULL;"
    )


#: The words of the players a statement inserts: once per statement, from its rows (a COPY of
#: 500,000 players is one call), and of a player whose name an UPDATE changes: per row, and
#: only for those (PostgreSQL allows no column list or condition on a trigger that reads the
#: statement's rows, and a bulk update of ratings must not read every name again).
NAME_WORDS_TRIGGERS = [
    pgtrigger.Trigger(
        name="name_words_insert",
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        operation=pgtrigger.Insert,
        referencing=pgtrigger.Referencing(new="new_values"),
        func=_name_words_sql("new_values, ", "new_values.name_key"),
    ),
    pgtrigger.Trigger(
        name="name_words_update",
        when=pgtrigger.After,
        operation=pgtrigger.UpdateOf("name_key"),
        condition=pgtrigger.Q(old__name_key__df=pgtrigger.F("new__name_key")),
        func=_name_words_sql("", "NEW.name_key"),
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
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
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
        # The GIN of the name's words (migration 0008): the player search finds the players
        # holding a typed word through it (players.selectors.player_search_sql). It replaced
        # a trigram GIN on name_key, which answered the same search three to four times
        # slower (docs/benchmarks.md, "Cold searches").
        indexes = [
            models.Index(fields=["name_key"], name="player_name_key_idx"),
            GinIndex(
                models.Func(
                    Cast("name_key", models.TextField()),
                    models.Value(" "),
                    function="string_to_array",
                    output_field=ArrayField(models.TextField()),
                ),
                name="player_name_words",
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
