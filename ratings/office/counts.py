"""One counting of a tournament's games, used by every officer's page that shows games (the
period's contents on the close and calculate pages and the desk, the review by tournament), so
their totals add up (issue 23, docs/periods.md "Counting games").

- **games**: pairings of two players: `played` ones (what the calculation can rate) and
  `unplayed` ones (forfeits, games of less than one move), shown apart;
- **byes**: byes and absences (no opponent), never counted as games;
- **with_unrated**: played games with a player who has no rating in the system (new, or never
  rated), and `between_unrated`: those with no rated player at all; a tournament whose played
  games are all between unrated players **rates nobody** (`rates_nobody`, with the reason).

A player is rated when his registry record has a rating in the tournament's rating system
(`PlayerRating`: the state the next calculation starts from); a line not matched to the registry
is unrated. Validated tournaments are counted from their stored games; a report not yet
validated (its games are written on validation) from what the report held when it was read
(`Report.paired_games`, `Report.byes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection

from ratings.models import PlayerRating
from tournaments.models import Report, ReportStatus, Tournament

#: Why a tournament rates nobody (the page words each).
NO_RATED_PLAYER = "no_rated_player"
NO_PLAYED_GAME = "no_played_game"
ONLY_UNRATED_GAMES = "only_unrated_games"


@dataclass(frozen=True)
class GameCount:
    played: int = 0
    unplayed: int = 0  # forfeits, less than one move
    byes: int = 0  # byes and absences
    with_unrated: int = 0  # played, with an unrated player on one side at least
    between_unrated: int = 0  # played, no rated player
    players: int = 0
    rated_players: int = 0
    from_report: bool = False  # counted from the report (not validated yet): no played/unplayed
    # False for a report read before its games were counted (Report.paired_games null)
    report_counted: bool = True

    @property
    def games(self) -> int:
        """Pairings of two players, played or not; byes apart."""
        return self.played + self.unplayed

    @property
    def nobody_reason(self) -> str:
        """Why the tournament rates nobody ("" when it rates someone, or is not validated)."""
        if self.from_report:
            return ""
        if self.rated_players == 0 and self.players:
            return NO_RATED_PLAYER
        if self.played == 0:
            return NO_PLAYED_GAME
        if self.between_unrated == self.played:
            return ONLY_UNRATED_GAMES
        return ""

    @property
    def rates_nobody(self) -> bool:
        return bool(self.nobody_reason)


_GAMES_SQL = """
    SELECT g.tournament_id,
           count(*) FILTER (WHERE g.black_id IS NOT NULL AND g.kind = 'played'),
           count(*) FILTER (WHERE g.black_id IS NOT NULL AND g.kind <> 'played'),
           count(*) FILTER (WHERE g.black_id IS NULL),
           count(*) FILTER (WHERE g.black_id IS NOT NULL AND g.kind = 'played'
                            AND (wr.rating IS NULL OR br.rating IS NULL)),
           count(*) FILTER (WHERE g.black_id IS NOT NULL AND g.kind = 'played'
                            AND wr.rating IS NULL AND br.rating IS NULL)
    FROM tournaments_game g
    JOIN tournaments_tournament t ON t.id = g.tournament_id
    JOIN tournaments_tournamentplayer w ON w.id = g.white_id
    LEFT JOIN tournaments_tournamentplayer b ON b.id = g.black_id
    LEFT JOIN {ratings} wr ON wr.player_id = w.player_id AND wr.system_id = t.rating_system_id
    LEFT JOIN {ratings} br ON br.player_id = b.player_id AND br.system_id = t.rating_system_id
    WHERE g.tournament_id = ANY(%s) {in_period}
    GROUP BY g.tournament_id
