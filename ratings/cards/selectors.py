"""Reads of a player's card: his current rating in every rating system (status flags, K,
ranks), his history over the current list versions, and the calculation behind one list,
game by game (public, like FIDE's individual calculations).

A published list never changes, so everything here that is keyed by list ids can be cached
for good by the caller (ratings.views.public caches the card's fragment by the current ids)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from periods.models import RatingSystem
from players.models import Player
from players.names import fold
from ratings.calculation.selectors import draft_player
from ratings.lists.filters import ACTIVE_STATUSES
from ratings.lists.selectors import list_current_ids
from ratings.live.selectors import LiveFigure, player_live
from ratings.models import (
    Activity,
    CalculationRun,
    DraftResult,
    DraftTournament,
    EntryStatus,
    ListEntry,
    ListRank,
    PlayerRating,
    PublishedList,
    RatingKind,
)


@dataclass(frozen=True)
class Ranks:
    """1-based ranks by rating in one list (ties share a rank); None where not ranked."""

    national: int | None = None
    region: int | None = None
    club: int | None = None
    active: int | None = None


@dataclass(frozen=True)
class HistoryPoint:
    """The player in one current list version."""

    list_id: int
    list_date: Any
    version: int
    rating: int | None
    change: int
    games: int
    k: int | None
    status: str
    #: The list has its calculation (a run published it; an imported list has none).
    calculated: bool

    @property
    def status_display(self) -> str:
        return str(EntryStatus(self.status).label) if self.status in EntryStatus else self.status


@dataclass
class SystemCard:
    """The player in one rating system."""

    system: RatingSystem
    state: PlayerRating | None
    entry: ListEntry | None  # his entry in the system's newest current list
    ranks: Ranks = field(default_factory=Ranks)
    history: list[HistoryPoint] = field(default_factory=list)
    #: His live rating in a period not yet published (ratings.live), provisional.
    live: LiveFigure | None = None

    @property
    def flags(self) -> list[str]:
        """The badges beside the status, each said once: the rating's kind and activity, the
        entry's inactive and provisional marks, leaving out what the status already reads
        (an inactive player's card said "Inactive" three times)."""
        return [label for label, _meaning in self.explained_flags]

    @property
    def explained_flags(self) -> list[tuple[str, str]]:
        """The badges with what each means, for the badge's title and the card's legend (a
        bare "Effective" beside a status explained nothing)."""
        said = [str(self.entry.get_status_display())] if self.entry else []
        codes: list[str] = []
        if self.state:
            codes += [self.state.kind, self.state.activity]
        if self.entry and self.entry.inactive:
            codes.append(EntryStatus.INACTIVE)
        if self.entry and self.entry.provisional:
            codes.append(EntryStatus.PROVISIONAL)
        shown: list[tuple[str, str]] = []
        for code in codes:
            # A code without a meaning here (a state written by hand) still shows its own text.
            label, meaning = FLAG_MEANINGS.get(str(code), (str(code), ""))
            if str(label) not in said:
                said.append(str(label))
                shown.append((str(label), str(meaning)))
        return shown


#: What each badge of the card means (rating kinds, activity, the entry's marks).
FLAG_MEANINGS: dict[str, tuple[Any, Any]] = {
    RatingKind.UNRATED: (
        RatingKind.UNRATED.label,
        _("No rating yet: not enough rated games against rated opponents."),
    ),
    RatingKind.PROVISIONAL: (
        RatingKind.PROVISIONAL.label,
        _(
            "A provisional rating: based on fewer games than the regulation asks for an "
            "established one; it moves faster."
        ),
    ),
    RatingKind.EFFECTIVE: (
        RatingKind.EFFECTIVE.label,
        _("An established rating: based on at least the games the regulation asks for."),
    ),
    Activity.ACTIVE: (Activity.ACTIVE.label, _("Has played rated games recently enough.")),
    Activity.INACTIVE: (
        Activity.INACTIVE.label,
        _("Has not played rated games for the time the regulation sets; the rating is kept."),
    ),
    Activity.PASSIVE: (
        Activity.PASSIVE.label,
        _("Not playing for now (correspondence): left out of the lists, the data kept."),
    ),
}


def publication_state() -> int:
    """The newest published list's id (0 before any): it changes with every publication and
    every correction (a new version), and with nothing else, since published lists are never
    updated nor deleted (ratings migration 0011). What a page showing lists is kept by."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(id) FROM ratings_publishedlist")
        row = cursor.fetchone()
    return int(row[0] or 0) if row else 0


#: What a player's card shows besides the published lists: his record and his states.
CARD_STATE_SQL = """
    SELECT p.id, p.updated_at,
           (SELECT max(r.updated_at) FROM ratings_playerrating r WHERE r.player_id = p.id),
           (SELECT max(l.id) FROM ratings_publishedlist l),
           (SELECT max(lr.computed_at) FROM ratings_liverating lr WHERE lr.player_id = p.id)
    FROM players_player p WHERE p.fed_id = %s
"""


def card_state(*, fed_id: str) -> str | None:
    """What the card of the player `fed_id` depends on, as a short text, in one statement; None
    when there is no such player. It changes when a list (or a correction, a new version) is
    published (the newest list id: published lists are never updated nor deleted), when the
    player's record changes, and when one of his rating states does (publication and list
    imports set their `updated_at`), and when one of his live ratings is computed (ratings.live).
    A card kept under this state is the card of now."""
    with connection.cursor() as cursor:
        cursor.execute(CARD_STATE_SQL, [fed_id])
        row = cursor.fetchone()
    if row is None:
        return None
    player_id, changed, rated, newest, live = row
    stamps = [f"{t.timestamp():.6f}" if t else "-" for t in (changed, rated, live)]
    return f"{player_id}.{stamps[0]}.{stamps[1]}.{newest or 0}.{stamps[2]}"


def card_state_live(state: str) -> bool:
    """Whether the card of `state` (card_state) has live ratings to read: none computed for the
    player says "-" where their time goes."""
    return not state.endswith(".-")


def entry_ranks(*, entry: ListEntry, player: Player) -> Ranks:
    """Ranks of `entry` in its list: national (every rated entry), in his region, in his club,
    and among active entries (only if he is active). Read from the entry (lists published
    since issue 27: written with it), else from ListRank when the list's ranks are written;
    otherwise counted in one statement."""
    if entry.rating is None:
        return Ranks()
    if entry.rank_national is not None:  # written by the publication (ratings.publication.ranks)
        return Ranks(entry.rank_national, entry.rank_region, entry.rank_club, entry.rank_active)
    stored = ListRank.objects.filter(
        published_list_id=entry.published_list_id, player_id=player.pk
    ).first()
    if stored is not None:  # written once after publication (ratings.lists.ranks)
        return Ranks(stored.national, stored.region, stored.club, stored.active)
    # Not written (yet): counted here (an imported list; or the task has not run).
    active = not entry.inactive and entry.status in ACTIVE_STATUSES
    sql = """
        SELECT count(*),
               count(*) FILTER (WHERE p.region = %(region)s AND %(region)s <> ''),
               count(*) FILTER (WHERE p.club = %(club)s AND %(club)s <> ''),
               count(*) FILTER (WHERE NOT e.inactive AND e.status = ANY(%(active)s))
        FROM ratings_listentry e JOIN players_player p ON p.id = e.player_id
        WHERE e.published_list_id = %(list)s AND e.rating > %(rating)s
    """
    params: dict[str, Any] = {
        "region": player.region,
        "club": player.club,
        "active": [str(s) for s in ACTIVE_STATUSES],
        "list": entry.published_list_id,
        "rating": entry.rating,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        national, region, club, active_above = cursor.fetchone()
    return Ranks(
        national=national + 1,
        region=region + 1 if player.region else None,
        club=club + 1 if player.club else None,
        active=active_above + 1 if active else None,
    )


def player_card(
    *, player: Player, list_ids: list[int] | None = None, live: bool = True
) -> list[SystemCard]:
    """The player in every rating system he has a state or a list entry in, by system name:
    state, entry in the newest current list, ranks there, and the history over the current
    versions (oldest first, one point per list). `list_ids`: the current list ids, if the
    caller has them already (list_current_ids). `live`: False when the caller knows he has no
    live rating (card_state_live).

    Four statements for a player of lists published since issue 27 (issue 29, the card's
    first render after a publication): the current ids; his entries in them with their list, its
    system and whether a run calculated it; his states with their system; his live figures
    (ratings.live) unless `live` says he has none. The ranks are the entry's own."""
    # The current ids as values, not a subquery: with a subquery the planner probed the entries
    # of every version (superseded ones too) and planned for 2.6 ms.
    current = list_ids if list_ids is not None else list_current_ids()
    entries = list(
        ListEntry.objects.filter(published_list_id__in=current, player_id=player.pk)
        .select_related("published_list__system")
        .annotate(
            calculated=Exists(
                CalculationRun.objects.filter(published_list=OuterRef("published_list"))
            )
        )
        .order_by("published_list__list_date", "published_list__version")
    )
    states = {
        s.system_id: s
        for s in PlayerRating.objects.filter(player_id=player.pk).select_related("system")
    }
    figures = player_live(player_id=player.pk) if live else {}
    systems = {e.published_list.system_id: e.published_list.system for e in entries}
    systems.update((s.system_id, s.system) for s in states.values())
    missing = set(figures) - set(systems)
    if missing:  # a live figure in a system he has no state nor entry in
        systems.update(RatingSystem.objects.in_bulk(missing))
    cards = []
    # By name, as PostgreSQL sorts them (RatingSystem.objects.order_by("name") before): case
    # and accents after the letters.
    for system in sorted(systems.values(), key=lambda s: (fold(s.name), s.name, s.pk)):
        mine = [e for e in entries if e.published_list.system_id == system.pk]
        latest = mine[-1] if mine else None
        cards.append(
            SystemCard(
                system=system,
                state=states.get(system.pk),
                entry=latest,
                ranks=entry_ranks(entry=latest, player=player) if latest else Ranks(),
                live=figures.get(system.pk),
                history=[
                    HistoryPoint(
                        list_id=e.published_list_id,
                        list_date=e.published_list.list_date,
                        version=e.published_list.version,
                        rating=e.rating,
                        change=e.change,
                        games=e.games,
                        k=e.k,
                        status=e.status,
                        calculated=e.calculated,
                    )
                    for e in mine
                ],
            )
        )
    return cards


