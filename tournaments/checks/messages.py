"""The checks' messages: templates with named parameters, translated by the Django layer
(``tournaments.selectors.problems_display``). Pure: no Django import."""

from __future__ import annotations


def _(s: str) -> str:
    return s


TEMPLATES: dict[str, str] = {
    "registration_late": _(
        "Registered %(days)s days before the start; the regulation asks for %(required)s days. "
        "A rating officer must approve the late registration"
    ),
    "registration_after_start": _(
        "Registered %(days)s days after the start; the regulation asks for registration "
        "%(required)s days before it. A rating officer must approve the late registration"
    ),
    "registration_on_start": _(
        "Registered on the day the tournament starts; the regulation asks for %(required)s days "
        "before it. A rating officer must approve the late registration"
    ),
    "rate_of_play": _(
        "Rate of play: %(minutes)s minutes per player for 60 moves; at least %(required)s are "
        "needed because a player is rated %(rating)s"
    ),
    "rate_of_play_min": _(
        "Rate of play: %(minutes)s minutes per player for 60 moves; at least %(required)s are "
        "needed"
    ),
    "first_control_moves": _(
        "The first time control is %(moves)s moves; it must be at least %(required)s moves"
    ),
    "feda_moves_per_hour": _(
        "Rate of play: %(rate)s moves an hour; at most %(required)s moves an hour "
        "(or a guillotine of at least %(minutes)s minutes)"
    ),
    "rounds_per_day": _("%(rounds)s rounds on %(day)s; at most %(limit)s rounds a day"),
    "rounds_per_day_average": _(
        "%(rounds)s rounds in %(days)s days: some day has more than %(limit)s rounds"
    ),
    "hours_per_day": _(
        "%(rounds)s rounds a day at %(minutes)s minutes per player can take %(hours)s hours; "
        "at most %(limit)s hours of play a day"
    ),
    "duration": _("The tournament lasts %(days)s days; at most %(limit)s days"),
    "duration_authorised": _(
        "The tournament lasts %(days)s days; over %(limit)s days needs the federation's "
        "authorisation"
    ),
    "rated_in_parts": _(
        "The tournament lasts %(days)s days, over %(limit)s: it is rated in parts. Upload the "
        "report as it stands at each period's closing date; the games played up to it are "
        "rated in that period, with its list"
    ),
    "part_player_changed": _(
        "Player %(rank)s was %(before)s in part %(part)s (period %(period)s, published); the "
        "report now names %(now)s. The players of a published part cannot change: ask the "
        "rating officer for a correction"
    ),
    "part_game_changed": _(
        "Round %(round)s, %(white)s – %(black)s: %(before)s in part %(part)s (period "
        "%(period)s, published), %(now)s in this report. The games of a published part cannot "
        "change: ask the rating officer for a correction"
    ),
    "part_game_missing": _(
        "Round %(round)s, %(white)s – %(black)s (%(before)s) of part %(part)s (period "
        "%(period)s, published) is missing from this report. The games of a published part "
        "cannot change: ask the rating officer for a correction"
    ),
    "part_no_open_period": _(
        "The part up to %(end)s is published and no later period is open to take this report's "
        "new games: upload it again once the rating officer has opened the next period"
    ),
    "part_corrected": _(
        "This report changes %(changes)s of the games or players of part %(part)s (period "
        "%(period)s, published): a correction by the rating officer; that period is marked "
        "for recalculation"
    ),
    "duration_monthly": _(
        "The tournament lasts %(days)s days: intermediate results must be reported monthly"
    ),
    "rr_rated_share": _(
        "Round robin with %(players)s players and %(rated)s rated: at least %(required)s must be "
        "rated"
    ),
    "drr_unrated": _(
        "Double round robin with unrated players: at least 6 players and 4 rated "
        "(%(players)s players, %(rated)s rated)"
    ),
    "unrated_low_score": _(
        "Player %(rank)s (unrated) scored %(points)s: their games are not rated"
    ),
    "unrated_few_opponents": _(
        "Player %(rank)s (unrated) met %(opponents)s rated opponents; at least %(required)s are "
        "needed"
    ),
    "report_late_feda": _(
        "Report received %(days)s days after the last round; it is due within 14 days"
    ),
    "report_too_late": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the third list "
        "after the tournament: it is not rated"
    ),
    "report_too_late_month_end": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the third list "
        "after the tournament, counted from the list of %(first_list)s because it ended "
        "%(days)s days or less before the end of the month: it is not rated"
    ),
    "report_too_late_next_list": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the list after "
        "the tournament's own: it is not rated"
    ),
    "feda_ascii_missing": _(
        "%(players)s players: a tournament of over 40 players must also send the FEDA ASCII file"
    ),
    "feda_ascii_count": _(
        "The FEDA ASCII file lists %(ascii)s players but the report has %(players)s"
    ),
    "dates_differ": _(
        "The report's dates (%(report_start)s to %(report_end)s) differ from the registered "
        "dates (%(start)s to %(end)s): correct the report or ask a rating officer to correct "
        "the registration"
    ),
    "dates_other_event": _(
        "The report's dates (%(report_start)s to %(report_end)s) have no day in common with the "
        "registered dates (%(start)s to %(end)s): it is the report of another event or edition"
    ),
    "round_date_outside": _(
        "Round %(round)s is dated %(date)s, outside the registered dates (%(start)s to %(end)s)"
    ),
    "report_before_end": _(
        "Report received on %(received)s, before the tournament's last day (%(end)s): a "
        "tournament is rated once it is over"
    ),
    "rounds_differ": _(
        "The report announces %(rounds)s rounds; the tournament was registered with "
        "%(registered)s rounds"
    ),
    "unfinished": _(
        "Only %(played)s of %(rounds)s rounds have been played: the tournament is not finished, "
        "and a report of an unfinished tournament is not rated"
    ),
    "unfinished_intermediate": _(
        "%(played)s of %(rounds)s rounds played: an intermediate report of a tournament rated "
        "in parts; the games played so far are rated in this report's period"
    ),
    "team_report_individual": _(
        "The report is of a team competition (%(teams)s teams) but the tournament was registered "
        "as an individual one"
    ),
    "rate_of_play_games": _(
        "Rate of play: %(minutes)s minutes per player for 60 moves; at least %(required)s are "
        "needed in a game with a player rated %(rating)s or more. %(count)s such games (round: "
        "white–black %(games)s) are left out of the calculation; the other games are rated"
    ),
    "increment_too_short": _(
        "The time control adds %(seconds)s seconds a move; a time control with an increment "
        "must add at least %(required)s seconds a move"
    ),
    "rr_championship_rated": _(
        "Championship played as a round robin with %(players)s players and %(rated)s rated: "
        "at least %(required)s must be rated"
    ),
    "thematic_not_rated": _("A thematic tournament is not rated"),
    "organised_by_others_not_rated": _(
        "A competition organised by another body is rated only if its rules say that its "
        "results count for this rating"
    ),
    "kind_unknown": _(
        "The kind of competition %(kind)s is not one the regulation names: correct the registration"
    ),
    "chief_arbiter_not_in_registry": _(
        "The chief arbiter is not a record of the arbiters' registry: the regulation rates only "
        "tournaments directed by a titled arbiter of matching category"
    ),
    "chief_arbiter_pending": _(
        "The chief arbiter %(name)s waits for a rating officer's approval in the arbiters' registry"
    ),
    "chief_arbiter_refused": _(
        "The chief arbiter %(name)s was refused in the arbiters' registry: the tournament must be "
        "directed by a titled arbiter"
    ),
    "chief_arbiter_untitled": _(
        "The chief arbiter %(name)s has no arbiter's title or category: the regulation rates only "
        "tournaments directed by a titled arbiter"
    ),
    "chief_arbiter_category": _(
        "The chief arbiter %(name)s holds %(held)s, which does not match an event of level "
        "%(level)s"
    ),
    "event_level_missing": _(
        "The level of the event (national, regional or provincial) is not given: the chief "
        "arbiter's category could not be compared with it"
    ),
}