"""
#: A period's page counts a tournament rated in parts by the games of its part there
#: (ratings.calculation.period_games: the period of a game's part, else its tournament's).
_IN_PERIOD = "AND (g.period_id = %s OR (g.period_id IS NULL AND t.period_id = %s))"


_PLAYERS_SQL = """
    SELECT tp.tournament_id, count(*), count(pr.rating)
    FROM tournaments_tournamentplayer tp
    JOIN tournaments_tournament t ON t.id = tp.tournament_id
    LEFT JOIN {ratings} pr ON pr.player_id = tp.player_id AND pr.system_id = t.rating_system_id
    WHERE tp.tournament_id = ANY(%s)
    GROUP BY tp.tournament_id
"""

#: The statuses whose games are stored (validated or later, as the calculation takes them).
GAMES_STORED = ("validated", "rated", "published")


def tournament_game_counts(
    *, tournaments: Iterable[Tournament], period_id: int | None = None
) -> dict[int, GameCount]:
    """The games of each tournament, counted one way for every page (two grouped queries, and
    one for the reports of tournaments not validated): see the module's docstring.
    ``period_id``: only the games rated in that period (a tournament rated in parts)."""
    tournaments = list(tournaments)
    ids = [t.pk for t in tournaments]
    if not ids:
        return {}
    ratings = PlayerRating._meta.db_table
    with connection.cursor() as cursor:
        if period_id is None:
            cursor.execute(_GAMES_SQL.format(ratings=ratings, in_period=""), [ids])
        else:
            cursor.execute(
                _GAMES_SQL.format(ratings=ratings, in_period=_IN_PERIOD),
                [ids, period_id, period_id],
            )
        games = {row[0]: row[1:] for row in cursor.fetchall()}
        cursor.execute(_PLAYERS_SQL.format(ratings=ratings), [ids])
        players = {row[0]: row[1:] for row in cursor.fetchall()}
    waiting = [t.pk for t in tournaments if t.status not in GAMES_STORED]
    held = {
        r.tournament_id: r
        for r in Report.objects.filter(tournament_id__in=waiting, status=ReportStatus.ACCEPTED)
        .exclude(format="feda")
        .order_by("tournament_id", "-submission")
        .distinct("tournament_id")
        .only("tournament_id", "paired_games", "byes")
    }
    out: dict[int, GameCount] = {}
    for t in tournaments:
        n_players, n_rated = players.get(t.pk, (0, 0))
        if t.status in GAMES_STORED:
            played, unplayed, byes, with_unrated, between = games.get(t.pk, (0, 0, 0, 0, 0))
            out[t.pk] = GameCount(
                played=played,
                unplayed=unplayed,
                byes=byes,
                with_unrated=with_unrated,
                between_unrated=between,
                players=n_players,
                rated_players=n_rated,
            )
        else:
            report = held.get(t.pk)
            out[t.pk] = GameCount(
                # Not validated: the report's pairings, not told apart yet (played or not).
                played=(report.paired_games or 0) if report else 0,
                byes=(report.byes or 0) if report else 0,
                players=n_players,
                rated_players=n_rated,
                from_report=True,
                report_counted=report is not None and report.paired_games is not None,
            )
    return out


def review_rows_counted(
    *, rows: list[dict[str, Any]], period_id: int | None = None
) -> tuple[list[dict[str, Any]], GameCount]:
    """The review's rows by tournament (`draft_changes_by_tournament`), each with its games
    counted the one way (`counts`, those of ``period_id``), and the totals: the same figures
    as the close and calculate pages."""
    tournaments = Tournament.objects.filter(pk__in=[r["tournament_id"] for r in rows])
    counts = tournament_game_counts(tournaments=tournaments, period_id=period_id)
    out = [{**r, "counts": counts.get(r["tournament_id"], GameCount())} for r in rows]
    total = GameCount(
        played=sum(c.played for c in counts.values()),
        unplayed=sum(c.unplayed for c in counts.values()),
        byes=sum(c.byes for c in counts.values()),
        with_unrated=sum(c.with_unrated for c in counts.values()),
        between_unrated=sum(c.between_unrated for c in counts.values()),
        players=sum(c.players for c in counts.values()),
        rated_players=sum(c.rated_players for c in counts.values()),
    )
    return out, total