@dataclass(frozen=True)
class ListCalculation:
    """A player's calculation in one published list: his entry, the run's result (rating
    before, score, expected, K and its article, the decisions' notes), the game lines with
    their tournaments, and the games left out with the article behind each."""

    published: PublishedList
    entry: ListEntry | None
    result: Any  # DraftResult or None (an imported list has no calculation)
    lines: list[Any]
    excluded: list[Any]
    tournaments: dict[int, str]

    @property
    def by_tournament(self) -> list[tuple[int, str, list[Any]]]:
        """The game lines grouped by tournament: (id, name, lines)."""
        out: dict[int, list[Any]] = {}
        for line in self.lines:
            out.setdefault(line.tournament_id, []).append(line)
        return [(tid, self.tournaments.get(tid, "?"), lines) for tid, lines in out.items()]


def player_list_calculation(*, published: PublishedList, player_id: int) -> ListCalculation:
    """The calculation behind a player's entry in a published list, game by game."""
    entry = ListEntry.objects.filter(published_list=published, player_id=player_id).first()
    run = CalculationRun.objects.filter(published_list=published).first()
    if run is None:
        return ListCalculation(published, entry, None, [], [], {})
    data = draft_player(run=run, player_id=player_id)
    return ListCalculation(
        published,
        entry,
        data["result"],
        data["lines"],
        data["excluded"],
        data["tournaments"],
    )


