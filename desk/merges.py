"""Merging two records of the same player (issue 24 item 7; docs/registry.md, "Merging
duplicates"). Here, on the desk, because a merge reaches into every app below it
(tournaments, ratings, protests, accounts) and the layers only let a higher app import them.

``player_merge(*, kept, merged, by, reason)`` moves to ``kept``, in one transaction and a few
set-based UPDATEs:

- his tournament entries (TournamentPlayer, and so his games, which name the entries);
- his protests, claims of the record, correction requests and erasure requests;
- his user account (Player.user), when ``kept`` has none;
- his rating states (PlayerRating) in the systems where ``kept`` has none; where both have
  one, ``kept``'s stays and ``merged``'s is removed (the officer chose the record to keep);
- his licences (players.Licence) for the seasons where ``kept`` has none; where both have one
  for a season, ``kept``'s stays and ``merged``'s is removed, as for the rating states, and
  the summary names those seasons (``MergeCounts.licence_seasons_kept``);
- the registry fields ``kept`` leaves blank (FIDE ID, birth year and date, title, club, region,
  FIDE ratings) are filled from ``merged``.

Published lists are immutable (ratings.models.ListEntry's triggers): their entries keep
``merged``'s id, and his card redirects to ``kept``'s. The periods whose draft (a calculated,
unpublished period) counted a moved tournament are marked for recalculation, and the live
ratings of the open periods are computed again for ``kept``.

``merged`` stays as a redirect (``merged_into``; records merged into him before now point to
``kept``), and the matching of report lines takes his federation ID to ``kept``
(tournaments.selectors.player_candidates). Every change is recorded by pghistory with
the context ``merge`` (the two federation IDs), ``reason`` and the user. Refused (a sentence
naming what is wrong): the same record, a record already merged, two records in one
tournament (each is named: the report must be corrected first), two linked user accounts,
two open protests against one list, two pending correction or erasure requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import ClaimRequest, CorrectionRequest
from core.errors import Refused
from core.history import history_context
from desk.duplicates import player_duplicates_forget
from periods.models import PeriodStatus, RatingPeriod
from periods.services import period_mark_for_recalculation
from players.models import ErasureRequest, ErasureStatus, Licence, Player
from protests.models import OPEN_STATUSES, Protest
from ratings.live.services import live_ratings_compute
from ratings.models import LiveRating, PlayerRating
from tournaments.models import Game, Tournament, TournamentPlayer

#: The fields of ``kept`` that ``merged`` fills in when they are blank.
FILLED_FIELDS = (
    "fide_id",
    "birth_date",
    "birth_year",
    "title",
    "club",
    "region",
    "fide_standard",
    "fide_rapid",
    "fide_blitz",
)


@dataclass(frozen=True)
class MergeCounts:
    """What a merge moves (the confirmation page shows it before, the result after)."""

    tournaments: int = 0
    games: int = 0
    protests: int = 0
    claims: int = 0
    corrections: int = 0
    erasure_requests: int = 0
    ratings_moved: int = 0
    ratings_dropped: int = 0
    account: bool = False
    licences_moved: int = 0
    #: The seasons for which both records hold a licence: the kept record's stays, the merged
    #: record's is removed (their names, oldest first).
    licence_seasons_kept: tuple[str, ...] = ()


def player_merge_counts(*, kept: Player, merged: Player) -> MergeCounts:
    """What merging ``merged`` into ``kept`` would move (nothing is written)."""
    entries = TournamentPlayer.objects.filter(player=merged)
    kept_systems = PlayerRating.objects.filter(player=kept).values("system_id")
    ratings = PlayerRating.objects.filter(player=merged)
    kept_seasons = Licence.objects.filter(player=kept).values("season_id")
    licences = Licence.objects.filter(player=merged)
    return MergeCounts(
        tournaments=entries.values("tournament_id").distinct().count(),
        games=Game.objects.filter(Q(white__in=entries) | Q(black__in=entries)).count(),
        protests=Protest.objects.filter(player=merged).count(),
        claims=ClaimRequest.objects.filter(player=merged).count(),
        corrections=CorrectionRequest.objects.filter(player=merged).count(),
        erasure_requests=ErasureRequest.objects.filter(player=merged).count(),
        ratings_moved=ratings.exclude(system_id__in=kept_systems).count(),
        ratings_dropped=ratings.filter(system_id__in=kept_systems).count(),
        account=merged.user_id is not None,
        licences_moved=licences.exclude(season_id__in=kept_seasons).count(),
        licence_seasons_kept=tuple(
            licences.filter(season_id__in=kept_seasons)
            .order_by("season__start")
            .values_list("season__name", flat=True)
        ),
    )


def player_merge_problems(*, kept: Player, merged: Player) -> list[str]:
    """Why the two records cannot be merged (translated sentences); empty when they can."""
    if kept.pk == merged.pk:
        return [_("A record cannot be merged into itself.")]
    problems: list[str] = []
    for player in (kept, merged):
        if player.merged_into_id is not None:
            problems.append(
                _("%(player)s (%(fed_id)s) was already merged into another record.")
                % {"player": player, "fed_id": player.fed_id}
            )
    shared = (
        Tournament.objects.filter(players__player=kept)
        .filter(players__player=merged)
        .distinct()
        .order_by("start_date", "pk")
    )
    for tournament in shared:
        problems.append(
            _(
                "Both records played “%(tournament)s” (%(date)s): a tournament cannot have the "
                "same player twice. Correct its report first."
            )
            % {
                "tournament": tournament.name,
                "date": date_format(tournament.start_date, "SHORT_DATE_FORMAT"),
            }
        )
    if kept.user_id is not None and merged.user_id is not None:
        problems.append(
            _("Both records are linked to a user account: unlink one of them first (admin).")
        )
    open_lists = Protest.objects.filter(status__in=OPEN_STATUSES)
    both = open_lists.filter(player=kept).values("published_list_id")
    for protest in open_lists.filter(player=merged, published_list_id__in=both).select_related(
        "published_list"
    ):
        problems.append(
            _("Both records have an open protest against the list %(list)s: decide one first.")
            % {"list": protest.published_list}
        )
    if (
        CorrectionRequest.objects.filter(player=kept, status="pending").exists()
        and CorrectionRequest.objects.filter(player=merged, status="pending").exists()
    ):
        problems.append(_("Both records have a pending correction request: decide one first."))
    pending = ErasureRequest.objects.filter(status=ErasureStatus.PENDING)
    if pending.filter(player=kept).exists() and pending.filter(player=merged).exists():
        problems.append(_("Both records have a pending erasure request: decide one first."))
    return problems


def player_merge(*, kept: Player, merged: Player, by: Any, reason: str) -> MergeCounts:
    """Merge ``merged`` into ``kept`` (the module's docstring says what moves). Raises
    PermissionDenied unless ``by`` may merge players, Refused with every reason it cannot."""
    if not by.has_perm("players.merge_players"):
        raise PermissionDenied
    reason = reason.strip()
    if not reason:
        raise Refused(_("Say why the two records are the same player."))
    with transaction.atomic():
        # Both rows locked, in id order (two merges of the same pair wait for each other).
        locked = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk])
        }
        kept, merged = locked[kept.pk], locked[merged.pk]
        problems = player_merge_problems(kept=kept, merged=merged)
        if problems:
            raise Refused(" ".join(problems))
        counts = player_merge_counts(kept=kept, merged=merged)
        context = {"merge": f"{merged.fed_id} → {kept.fed_id}", "reason": reason[:500]}
        with history_context(**context, user=getattr(by, "pk", None)):
            _move(kept, merged)
        # Forgotten now and again once committed (a page read in between found them again).
        player_duplicates_forget()
        transaction.on_commit(player_duplicates_forget)
    return counts


def _move(kept: Player, merged: Player) -> None:
    entries = TournamentPlayer.objects.filter(player=merged)
    tournament_ids = list(entries.values_list("tournament_id", flat=True).distinct())
    entries.update(player=kept)
    Protest.objects.filter(player=merged).update(player=kept)
    ClaimRequest.objects.filter(player=merged).update(player=kept)
    CorrectionRequest.objects.filter(player=merged).update(player=kept)
    ErasureRequest.objects.filter(player=merged).update(player=kept)
    kept_systems = PlayerRating.objects.filter(player=kept).values("system_id")
    theirs = PlayerRating.objects.filter(player=merged)
    theirs.filter(system_id__in=kept_systems).delete()
    theirs.update(player=kept)
    # Licences likewise, by season: where both hold one, the kept record's stays.
    kept_seasons = Licence.objects.filter(player=kept).values("season_id")
    licences = Licence.objects.filter(player=merged)
    licences.filter(season_id__in=kept_seasons).delete()
    licences.update(player=kept)
    LiveRating.objects.filter(player=merged).delete()
    # The registry fields kept leaves blank; merged gives up his FIDE ID (unique) and his
    # account first.
    filled = {
        name: getattr(merged, name)
        for name in FILLED_FIELDS
        if getattr(kept, name) in (None, "") and getattr(merged, name) not in (None, "")
    }
    now = timezone.now()
    # Records merged into this one before now lead to the kept one (one step, never a chain).
    Player.objects.filter(merged_into=merged).update(merged_into=kept, updated_at=now)
    Player.objects.filter(pk=merged.pk).update(
        merged_into=kept, fide_id=None, user=None, updated_at=now
    )
    if merged.user_id is not None:
        filled["user_id"] = merged.user_id
    Player.objects.filter(pk=kept.pk).update(**filled, updated_at=now)
    periods = RatingPeriod.objects.filter(tournaments__in=tournament_ids).distinct()
    for period in periods:
        if period.status == PeriodStatus.CALCULATED:
            period_mark_for_recalculation(period=period)
        elif period.status == PeriodStatus.OPEN:
            transaction.on_commit(
                partial(live_ratings_compute, period=period, player_ids={kept.pk})
            )
