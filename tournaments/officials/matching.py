"""A report's chief arbiter (TRF line 102) matched to the registry at upload: by the FIDE ID
the line carries, else by name. Called by tournaments.services.uploads (so it imports no
service of its own)."""

from __future__ import annotations

from tournaments.models import Tournament
from tournaments.officials import selectors
from tournaments.officials.models import Arbiter


def chief_arbiter_link(*, tournament: Tournament, header: str) -> Arbiter | None:
    """Match a report's chief arbiter (TRF line 102) to the registry: by the FIDE ID it carries,
    else by name; link it when the tournament names none yet. Returns the record linked."""
    if tournament.chief_arbiter_record_id is not None or not header.strip():
        return None
    name, fide_id = selectors.chief_arbiter_parts(header)
    record = selectors.arbiter_find(name=name, fide_id=fide_id)
    if record is None:
        return None
    Tournament.objects.filter(pk=tournament.pk).update(chief_arbiter_record=record)
    tournament.chief_arbiter_record = record
    return record