@dataclass(frozen=True)
class TournamentChange:
    """A registry player's rating change from one tournament, in the current list of its
    period: games counted, score, expected score, change (before the list's rounding), K."""

    player: Player
    games: int
    score: float
    expected: float
    change: float
    k: int
    rating_before: int | None


@dataclass(frozen=True)
class TournamentChanges:
    published: PublishedList | None
    rows: list[TournamentChange]


def tournament_rating_changes(*, tournament: Any) -> TournamentChanges:
    """The rating changes a tournament brought its players, from the calculation of the
    current list of its period (none before a list is published)."""
    if tournament.period_id is None:
        return TournamentChanges(None, [])
    published = (
        PublishedList.objects.filter(period_id=tournament.period_id).order_by("-version").first()
    )
    run = CalculationRun.objects.filter(published_list=published).first() if published else None
    row = (
        DraftTournament.objects.filter(run=run, tournament_id=tournament.pk).first()
        if run
        else None
    )
    if row is None:
        return TournamentChanges(published, [])
    totals: dict[int, list[float]] = {}
    for line in row.decode():
        acc = totals.setdefault(int(line["player"]), [0, 0.0, 0.0, 0.0, 0])
        acc[0] += 1
        acc[1] += int(line["score2"]) / 2
        acc[2] += float(line["expected"])
        acc[3] += float(line["change"])
        acc[4] = int(line["k"])
    players = Player.objects.in_bulk(list(totals))
    before = dict(
        DraftResult.objects.filter(run=run, player_id__in=list(totals)).values_list(
            "player_id", "rating_before"
        )
    )
    rows = [
        TournamentChange(
            player=players[pid],
            games=int(acc[0]),
            score=acc[1],
            expected=round(acc[2], 2),
            change=round(acc[3], 2),
            k=int(acc[4]),
            rating_before=before.get(pid),
        )
        for pid, acc in totals.items()
        if pid in players
    ]
    rows.sort(key=lambda r: (-r.change, r.player.name_key))
    return TournamentChanges(published, rows)
