"""``cnxc-2000``: the Portuguese correspondence chess commission (CNXC) Elo regulations,
competitions started from 1 July 2000; seed ``004_72256e2ca85d9a20.txt``; digest in
RULESETS.md ``cnxc-2000``.

Inputs (decisions where the text is open; also in docs/engine.md, "cnxc-2000"):
- One ``TournamentInput`` is one competition: the caller splits groups, team boards and
  phases (3.3). A competition is rated in the period in which it *finished* (4.1).
- ``PlayerInput.rating`` with ``status`` ``"provisional"`` is a provisional rating, with
  ``"passive"`` a passive effective rating, otherwise an effective rating; ``rating`` None
  means no CNXC rating (a virtual rating is used for the opponents, 5.3). A provisional
  player's ``prior_results`` hold every game counted so far (opponent rating as used then,
  score), so that 6.3 can pool them; their number must equal ``games``.
- Virtual rating (5.3): ``iccf_rating``, else ``fpx_rating``, else ``fide_rating``, else by
  ``TournamentInput.kind``: ``"championship_final"`` 2200; ``"team_championship_final_board_1"``
  or ``"permanent_honour"`` 2000; anything else 1750.
- A forfeit or unplayed game is a game in which a player withdrew before moving (3.2).
- K (6.4): a player who became effective with exactly 12 games uses the 13-24 column.
- 6.3: the provisional rating is computed as ONE competition over all games so far (the
  text's "i.e."), Rc the average of all opponents' ratings, p rounded to hundredths.
- 7.1: ``parameters.winners`` ``{tournament id: player id}`` names the winner after
  tie-breaks; without it the sole top scorer wins; a tie for first with no winner given
  is an input error.
- 7.2 (team substitutions): ``parameters.substitutions``, a list of
  ``{"tournament", "white", "black", ["round"], "side": "white"|"black",
  "players": [{"id", "moved"}, ...]}`` - the players who held that side in order, the first
  being the game's player. (a) leading players who made no move drop out; (b) substitutes who
  made no move drop out; (c) every remaining player but the last is an "original", the last
  is the "substitute". (d) an effective original is charged the game only if W - We < 0 for
  him, (e) a non-effective original is charged a loss; (f) an effective substitute is
  charged only if W - We > 0, (g) a non-effective substitute is not charged; (h) every
  player of the other side counts the game against the highest rated (effective,
  provisional or virtual) player of this side.
- 7.3: ``parameters.iccf_list`` ``{player id: rating}`` is the ICCF list in force the day
  after the period (not ``iccf_rating``, which is the list in force when calculating, 5.3).
  Players in both lists: effective in the new list and not passive (passive players are not
  in the lists, 5.2). With at least 8, the mean difference, rounded half up (6.6), is added
  to every effective rating, active or passive.
- 5.2: passive when the last counted game is five years or more before the period's end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from typing import ClassVar

from .. import types
from ..common import (
    _,
    add_months,
    excluded,
    excluded_all,
    scores,
    sorted_tournaments,
    validate_period,
)
from ..errors import EngineInputError
from ..rounding import p_hundredths, round_half_up, round_half_up_milli, to_milli
from ..tables import dp_for_hundredths, expected_milli
from ..types import Decision, GameLine, PlayerInput, PlayerResult, TournamentInput
from . import base
from .base import NO_REPORTING_RULES, Rule, Semesters

__all__ = [
    "APPEAL_DAYS",
    "CNXC2000",
    "PROTEST_DAYS",
    "REGULATION",
    "VIRTUAL_BY_KIND",
    "appeal_deadline",
    "k_factor",
    "protest_deadline",
]

_TABLE = "cnxc-2000"

#: 5.3: the virtual rating of a player with no ICCF, FPX or FIDE rating, by competition kind.
VIRTUAL_BY_KIND: Mapping[str, int] = {
    "championship_final": 2200,
    "team_championship_final_board_1": 2000,
    "permanent_honour": 2000,
}
_VIRTUAL_OTHER = 1750
PROTEST_DAYS = 30  # 4.3: protest to the rating commissioner after the list is published
APPEAL_DAYS = 7  # 4.3: appeal to the board after the commissioner's decision


def protest_deadline(published: date) -> date:
    """4.3: last day to protest a list published on ``published`` (30 days after it)."""
    return date.fromordinal(published.toordinal() + PROTEST_DAYS)


def appeal_deadline(decided: date) -> date:
    """4.3: last day to appeal the commissioner's decision of ``decided`` (7 days after)."""
    return date.fromordinal(decided.toordinal() + APPEAL_DAYS)


