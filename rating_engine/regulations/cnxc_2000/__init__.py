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
- Virtual rating (5.3): ``iccf_rating``, else ``fpx_rating`` (the caller reads each from the
  list in force on the period's list date, ``inputs.virtual_ratings``), else ``fide_rating``,
  else by ``TournamentInput.kind``: ``"championship_final"`` 2200;
  ``"team_championship_final_board_1"`` or ``"permanent_honour"`` 2000; anything else 1750.
- A forfeit or unplayed game is a game in which a player withdrew before moving (3.2).
- K (6.4): a player who became effective with exactly 12 games uses the 13-24 column.
- 6.3: the provisional rating is computed as ONE competition over all games so far (the
  text's "i.e."), Rc the average of all opponents' ratings, p rounded to hundredths.
- 7.1: the competition's ``winner`` names the winner after tie-breaks; without it the sole
  top scorer wins; a tie for first with no winner given is an input error.
- 7.2 (team substitutions): the competition's ``substitutions``, each
  ``{"white", "black", ["round"], "side": "white"|"black", "players": [{"id", "moved"}, ...]}``
  - the players who held that side in order, the first being the game's player. (a) leading
  players who made no move drop out; (b) substitutes who made no move drop out; (c) every
  remaining player but the last is an "original", the last is the "substitute". (d) an
  effective original is charged the game only if W - We < 0 for him, (e) a non-effective
  original is charged a loss; (f) an effective substitute is charged only if W - We > 0,
  (g) a non-effective substitute is not charged; (h) every player of the other side counts
  the game against the highest rated (effective, provisional or virtual) player of this side.
  Each player of a substituted game is told the rule applied to him, with its letter.
- 7.3: ``PlayerInput.calibration_rating`` is the player's rating in the ICCF list in force
  the day after the period (not ``iccf_rating``, which is the list in force when calculating,
  5.3); the caller reads it from the imported lists (``inputs.calibration``), never from the
  parameters. Players in both lists: effective in the new list and not passive (passive
  players are not in the lists, 5.2), each noted ``calibration_reference`` with his two
  ratings. With at least 8, the mean difference, rounded half up (6.6), is added to every
  effective rating, active or passive.
- 5.2: passive when the last counted game is five years or more before the period's end.
"""

from __future__ import annotations

from typing import ClassVar

from ... import types
from ...common import _, excluded, excluded_all, scores, sorted_tournaments, validate_period
from ...errors import EngineInputError
from ...types import Decision, GameLine, PlayerInput, PlayerResult, TournamentInput
from .. import base
from ..base import NO_REPORTING_RULES, Rule, Semesters
from .parameters import CNXC2000Parameters
from .results import CNXCResults
from .state import _Competition, _Entry, _Side
from .tables import (
    _VIRTUAL_OTHER,
    APPEAL_DAYS,
    PROTEST_DAYS,
    VIRTUAL_BY_KIND,
    appeal_deadline,
    k_factor,
    protest_deadline,
)

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


class CNXC2000(CNXCResults):
    id: ClassVar[str] = "cnxc-2000"
    title: ClassVar[str] = "CNXC correspondence chess Elo regulations (from 1 July 2000)"
    label: ClassVar[str] = _("Portuguese correspondence chess (CNXC 2000)")
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
            # Not in parts: 4.1 counts "os resultados das competições terminadas" in each half
            # year, so a correspondence event, however long, is rated once it has ended.
            rated_in_parts=None,
        ),
        composition=None,  # 3.x (scope) applies when rating
        competition=base.CompetitionFacts(
            # 5.3: an unrated player's virtual rating, without ICCF, FPX or FIDE rating, by the
            # competition: 2200 in the Portuguese Championship final, 2000 on board 1 of the
            # Team Championship final or in a Permanent of the Honour Category, else 1750.
            kinds=Rule(
                tuple(
                    base.CompetitionKind(kind, label, virtual_rating=VIRTUAL_BY_KIND[kind])
                    for kind, label in (
                        ("championship_final", _("Portuguese Championship, final")),
                        (
                            "team_championship_final_board_1",
                            _("Portuguese Team Championship, final, board 1"),
                        ),
                        ("permanent_honour", _("Permanent tournament, Honour Category")),
                    )
                ),
                "cnxc-2000 5.3",
            ),
            other_virtual_rating=Rule(_VIRTUAL_OTHER, "cnxc-2000 5.3"),
            # 3.1: "com exceção dos torneios temáticos"; a competition organised by another
            # body only if "conste do respectivo regulamento a menção de que os resultados
            # serão considerados para efeitos da pontuação Elo da CNXC".
            thematic_not_rated=Rule(True, "cnxc-2000 3.1"),
            others_rated_by_their_rules=Rule(True, "cnxc-2000 3.1"),
        ),
        # 4.2: "Nome, Número de filiação na CNXC, Número total de partidas contabilizadas,
        # Número de partidas contabilizadas no período em questão, Pontuação Elo, com uma
        # marca distintiva, no caso de ser provisória, Variação da pontuação Elo". 5.2: a
        # passive player "deixará de constar das listas", his data kept.
        list_layout=base.ListLayout(
            columns=Rule(
                ("name", "fed_id", "total_games", "games", "rating", "provisional", "change"),
                "cnxc-2000 4.2",
            ),
            passive_left_out=Rule(True, "cnxc-2000 5.2"),
        ),
        # 3.2: "As desistências justificadas por motivos excepcionalmente graves poderão ser
        # analisadas pelo CD da CNXC, caso a caso, de modo a ... não terem efeitos".
        decisions=base.DecisionFacts(exempt_withdrawal=Rule(True, "cnxc-2000 3.2")),
    )
    parameters_type = CNXC2000Parameters
    # 7.3: "a lista da ICCF em vigor no dia imediato ao último a que correspondem os cálculos";
    # "Se esse conjunto for inferior a oito, não se procederá a qualquer aferição".
    # 7.2 and 7.1 read each competition's substitutions and winner (TournamentInput).
    inputs: ClassVar[base.InputFacts] = base.InputFacts(
        substitutions="cnxc-2000 7.2",
        norm_winner="cnxc-2000 7.1",
        calibration=Rule(
            base.CalibrationList(source="iccf", days_after_end=1, minimum_players=8),
            "cnxc-2000 7.3",
        ),
        # 5.3: "lista Elo da (ICCF) em vigor (na altura de efetuar os cálculos) (…) Caso
        # contrário, (…) lista Elo da (FPX) em vigor": each read from the imports, in force on
        # the period's list date (the day the list is calculated for; a re-run reads the same).
        virtual_ratings=Rule(("iccf", "fpx"), "cnxc-2000 5.3"),
    )

    # ------------------------------------------------------------------ rating

    def rate(self, period: types.PeriodInput) -> types.PeriodResult:
        self.parameters_from(period.parameters)  # refuses unknown parameters (the old JSON keys)
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
                winner = self._winner(_index, tournament)
                if winner is not None:
                    norm_winner[tournament.id] = winner
            substitutions = self._substitutions(_index, tournament, set(players), notes)
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
                    "white": substitutions.get((g, "white")) or _Side(((game.white, "player"),)),
                    "black": substitutions.get((g, "black")) or _Side(((game.black, "player"),)),
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
                        if len(sides[other].players) > 1:
                            # 7.2 h: told to every player facing a substituted side.
                            notes[pid].append(
                                Decision(
                                    "substitution_opponent",
                                    art("7.2 h"),
                                    _(
                                        "substitution in %(tournament)s, round %(round)s: the "
                                        "game counts against %(opponent)s (%(rating)s), the "
                                        "highest rated player of the other side"
                                    ),
                                    {
                                        "tournament": tournament.id,
                                        "round": game.round,
                                        "opponent": best_id,
                                        "rating": best_rating,
                                    },
                                )
                            )
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
                                not_charged = Decision(
                                    "substitution_not_charged",
                                    art(f"7.2 {rule}"),
                                    _("substitution: not charged to %(player)s"),
                                    {"player": pid},
                                )
                                excluded_games.append(excluded(tournament, game, not_charged))
                                notes[pid].append(
                                    Decision(
                                        "substitution_not_charged",
                                        art(f"7.2 {rule}"),
                                        _(
                                            "substitution in %(tournament)s, round %(round)s: "
                                            "the game is not charged to him"
                                        ),
                                        {
                                            "tournament": tournament.id,
                                            "round": game.round,
                                        },
                                    )
                                )
                                continue
                            charged = charged_or_none
                            notes[pid].append(
                                Decision(
                                    "substitution_charged",
                                    art(f"7.2 {rule}"),
                                    _(
                                        "substitution in %(tournament)s, round %(round)s: "
                                        "charged %(score)s"
                                    ),
                                    {
                                        "tournament": tournament.id,
                                        "round": game.round,
                                        "score": charged,
                                    },
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
        results = self._calibrate(results, players)
        return self.period_result(results, lines, excluded_games)


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "cnxc-2000/3"
REGULATION = CNXC2000(version=VERSION)
