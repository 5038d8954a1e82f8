"""A rated player's result for the period (10.5x) and his activity (9.23)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ...common import _
from ...types import Decision, PlayerInput, PlayerResult
from ..base import ParamsT
from .state import _RatedTally
from .tournaments import TournamentRules


class RatedResults(TournamentRules[ParamsT]):
    """The period's result of a rated player and his inactivity (9.23)."""

    # ------------------------------------------------------------------ results

    def _rated_result(
        self, p: PlayerInput, tally: _RatedTally, k: tuple[int, str], notes: list[Decision]
    ) -> PlayerResult:
        own = self.own_rating(p)
        assert own is not None
        k_value, k_template = k
        k_note = Decision(
            "k",
            self.art("k"),
            k_template,
            {"k": k_value, "games": p.games, "threshold": self.K_THRESHOLD},
        )
        # 10.55: Rn = Ro + sum of the tournament changes; 10.56: rounded.
        exact = own + Fraction(tally.milli, 1000)
        after = self.round_rating(exact)
        all_notes = [k_note, *notes]
        status = "rated"
        rating_after: int | None = after
        if after < self.FLOOR:
            # 9.21: below the floor -> "out of list", unrated from then on.
            all_notes.append(
                Decision(
                    "out_of_list",
                    self.art("out_of_list"),
                    _("%(rating)s is below %(floor)s: out of list, unrated from now on"),
                    {"rating": after, "floor": self.FLOOR},
                )
            )
            status = "out_of_list"
            rating_after = None
        else:
            inactive = self._inactivity(p, tally.games, all_notes)
            if inactive:
                status = "inactive"
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=rating_after,
            change=after - own,
            k=k_value,
            k_article=self.art("k"),
            games=tally.games,
            score=tally.score,
            expected=tally.expected_milli / 1000,
            status=status,
            notes=tuple(all_notes),
        )

    def _inactivity(self, p: PlayerInput, games: int, notes: list[Decision]) -> bool:
        was = p.status == "inactive"
        before = p.games_last_12_months
        if before is None and games < 4:
            # 9.23a: unknown is not zero (decided reading): without the rated games of the
            # months before the period the year cannot be counted; no judgement, he keeps his
            # previous activity.
            notes.append(
                Decision(
                    "inactivity_unknown",
                    self.art("inactive"),
                    _(
                        "rated games of the 12 months before the period unknown "
                        "(%(games)s in this period): inactivity not judged"
                    ),
                    {"games": games},
                )
            )
            return was
        # With 4 or more rated games in the period the year has at least 4 whatever before is.
        year = (before or 0) + games
        if year >= 4:
            if was:
                # 9.23c: active again after 4 games in a year.
                notes.append(
                    Decision(
                        "active_again",
                        self.art("active_again"),
                        _("%(games)s rated games in a year: active again"),
                        {"games": year},
                    )
                )
            return False
        number = p.inactive_lists + 1 if was else 1
        params = {"games": year, "list": number, "lists": self.INACTIVE_LISTS}
        # 9.23a: fewer than 4 rated games in a year.
        notes.append(
            Decision(
                "inactive",
                self.art("inactive"),
                _("%(games)s rated games in a year (fewer than 4): inactive"),
                params,
            )
        )
        if number <= self.INACTIVE_LISTS:
            notes.append(self._inactive_shown(params))
        else:
            notes.append(self._inactive_after(params))
        return True

    def _inactive_shown(self, params: Mapping[str, object]) -> Decision:
        return Decision(
            "inactive_flagged",
            self.art("inactive_flag"),
            _("shown flagged as inactive (list %(list)s of %(lists)s)"),
            params,
        )

    def _inactive_after(self, params: Mapping[str, object]) -> Decision:
        return Decision(
            "inactive_not_listed",
            self.art("inactive_gone"),
            _(
                "inactive for more than %(lists)s lists: not in the list, rated with "
                "his last rating"
            ),
            params,
        )