# 6.4: K by effective rating (rows) and games counted (columns 13-24, 25-50, 51-100, >100).
_K_MATRIX: tuple[tuple[int, int, int, int], ...] = (
    (40, 30, 25, 20),  # < 2000
    (30, 25, 20, 15),  # 2000-2200
    (25, 20, 20, 15),  # 2201-2400
    (20, 20, 15, 15),  # > 2400
)


def k_factor(rating: int, games: int) -> int:
    """6.4: K for an effective rating and the games counted in the list in force."""
    row = 0 if rating < 2000 else 1 if rating <= 2200 else 2 if rating <= 2400 else 3
    col = 0 if games <= 24 else 1 if games <= 50 else 2 if games <= 100 else 3
    return _K_MATRIX[row][col]


@dataclass(frozen=True, slots=True)
class _Side:
    """Who holds one side of a game after 7.2 a-c: (player id, role)."""

    players: tuple[tuple[str, str], ...]  # role: "player" | "original" | "substitute"


@dataclass(slots=True)
class _Entry:
    opponent: str
    opponent_rating: int
    score: float


@dataclass(slots=True)
class _Competition:
    entries: list[_Entry] = field(default_factory=list)


class CNXC2000(base.Regulation):
    id: ClassVar[str] = "cnxc-2000"
    title: ClassVar[str] = "CNXC correspondence chess Elo regulations (from 1 July 2000)"
    source: ClassVar[str] = "seeds/004_72256e2ca85d9a20.txt; RULESETS.md cnxc-2000"
    facts: ClassVar[base.Facts] = base.Facts(
        lists=base.ListFacts(
            cycle=Rule("semestral", "cnxc-2000 4.1"),
            # 4.1: competitions finished 1 January-30 June and 1 July-31 December. DECISION:
            # the text gives no publication date; each list is dated the 1st after its half.
            semesters=Rule(Semesters(starts=(1, 7), lists=(7, 1)), "cnxc-2000 4.1"),
            closing_days=None,  # 4.1 counts competitions finished by the half's last day
            month_end_allowance_days=None,
            publication_floor=None,  # 4.2: every rated player, provisional ones marked
            rating_floor=None,
            # 4.3: "no prazo de 30 dias após a divulgação da lista". DECISION: 30 days after
            # the publication day (``protest_deadline``: published 15 July, last day 14
            # August); the appeal to the board is 7 days more (``APPEAL_DAYS``).
            protest_days=Rule(PROTEST_DAYS, "cnxc-2000 4.3"),
            # 4.3: "Da decisão do CEXC caberá recurso para o CD da CNXC, no prazo máximo de 7
            # dias, devendo o reclamante juntar uma importância igual ao valor da taxa de
            # filiação em vigor, que lhe será devolvida caso seja dado provimento ao recurso."
            # DECISION: 7 days after the decision day (``appeal_deadline``); the deposit is
            # the membership fee in force (the office's PROTEST_APPEAL_DEPOSIT), returned if
            # the appeal is upheld.
            appeal_days=Rule(APPEAL_DAYS, "cnxc-2000 4.3"),
            appeal_deposit=Rule("membership_fee", "cnxc-2000 4.3"),
        ),
        # No registration or reporting deadline in the text: the rating system's
        # registration_days and the office's one late list.
        reporting=NO_REPORTING_RULES,
        # Correspondence chess: no rate of play, rounds a day or duration rules.
        play=base.PlayFacts(
            minimum_minutes=None,
            first_control_moves=None,
            max_moves_per_hour=None,
            rounds_per_day=None,
            hours_per_day=None,
            max_days=None,
            authorised_days=None,
            monthly_report_days=None,
        ),
        composition=None,  # 3.x (scope) applies when rating
    )
    defaults: ClassVar[Mapping[str, object]] = {
        "substitutions": None,
        "winners": None,
        "iccf_list": None,
    }

    # ------------------------------------------------------------------ parameters

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = dict(super().validate_parameters(parameters))
        for key in ("winners", "iccf_list"):
            value = out[key]
            if value is None:
                continue
            ok = isinstance(value, Mapping) and all(isinstance(k, str) for k in value)
            if ok and key == "iccf_list":
                assert isinstance(value, Mapping)
                ok = all(
                    isinstance(v, int) and not isinstance(v, bool) and v >= 0
                    for v in value.values()
                )
            if ok and key == "winners":
                assert isinstance(value, Mapping)
                ok = all(isinstance(v, str) for v in value.values())
            if not ok:
                what = (
                    "{player id: ICCF rating}"
                    if key == "iccf_list"
                    else ("{tournament id: player id}")
                )
                raise EngineInputError(
                    "parameters", key, _("must be an object %(what)s"), {"what": what}
                )
        subs = out["substitutions"]
        if subs is not None:
            if not isinstance(subs, list):
                raise EngineInputError("parameters", "substitutions", _("must be an array"))
            for i, sub in enumerate(subs):
                self._check_substitution(i, sub)
        return out

    @staticmethod
    def _check_substitution(i: int, sub: object) -> None:
        item = f"parameters.substitutions[{i}]"
        if not isinstance(sub, Mapping):
            raise EngineInputError(item, "", _("must be an object"))
        for key in ("tournament", "white", "black", "side", "players"):
            if key not in sub:
                raise EngineInputError(item, key, _("is required"))
        for key in sub:
            if key not in ("tournament", "white", "black", "round", "side", "players"):
                raise EngineInputError(item, str(key), _("unknown field"))
        for key in ("tournament", "white", "black"):
            if not isinstance(sub[key], str):
                raise EngineInputError(item, key, _("must be a string"))
        if sub["side"] not in ("white", "black"):
            raise EngineInputError(item, "side", _('must be "white" or "black"'))
        if "round" in sub and not (isinstance(sub["round"], int) and sub["round"] >= 0):
            raise EngineInputError(item, "round", _("must be a non-negative integer"))
        chain = sub["players"]
        if not isinstance(chain, list) or len(chain) < 2:
            raise EngineInputError(item, "players", _("must list at least two players"))
        for j, link in enumerate(chain):
            ok = (
                isinstance(link, Mapping)
                and set(link) == {"id", "moved"}
                and isinstance(link["id"], str)
                and isinstance(link["moved"], bool)
            )
            if not ok:
                raise EngineInputError(
                    item, f"players[{j}]", _('must be {"id": player, "moved": true/false}')
                )
        first = chain[0]
        assert isinstance(first, Mapping)
        if first["id"] != sub[sub["side"]]:
            raise EngineInputError(
                item, "players[0]", _("must be the game's %(side)s player"), {"side": sub["side"]}
            )

    # ------------------------------------------------------------------ rating

    def rate(self, period: types.PeriodInput) -> types.PeriodResult:
        params = self.validate_parameters(period.parameters)
        players = validate_period(period)
        art = self.article
        for i, p in enumerate(period.players):
            if (
                p.rating is not None
                and p.status == "provisional"
                and len(p.prior_results) != p.games
            ):
                raise EngineInputError(
                    f"players[{i}]",
                    "prior_results",
                    _(
                        "a provisional rating pools every game so far (6.3): %(games)s games "
                        "but %(results)s prior results"
                    ),
                    {"games": p.games, "results": len(p.prior_results)},
                )

        def effective(p: PlayerInput) -> bool:
            return p.rating is not None and p.status != "provisional"

        def rating_for_opponents(p: PlayerInput, tournament: TournamentInput) -> tuple[int, str]:
            """List rating (effective or provisional, 6.1) or the virtual rating (5.3)."""
            if p.rating is not None:
                return p.rating, ""
            for value, source in (
                (p.iccf_rating, "ICCF"),
                (p.fpx_rating, "FPX"),
                (p.fide_rating, "FIDE"),
            ):
                if value:
                    return value, source
            return VIRTUAL_BY_KIND.get(tournament.kind, _VIRTUAL_OTHER), "kind"

        substitutions = self._substitutions(period, params["substitutions"])
        winners_raw = params["winners"]
        winners: Mapping[str, object] = winners_raw if isinstance(winners_raw, Mapping) else {}

        excluded_games: list[types.Excluded] = []
        lines: list[GameLine] = []
        # player -> competition id -> entries (6.4 V is per competition)
        comps: dict[str, dict[str, _Competition]] = {pid: {} for pid in players}
        norm_winner: dict[str, str] = {}
        notes: dict[str, list[Decision]] = {pid: [] for pid in players}
        virtual_noted: set[tuple[str, str]] = set()

        for _index, tournament in sorted_tournaments(period):
            finished = (
                tournament.end_date is not None
                and period.start <= tournament.end_date <= period.end
            )
            if not finished:
                unfinished = _("competition not finished in this period")
                decision = Decision("not_finished_in_period", art("4.1"), unfinished)
                excluded_games += excluded_all(tournament, decision)
                continue
            if tournament.norm_event:
                winner = self._winner(tournament, winners)
                if winner is not None:
                    norm_winner[tournament.id] = winner
            for g, game in enumerate(tournament.games):
                if game.forfeit or not game.played:
                    excluded_games.append(
                        excluded(
                            tournament,
                            game,
                            Decision(
                                "withdrew_before_moving",
                                art("3.2"),
                                _("a player withdrew before making any move"),
                            ),
                        )
                    )
                    continue
                white_score, black_score = scores(game.result)
                sides = {
                    "white": substitutions.get((tournament.id, g, "white"))
                    or _Side(((game.white, "player"),)),
                    "black": substitutions.get((tournament.id, g, "black"))
                    or _Side(((game.black, "player"),)),
                }
                for side, other, score in (
                    ("white", "black", white_score),
                    ("black", "white", black_score),
                ):
                    # 7.2 h: the opponent faced is the highest rated player of the other side.
                    best_id, best_rating, best_source = "", -1, ""
                    for oid, _role in sides[other].players:
                        value, source = rating_for_opponents(players[oid], tournament)
                        if value > best_rating:
                            best_id, best_rating, best_source = oid, value, source
                    for pid, role in sides[side].players:
                        me = players[pid]
                        if best_source and (pid, best_id) not in virtual_noted:
                            virtual_noted.add((pid, best_id))
                            notes[pid].append(
                                Decision(
                                    "virtual_rating",
                                    art("5.3"),
                                    _(
                                        "%(opponent)s counts with a virtual rating %(rating)s "
                                        "(%(source)s)"
                                    ),
                                    {
                                        "opponent": best_id,
                                        "rating": best_rating,
                                        "source": best_source
                                        if best_source != "kind"
                                        else f"competition kind {tournament.kind or 'other'}",
                                    },
                                )
                            )
                        charged = score
                        if role != "player":
                            charged_or_none = self._substituted(
                                role, effective(me), me, best_rating, score
                            )
                            rule = self._rule(role, effective(me))
                            if charged_or_none is None:
                                excluded_games.append(
                                    excluded(
                                        tournament,
                                        game,
                                        Decision(
                                            "substitution_not_charged",
                                            art(f"7.2 {rule}"),
                                            _("substitution: not charged to %(player)s"),
                                            {"player": pid},
                                        ),
                                    )
                                )
                                continue
                            charged = charged_or_none
                            notes[pid].append(
                                Decision(
                                    "substitution_charged",
                                    art(f"7.2 {rule}"),
                                    _("substitution in %(tournament)s: charged %(score)s"),
                                    {"tournament": tournament.id, "score": charged},
                                )
                            )
                        comp = comps[pid].setdefault(tournament.id, _Competition())
                        comp.entries.append(_Entry(best_id, best_rating, charged))

        results: list[PlayerResult] = []
        for pid, p in players.items():
            comp_map = comps[pid]
            counted = sum(len(c.entries) for c in comp_map.values())
            if effective(p):
                assert p.rating is not None
                results.append(
                    self._effective(p, comp_map, norm_winner, notes[pid], lines, counted)
                )
            else:
                results.append(self._provisional(p, comp_map, notes[pid], lines, counted))

        results = self._passive(period, results, {pid: p for pid, p in players.items()})
        results = self._calibrate(results, params["iccf_list"])
        return self.period_result(results, lines, excluded_games)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _rule(role: str, is_effective: bool) -> str:
        if role == "original":
            return "d" if is_effective else "e"
        return "f" if is_effective else "g"

    def _substituted(
        self, role: str, is_effective: bool, me: PlayerInput, opponent_rating: int, score: float
    ) -> float | None:
        """7.2 d-g: the score charged to an original or a substitute, or None."""
        if role == "original":
            if not is_effective:
                return 0.0  # e: a non-effective original is charged a loss
            assert me.rating is not None
            pd = expected_milli(me.rating - opponent_rating, _TABLE)
            return score if to_milli(score) < pd else None  # d: only if W - We < 0
        if not is_effective:
            return None  # g
        assert me.rating is not None
        pd = expected_milli(me.rating - opponent_rating, _TABLE)
        return score if to_milli(score) > pd else None  # f: only if W - We > 0

    def _substitutions(
        self, period: types.PeriodInput, raw: object
    ) -> dict[tuple[str, int, str], _Side]:
        """7.2 a-c: each substituted side as (player, role) after dropping non-movers."""
        out: dict[tuple[str, int, str], _Side] = {}
        if not isinstance(raw, list):
            return out
        known = {p.id for p in period.players}
        for i, sub in enumerate(raw):
            self._check_substitution(i, sub)
            assert isinstance(sub, Mapping)
            item = f"parameters.substitutions[{i}]"
            matches = [
                (t.id, g)
                for t in period.tournaments
                if t.id == sub["tournament"]
                for g, game in enumerate(t.games)
                if game.white == sub["white"]
                and game.black == sub["black"]
                and ("round" not in sub or game.round == sub["round"])
            ]
            if len(matches) != 1:
                raise EngineInputError(
                    item,
                    "tournament",
                    _('matches %(count)s games (exactly one needed; add "round")'),
                    {"count": len(matches)},
                )
            chain: list[tuple[str, bool]] = []
            for j, link in enumerate(sub["players"]):
                if link["id"] not in known:
                    raise EngineInputError(
                        item, f"players[{j}].id", _("unknown player %(id)r"), {"id": link["id"]}
                    )
                chain.append((str(link["id"]), bool(link["moved"])))
            # a: an original who made no move is replaced by his substitute as original.
            while len(chain) > 1 and not chain[0][1]:
                chain.pop(0)
            # b: a substitute who made no move: as if the substitution had not been made.
            chain = [chain[0]] + [link for link in chain[1:] if link[1]]
            if len(chain) == 1:
                side = _Side(((chain[0][0], "player"),))
            else:
                # c: a substitute who is substituted in turn counts as an original.
                side = _Side(
                    tuple((pid, "original") for pid, _m in chain[:-1])
                    + ((chain[-1][0], "substitute"),)
                )
            key = (matches[0][0], matches[0][1], str(sub["side"]))
            if key in out:
                raise EngineInputError(item, "side", _("this side is already substituted"))
            out[key] = side
        return out

    def _winner(self, tournament: TournamentInput, winners: Mapping[str, object]) -> str | None:
        """7.1: the winner of a norm competition (after tie-breaks)."""
        given = winners.get(tournament.id)
        if isinstance(given, str):
            return given
        points: dict[str, float] = {}
        for game in tournament.games:
            white, black = scores(game.result)
            points[game.white] = points.get(game.white, 0.0) + white
            points[game.black] = points.get(game.black, 0.0) + black
        if not points:
            return None
        top = max(points.values())
        leaders = [pid for pid, pts in points.items() if pts == top]
        if len(leaders) > 1:
            raise EngineInputError(
                "parameters",
                "winners",
                _(
                    "competition %(tournament)s is valid for norms and %(players)s tie for first: "
                    "name its winner after tie-breaks (7.1)"
                ),
                {"tournament": tournament.id, "players": ", ".join(sorted(leaders))},
            )
        return leaders[0]

    def _effective(
        self,
        p: PlayerInput,
        comp_map: Mapping[str, _Competition],
        norm_winner: Mapping[str, str],
        notes: list[Decision],
        lines: list[GameLine],
        counted: int,
    ) -> PlayerResult:
        assert p.rating is not None
        k = k_factor(p.rating, p.games)  # 6.4, from the list in force (6.1)
        total_milli = 0
        score = 0.0
        expected_total = 0
        for tid, comp in comp_map.items():
            w_milli = 0
            we_milli = 0
            for entry in comp.entries:
                pd = expected_milli(p.rating - entry.opponent_rating, _TABLE)  # Tabela II
                w_milli += to_milli(entry.score)
                we_milli += pd
                lines.append(
                    GameLine(
                        tid,
                        p.id,
                        entry.opponent,
                        entry.opponent_rating,
                        entry.score,
                        pd / 1000,
                        k * (to_milli(entry.score) - pd) / 1000,
                        k,
                    )
                )
            v_milli = k * (w_milli - we_milli)  # 6.4: V = K (W - We)
            if norm_winner.get(tid) == p.id and v_milli < 0:
                notes.append(
                    Decision(
                        "norm_winner_keeps_rating",
                        self.article("7.1"),
                        _(
                            "winner of %(tournament)s (valid for national master norms): "
                            "V %(v)s not applied"
                        ),
                        {"tournament": tid, "v": v_milli / 1000},
                    )
                )
                v_milli = 0
            total_milli += v_milli
            score += w_milli / 1000
            expected_total += we_milli
        change = round_half_up_milli(total_milli)  # 6.5 Rn = Ro + sum V, 6.6 half up
        notes.append(Decision("k", self.article("6.4"), _("K = %(k)s"), {"k": k}))
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=p.rating + change,
            change=change,
            k=k,
            k_article=self.article("6.4"),
            games=counted,
            score=score,
            expected=expected_total / 1000,
            status="passive" if p.status == "passive" else "rated",
            notes=tuple(notes),
        )

    def _provisional(
        self,
        p: PlayerInput,
        comp_map: Mapping[str, _Competition],
        notes: list[Decision],
        lines: list[GameLine],
        counted: int,
    ) -> PlayerResult:
        """6.2, 6.3: provisional rating = overall performance of all games so far."""
        pool: list[tuple[int, float]] = [(r.opponent_rating, r.score) for r in p.prior_results]
        score_now = 0.0
        for tid, comp in comp_map.items():
            for entry in comp.entries:
                pool.append((entry.opponent_rating, entry.score))
                score_now += entry.score
                lines.append(
                    GameLine(
                        tid, p.id, entry.opponent, entry.opponent_rating, entry.score, 0.0, 0.0, 0
                    )
                )
        if counted == 0 or not pool:
            status = "provisional" if p.rating is not None else "unrated"
            return PlayerResult(
                p.id, p.rating, p.rating, 0, None, "", 0, 0.0, 0.0, status, tuple(notes)
            )
        n = len(pool)
        total_score = sum(s for _r, s in pool)
        rc = Fraction(sum(r for r, _s in pool), n)  # 6.2: average of the opponents
        d = dp_for_hundredths(p_hundredths(total_score, n), _TABLE)  # Tabela I
        assert d is not None  # Tabela I covers 0 and 1
        performance = rc + d
        rating = round_half_up(performance)  # 6.6
        total_games = p.games + counted
        if total_games >= 12:
            status = "rated"
            notes.append(
                Decision(
                    "effective",
                    self.article("5.1"),
                    _("%(games)s games: the rating becomes effective"),
                    {"games": total_games},
                )
            )
        else:
            status = "provisional"
        notes.append(
            Decision(
                "provisional_rating",
                self.article("6.3"),
                _("overall performance: Rc %(rc)s, %(score)s/%(games)s, D %(d)s -> %(rating)s"),
                {
                    "rc": round(float(rc), 2),
                    "score": total_score,
                    "games": n,
                    "d": d,
                    "rating": rating,
                },
            )
        )
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=rating,
            change=rating - p.rating if p.rating is not None else 0,
            k=None,
            k_article="",
            games=counted,
            score=score_now,
            expected=0.0,
            status=status,
            notes=tuple(notes),
            performance=float(performance),
        )

    def _passive(
        self,
        period: types.PeriodInput,
        results: Sequence[PlayerResult],
        players: Mapping[str, PlayerInput],
    ) -> list[PlayerResult]:
        """5.2: passive after five years without a counted game; active after one game."""
        limit = add_months(period.end, -60)
        out: list[PlayerResult] = []
        for result in results:
            p = players[result.id]
            if p.rating is None or p.status == "provisional":  # DECISION: effective only
                out.append(result)
                continue
            if result.games > 0:
                if p.status == "passive":
                    result = replace(
                        result,
                        status="rated",
                        notes=result.notes
                        + (
                            Decision(
                                "active_again",
                                self.article("5.2"),
                                _("a counted game: the rating is active again"),
                            ),
                        ),
                    )
            elif (
                p.last_game_date is not None and p.last_game_date <= limit and p.status != "passive"
            ):
                result = replace(
                    result,
                    status="passive",
                    notes=result.notes
                    + (
                        Decision(
                            "passive",
                            self.article("5.2"),
                            _("no counted game since %(date)s (five years): passive"),
                            {"date": p.last_game_date.isoformat()},
                        ),
                    ),
                )
            out.append(result)
        return out

    def _calibrate(self, results: Sequence[PlayerResult], raw: object) -> list[PlayerResult]:
        """7.3: calibration against the ICCF list in force the day after the period."""
        if not isinstance(raw, Mapping):
            return list(results)
        common = [
            r for r in results if r.status == "rated" and r.rating_after is not None and r.id in raw
        ]
        if len(common) < 8:
            return [
                replace(
                    r,
                    notes=r.notes
                    + (
                        Decision(
                            "calibration_skipped",
                            self.article("7.3 b"),
                            _("only %(count)s players in both lists (8 needed): no calibration"),
                            {"count": len(common)},
                        ),
                    ),
                )
                if r in common
                else r
                for r in results
            ]
        iccf_total = 0
        for r in common:
            value = raw[r.id]
            assert isinstance(value, int)
            iccf_total += value
        cnxc_total = sum(r.rating_after or 0 for r in common)
        mean_difference = Fraction(iccf_total - cnxc_total, len(common))
        shift = round_half_up(mean_difference)  # 6.6 (R + d rounds as R + round(d))
        out: list[PlayerResult] = []
        for r in results:
            if r.status in ("rated", "passive") and r.rating_after is not None:
                after = r.rating_after + shift
                r = replace(
                    r,
                    rating_after=after,
                    change=r.change + shift,
                    notes=r.notes
                    + (
                        Decision(
                            "calibration",
                            self.article("7.3 b"),
                            _(
                                "calibration on %(count)s players in both lists: mean "
                                "difference %(difference)s, %(shift)+d"
                            ),
                            {
                                "count": len(common),
                                "difference": round(float(mean_difference), 3),
                                "shift": shift,
                            },
                        ),
                    ),
                )
            out.append(r)
        return out


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "cnxc-2000/2"
REGULATION = CNXC2000(version=VERSION)
