"""``fce``: the Catalan federation (FCE) rating regulations, reform proposal, part C
(articles 1-17), seed ``002_65886a691adcfe6f.txt``; digest in RULESETS.md ``fce``.

One period rates ONE list: ``parameters.list`` is ``"standard"`` or ``"rapid"`` (9.1: twelve
lists of each a year). ``PlayerInput.rating`` is the player's rating in that list.

Decisions where the text is open (also in docs/engine.md, "fce"):
- The differential (9.5) is ``parameters.differential``: ``{"YYYY": value}`` or
  ``{"YYYY": [{"from": 0, "value": v0}, {"from": 2000, "value": v1}, ...]}``; a band is keyed
  by the FIDE rating being converted (the band whose ``from`` is the largest not above it).
  The year used is the year of the period's end (the list being computed): one differential
  per list, published "a principi d'any" (7.3.1).
- One differential serves both lists (9.5 publishes one).
- A player who can get his first rating without games (10.1, 11.1, 11.2) starts the period
  with it, is rated in it as a rated player (K of a new player) and counts with it for his
  opponents; his opponents would count him with FIDE + differential anyway (7.3).
- For 11.2.1 the modality (rapid or blitz) is that of his first tournament of the period.
- Blitz: at most 10 minutes for 60 moves (FIDE's definition; the text only splits at 60).
- A forfeit loss (8.2) counts as a rated game (it is "valid for the Catalan rating").
- 8 covers only non-appearance (RULESETS.md "Decided readings"): a game not played for another
  reason (``played: false`` without ``forfeit``) is not rated for either player.
- 11.1 (decided): a player whose first rapid rating comes from his standard one in this period
  is not in the rapid list in force: for his opponents only 7.2 / 7.3 apply (FIDE rating of
  the game's rate of play, else standard FIDE, plus the differential; else not counted).
- 10.1 / 11.x (decided): a newcomer whose first rating needs no games but who has no game
  rated for him in the period stays unrated (he was not "avaluat per primera vegada").
- K (16.2.1): "new player" means fewer than 30 rated games at the start of the period;
  "under 18" means under 18 on the first day of the period; the youth threshold is
  ``parameters.youth_k_max_rating`` (2200 as in article 16; the summary says 2300).
- 17.3 (never below 1000) also applies to a first rating.
- ``parameters.k_override`` (0 = off) replaces K for studies such as the proposal's annex B;
  it is not part of the articles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import ClassVar

from ... import common, types
from ...common import _, excluded, excluded_all, scores
from ...errors import EngineInputError
from ...rounding import to_milli
from ...tables import expected_milli
from ...types import Decision, GameLine, PlayerInput, PlayerResult, TournamentInput
from .. import base
from ..base import NO_REPORTING_RULES, Rule, result_unchanged
from .parameters import FCEParameters, _read_differential
from .results import FCEResults
from .state import _FLOOR, _TABLE, _PoolGame, _Rated

__all__ = ["FCE", "PROTEST_DAYS", "REGULATION", "modality", "protest_deadline"]

_MAX_DAYS = 90  # 6.2
PROTEST_DAYS = 25  # 9.3


def protest_deadline(published: date) -> date:
    """9.3: last day to protest a list published on ``published`` (25 days, counted from
    the publication date, which is day 1)."""
    return date.fromordinal(published.toordinal() + PROTEST_DAYS - 1)


_RATE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$")


def modality(rate_of_play: str) -> str | None:
    """``"standard"``, ``"rapid"`` or ``"blitz"`` for a rate of play (5.1, 5.2).

    Accepts those words or ``"<minutes>+<seconds per move>"``: minutes + 60 x increment >= 60
    minutes is standard (5.1), up to 10 minutes blitz, else rapid (5.2). None if unreadable.
    """
    word = rate_of_play.strip().lower()
    if word in ("standard", "rapid", "blitz"):
        return word
    match = _RATE.match(word)
    if match is None:
        return None
    minutes = float(match.group(1)) + float(match.group(2) or 0)  # 60 moves x s = minutes
    if minutes >= 60:
        return "standard"
    return "blitz" if minutes <= 10 else "rapid"


class FCE(FCEResults):
    id: ClassVar[str] = "fce"
    title: ClassVar[str] = "FCE rating regulations (reform proposal, part C)"
    label: ClassVar[str] = _("Catalan federation (FCE)")
    parameters_type = FCEParameters
    source: ClassVar[str] = "seeds/002_65886a691adcfe6f.txt, part C; RULESETS.md fce"
    # 9.5 (proposal point 8): the FIDE -> FCE differential, published yearly, read from
    # ``parameters.differential``; the calculation passes the published one in force.
    inputs: ClassVar[base.InputFacts] = base.InputFacts(
        differential=Rule("differential", "fce 9.5")
    )
    facts: ClassVar[base.Facts] = base.Facts(
        lists=base.ListFacts(
            cycle=Rule("monthly", "fce 9.1"),  # twelve lists a year, on the 1st of each month
            semesters=None,
            closing_days=None,  # no closing date: the office's default (the period's last day)
            month_end_allowance_days=None,
            publication_floor=None,  # 9.2: every player with a licence for the season
            rating_floor=Rule(_FLOOR, "fce 17.3"),
            # 9.3: "dintre dels vint-i-cinc (25) primers dies, comptant a partir de la data de
            # publicació". DECISION: the publication day is the first of the 25
            # (``protest_deadline``: published 1 April, last day 25 April).
            protest_days=Rule(PROTEST_DAYS, "fce 9.3"),
            protest_counts_publication_day=Rule(True, "fce 9.3"),
            # 9.2: the list holds every player licensed for the current season; the unrated
            # ones are listed without a rating (ratings.publication.services).
            licensed_players=Rule(True, "fce 9.2"),
        ),
        # The text has no registration or reporting deadline: the rating system's
        # registration_days, and the office's one late list.
        reporting=NO_REPORTING_RULES,
        play=base.PlayFacts(
            # 5.1: at least 60 minutes for 60 moves (base + 60 x increment); 5.2: faster, rapid.
            minimum_minutes=Rule((base.MinimumTime(0, 60),), "fce 5.1"),
            first_control_moves=None,
            max_moves_per_hour=None,
            rounds_per_day=Rule(3, "fce 6.1"),
            hours_per_day=None,
            max_days=Rule(base.DurationLimit(_MAX_DAYS, teams_exempt=True), "fce 6.2"),
            authorised_days=None,
            monthly_report_days=None,
            # Not in parts (the officer's decision, docs/periods.md "Tournaments in parts"): 6.2
            # only exempts team competitions from the 90 days and says nothing of intermediate
            # reports: a team league is rated once, whole, in the period of its report.
            rated_in_parts=None,
        ),
        composition=None,  # 7.1, 10.2.3 (unrated players) apply when rating
        # 9.4: "Nom del jugador, Codi d'identificació, Titulació (WCM, CM, MC, MN, WMF, MF,
        # WMI, MI, WGM i GM), Club, Avaluació, Factor K, Nombre de partides evaluades en el
        # corresponent període".
        list_layout=base.ListLayout(
            columns=Rule(("name", "fed_id", "title", "club", "rating", "k", "games"), "fce 9.4"),
        ),
        # 2.2: "es reserva el dret d'avaluar altres torneigs quan ho cregui convenient, tot i que
        # no compleixin les condicions establertes".
        decisions=base.DecisionFacts(rate_despite_conditions=Rule(True, "fce 2.2")),
    )

    # ------------------------------------------------------------------ parameters

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = dict(super().validate_parameters(parameters))
        if out["list"] not in ("standard", "rapid"):
            raise EngineInputError(
                "parameters",
                "list",
                _('must be "standard" or "rapid" (got %(value)r)'),
                {"value": out["list"]},
            )
        _read_differential(out["differential"])
        std = out["standard_ratings"]
        std_ok = std is None or (
            isinstance(std, Mapping)
            and all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for k, v in std.items()
            )
        )
        if not std_ok:
            raise EngineInputError(
                "parameters",
                "standard_ratings",
                _("must be an object {player id: standard FCE rating}"),
            )
        return out

    # ------------------------------------------------------------------ rating

    def rate(self, period: types.PeriodInput) -> types.PeriodResult:
        params = self.parameters_from(period.parameters)
        players = common.validate_period(period)
        list_kind = params.list
        differentials = _read_differential(params.differential)
        standard: Mapping[str, object] = params.standard_ratings or {}
        youth_max = params.youth_k_max_rating
        k_override = params.k_override
        year = period.end.year
        art = self.article

        def differential(fide: int) -> int:
            # 9.5: published yearly, possibly by bands of the FIDE rating.
            bands = differentials.get(year)
            if bands is None:
                raise EngineInputError(
                    "parameters",
                    "differential",
                    _("no FIDE -> FCE differential for %(year)s (9.5)"),
                    {"year": year},
                )
            value = bands[0].value
            for band in bands:
                if fide >= band.start:
                    value = band.value
            return value

        # 5.1 / 5.2: the tournaments of this list.
        excluded_games: list[types.Excluded] = []
        ordered: list[tuple[TournamentInput, str]] = []
        for index, tournament in common.sorted_tournaments(period):
            mod = modality(tournament.rate_of_play)
            if mod is None:
                raise EngineInputError(
                    f"tournaments[{index}]",
                    "rate_of_play",
                    _("unreadable rate of play %(value)r (standard, rapid, blitz or 90+30)"),
                    {"value": tournament.rate_of_play},
                )
            in_list = (mod == "standard") == (list_kind == "standard")
            if not in_list:
                article = art("5.1") if mod == "standard" else art("5.2")
                decision = Decision(
                    "other_list",
                    article,
                    _("rate of play %(rate)s belongs to the %(other)s list"),
                    {
                        "rate": tournament.rate_of_play,
                        "other": "standard" if mod == "standard" else "rapid",
                    },
                )
                excluded_games += excluded_all(tournament, decision)
                continue
            if (
                tournament.system != "team"
                and tournament.start_date is not None
                and tournament.end_date is not None
                and (tournament.end_date - tournament.start_date).days + 1 > _MAX_DAYS
            ):
                # 6.2: at most 90 days, except team competitions.
                too_long = Decision(
                    "too_long", art("6.2"), _("the tournament lasted more than 90 days")
                )
                excluded_games += excluded_all(tournament, too_long)
                continue
            ordered.append((tournament, mod))

        def first_rating(p: PlayerInput, mod: str) -> tuple[int, Decision] | None:
            """A first rating that needs no games (10.1, 11.1, 11.2), or None."""
            if list_kind == "standard":
                if p.fide_rating:
                    d = differential(p.fide_rating)
                    return p.fide_rating + d, Decision(
                        "initial_fide",
                        art("10.1"),
                        _("first rating: FIDE %(fide)s + differential %(diff)s"),
                        {"fide": p.fide_rating, "diff": d},
                    )
                return None
            std = standard.get(p.id)
            if isinstance(std, int):
                return std, Decision(
                    "initial_standard",
                    art("11.1"),
                    _("first rapid rating: the standard FCE rating %(rating)s"),
                    {"rating": std},
                )
            same = p.fide_blitz_rating if mod == "blitz" else p.fide_rapid_rating
            if same:
                d = differential(same)
                return same + d, Decision(
                    "initial_fide_modality",
                    art("11.2.1"),
                    _("first rapid rating: FIDE %(modality)s %(fide)s + differential %(diff)s"),
                    {"modality": mod, "fide": same, "diff": d},
                )
            if p.fide_rating:
                d = differential(p.fide_rating)
                return p.fide_rating + d, Decision(
                    "initial_fide_standard",
                    art("11.2.2"),
                    _("first rapid rating: FIDE standard %(fide)s + differential %(diff)s"),
                    {"fide": p.fide_rating, "diff": d},
                )
            return None

        def opponent_rating(
            opp: PlayerInput, mod: str, tournament: TournamentInput
        ) -> tuple[int | None, str]:
            """The rating an opponent counts with in this game, or None and the article."""
            if opp.rating is not None:
                if (
                    opp.rated_since is not None
                    and tournament.end_date is not None
                    and tournament.end_date < opp.rated_since
                ):
                    return None, art("12.1")  # rated for himself only
                return opp.rating, ""
            # 7.3.1 FIDE + differential, 7.3.2 FIDE of the game's rate of play, 7.3.3 standard
            # FIDE for rapid games. Not 11.1: a first rapid rating taken from the standard one
            # in this period is not in the rapid list in force (decided reading).
            fide = opp.fide_rating
            if mod != "standard":
                same = opp.fide_blitz_rating if mod == "blitz" else opp.fide_rapid_rating
                fide = same or opp.fide_rating
            if not fide:
                return None, art("7.2")
            return fide + differential(fide), ""

        # Which players are rated in this period and with what starting rating.
        first_mod: dict[str, str] = {}
        for tournament, mod in ordered:
            for game in tournament.games:
                first_mod.setdefault(game.white, mod)
                first_mod.setdefault(game.black, mod)

        rated: dict[str, _Rated] = {}
        notes: dict[str, list[Decision]] = {pid: [] for pid in players}
        for pid, p in players.items():
            if not p.affiliated:
                notes[pid].append(
                    Decision(
                        "not_affiliated",
                        art("2.1"),
                        _("not affiliated to the FCE: not rated (counts for his opponents)"),
                    )
                )
                continue
            seed: Decision | None = None
            if p.rating is not None:
                start = p.rating
            else:
                if pid not in first_mod:
                    continue  # 10.1 / 11: a first rating only for a player who plays
                got = first_rating(p, first_mod[pid])
                if got is None:
                    continue
                start, seed = got
            k, k_article = self._k(p, start, list_kind, period.start, youth_max, k_override)
            rated[pid] = _Rated(start, k, k_article, seed)

        lines: list[GameLine] = []
        pools: dict[str, list[_PoolGame]] = {}
        # 10.2.3: the first tournament of a player with no earlier games (the stored pool is
        # already clean, as in fide-2024): his played points in it, against anyone.
        first_played: dict[str, tuple[str, float]] = {}
        for tournament, _mod in ordered:
            for game in tournament.games:
                if game.forfeit or not game.played:
                    continue  # 8.3
                white_score, black_score = scores(game.result)
                for pid, score in ((game.white, white_score), (game.black, black_score)):
                    if pid in rated or players[pid].prior_results or players[pid].games:
                        continue
                    tid, points = first_played.setdefault(pid, (tournament.id, 0.0))
                    if tid == tournament.id:
                        first_played[pid] = (tid, points + score)
        for tournament, mod in ordered:
            for game in tournament.games:
                if not game.forfeit and not game.played:
                    # 8 covers only non-appearance: a game not played for another reason is
                    # not rated (decided reading).
                    excluded_games.append(
                        excluded(
                            tournament,
                            game,
                            Decision("not_played", art("8"), _("not played")),
                        )
                    )
                    continue
                white_score, black_score = scores(game.result)
                forfeit = game.forfeit
                for me_id, opp_id, score in (
                    (game.white, game.black, white_score),
                    (game.black, game.white, black_score),
                ):
                    me = rated.get(me_id)
                    if forfeit:
                        if score > 0 and me is not None:
                            excluded_games.append(
                                self._excluded(
                                    tournament,
                                    game,
                                    "forfeit_win",
                                    "8.1",
                                    _("%(player)s won by forfeit: not rated"),
                                    me_id,
                                )
                            )
                            continue
                        if me is None:
                            if players[me_id].affiliated:
                                excluded_games.append(
                                    self._excluded(
                                        tournament,
                                        game,
                                        "forfeit_first",
                                        "8.3",
                                        _(
                                            "forfeit of %(player)s: never counts for a first "
                                            "performance"
                                        ),
                                        me_id,
                                    )
                                )
                            continue
                        # 8.2: a loss against his own rating with half his K.
                        # K/2 x (0 - .50) = -K/4, exact in thousandths for any integer K;
                        # the line shows K/2 (rounded down for an odd study K).
                        half = me.k // 2
                        change = me.k * (to_milli(0.0) - 500) // 2
                        me.milli += change
                        me.games += 1
                        me.expected_milli += 500
                        lines.append(
                            GameLine(
                                tournament.id,
                                me_id,
                                opp_id,
                                me.start,
                                0.0,
                                0.5,
                                change / 1000,
                                half,
                            )
                        )
                        continue
                    if me is None and not players[me_id].affiliated:
                        continue
                    opp_value, why = opponent_rating(players[opp_id], mod, tournament)
                    if opp_value is None:
                        excluded_games.append(
                            self._excluded(
                                tournament,
                                game,
                                "opponent_unrated",
                                why,
                                _("%(player)s: the opponent has no FCE or FIDE rating here"),
                                me_id,
                            )
                        )
                        continue
                    if me is None:
                        pools.setdefault(me_id, []).append(
                            _PoolGame(tournament.id, tournament.end_date, opp_value, score)
                        )
                        continue
                    # 15.2: per game R = K (P - PD), Taula 1 with no difference cap.
                    pd = expected_milli(me.start - opp_value, _TABLE)
                    change = me.k * (to_milli(score) - pd)
                    me.milli += change
                    me.games += 1
                    me.score += score
                    me.expected_milli += pd
                    lines.append(
                        GameLine(
                            tournament.id,
                            me_id,
                            opp_id,
                            opp_value,
                            score,
                            pd / 1000,
                            change / 1000,
                            me.k,
                        )
                    )

        results: list[PlayerResult] = []
        for pid, p in players.items():
            r = rated.get(pid)
            if r is not None:
                results.append(self._rated_result(p, r, notes[pid]))
            elif p.affiliated:
                first = first_played.get(pid)
                zero = first[0] if first is not None and first[1] == 0 else None
                results.append(self._first_performance(p, pools.get(pid, []), zero, notes[pid]))
            else:
                results.append(result_unchanged(p, notes[pid]))
        return self.period_result(results, lines, excluded_games)


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "fce/2"
REGULATION = FCE(version=VERSION)
