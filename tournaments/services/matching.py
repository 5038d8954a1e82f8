"""Matching the report's lines to the player registry (the arbiter's review screen).

One form for every line: per line a pick (a candidate's id, "new", or nothing yet), or a
registry player found by the search (his federation ID). "Create all new" turns every line
still without a candidate or a choice into a new player. Every line is checked before anything
is written: the errors come back per line (``MatchingRefused.errors``: start rank → messages)
and nothing is saved, so the form is shown again with the arbiter's choices and the errors on
their rows.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from players.models import Player, Title
from players.names import full_name_key
from tournaments import selectors
from tournaments.models import Tournament, TournamentPlayer

from .access import report_change_authorize
from .validation import tournament_revalidate

NEW = "new"
#: A new player without the reported FIDE ID, which the registry gives to another record (the
#: officer's desk lists such lines: `tournaments.queues.fide_id_conflicts`), issue 23.
NEW_WITHOUT_FIDE = "new_without_fide"


class MatchingRefused(ValidationError):
    """Some lines cannot be confirmed as chosen: ``errors`` maps a start rank to its messages."""

    def __init__(self, errors: dict[int, list[str]]) -> None:
        self.errors = errors
        super().__init__([m for rank in sorted(errors) for m in errors[rank]])


def _split(name: str) -> tuple[str, str]:
    if "," in name:
        s, g = name.split(",", 1)
        return s.strip(), g.strip()
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name.strip(), "-")


def _new_player(
    *, tournament: Tournament, line: TournamentPlayer, fed_id: str, fide_id: bool = True
) -> Player:
    surname, given = _split(line.name)
    return Player(
        fed_id=(fed_id or line.fed_id or f"T{tournament.pk}-{line.start_rank}")[:16],
        surname=surname[:120],
        given_name=(given or "-")[:120],
        sex=line.sex or "M",
        birth_year=line.birth_year,
        federation=line.federation or "ESP",
        fide_id=selectors.fide_id_int(line.fide_id) if fide_id else None,
        title=line.title if line.title in dict(Title.choices) else "",
    )


def _line_label(line: TournamentPlayer) -> str:
    return _("Player %(rank)s, %(name)s") % {"rank": line.start_rank, "name": line.name}


def players_confirm(
    *,
    tournament: Tournament,
    user: Any,
    picks: dict[int, str],
    new_fed_ids: dict[int, str] | None = None,
    found_fed_ids: dict[int, str] | None = None,
    create_all_new: bool = False,
) -> dict[str, int]:
    """Apply the review form: rank → "<player id>" (pick) or "new" (create from the line);
    ``found_fed_ids``: rank → the federation ID of a registry player found by the search (it
    wins over the pick); ``create_all_new``: every line without a candidate and without a
    choice becomes a new player.

    New players are created here and only here; then the tournament is revalidated. Raises
    ``MatchingRefused`` (nothing written) when a line's choice cannot be applied.
    """
    report_change_authorize(tournament=tournament, user=user)
    new_fed_ids = new_fed_ids or {}
    found_fed_ids = {r: v.strip() for r, v in (found_fed_ids or {}).items() if v and v.strip()}
    errors: dict[int, list[str]] = {}
    with transaction.atomic():
        lines = {ln.start_rank: ln for ln in tournament.players.select_for_update()}
        choices = {rank: (value or "").strip() for rank, value in picks.items()}
        if create_all_new:
            unmatched = [ln for ln in lines.values() if ln.player_id is None]
            found = selectors.player_candidates(lines=unmatched) if unmatched else {}
            for ln in unmatched:
                if not choices.get(ln.start_rank) and not found.get(ln.start_rank, ("", []))[1]:
                    choices[ln.start_rank] = NEW
        by_fed = {
            p.fed_id: p.pk
            for p in Player.objects.filter(fed_id__in=set(found_fed_ids.values())).only("fed_id")
        }
        for rank, fed_id in found_fed_ids.items():
            if fed_id in by_fed:
                choices[rank] = str(by_fed[fed_id])
            elif rank in lines:
                errors.setdefault(rank, []).append(
                    _("%(line)s: no registry player has the federation ID %(fed_id)s.")
                    % {"line": _line_label(lines[rank]), "fed_id": fed_id}
                )
        wanted = {int(v) for v in choices.values() if v.isdigit()}
        valid = set(Player.objects.filter(pk__in=wanted).values_list("pk", flat=True))
        # A registry player already on another line of this tournament, or picked twice.
        taken = {ln.player_id: ln for ln in lines.values() if ln.player_id}
        to_pick: dict[int, int] = {}
        to_create: dict[int, Player] = {}
        new_ids: dict[str, int] = {}
        for rank in sorted(choices):
            choice, line = choices[rank], lines.get(rank)
            if line is None or not choice:
                continue
            if choice in (NEW, NEW_WITHOUT_FIDE):
                player = _new_player(
                    tournament=tournament,
                    line=line,
                    fed_id=new_fed_ids.get(rank, "").strip(),
                    fide_id=choice == NEW,
                )
                try:
                    player.full_clean(validate_unique=True)
                except ValidationError as exc:
                    if "fide_id" in exc.error_dict:
                        # The FIDE ID is another record's: say what can be done instead.
                        errors.setdefault(rank, []).append(
                            _(
                                "%(line)s: the FIDE ID %(fide_id)s belongs to another registry "
                                "player. Pick him, or create the new player without the FIDE "
                                "ID (the rating officer is told)."
                            )
                            % {"line": _line_label(line), "fide_id": line.fide_id}
                        )
                        continue
                    errors.setdefault(rank, []).extend(
                        f"{_line_label(line)}: {m}" for m in exc.messages
                    )
                    continue
                if player.fed_id in new_ids:
                    errors.setdefault(rank, []).append(
                        _(
                            "%(line)s: the federation ID %(fed_id)s is also given to player "
                            "%(other)s."
                        )
                        % {
                            "line": _line_label(line),
                            "fed_id": player.fed_id,
                            "other": new_ids[player.fed_id],
                        }
                    )
                    continue
                new_ids[player.fed_id] = rank
                to_create[rank] = player
            elif choice.isdigit() and int(choice) in valid:
                pk = int(choice)
                other = taken.get(pk)
                if other is not None and other.start_rank != rank:
                    errors.setdefault(rank, []).append(
                        _("%(line)s: this registry player is already player %(other)s.")
                        % {"line": _line_label(line), "other": other.start_rank}
                    )
                    continue
                taken[pk] = line
                to_pick[rank] = pk
            else:
                errors.setdefault(rank, []).append(
                    _("%(line)s: the chosen registry player does not exist.")
                    % {"line": _line_label(line)}
                )
        if errors:
            raise MatchingRefused(errors)
        # Set-based: one INSERT for the new players, one UPDATE for the lines.
        for player in to_create.values():
            player.name_key = full_name_key(player.surname, player.given_name)
        Player.objects.bulk_create(to_create.values())
        for rank, player in to_create.items():
            to_pick[rank] = player.pk
        changed = []
        for rank, pk in to_pick.items():
            lines[rank].player_id = pk
            changed.append(lines[rank])
        TournamentPlayer.objects.bulk_update(changed, ["player"])
        tournament_revalidate(tournament=tournament)
    return {"picked": len(to_pick) - len(to_create), "created": len(to_create)}
