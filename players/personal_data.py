"""A player's own data, assembled for his download (docs/privacy.md): his record and account,
the history events about his record, and what the apps above keep about him (ratings, list
entries, games, protests), each under a section name.

The apps above the registry cannot be imported from here (the layers, docs/CONTRIBUTING.md):
each registers the provider of its sections in its ``AppConfig.ready()``
(``personal_data_provider_register``), as receivers connect to a lower app's signals."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from core import history as record_history
from players.models import Player

Row = dict[str, Any]
Provider = Callable[[Player], list[Row]]

#: Section name → provider, in registration order (players' own first).
_PROVIDERS: dict[str, Provider] = {}

#: The record's fields a download carries: every field of the registry, the birth date whole.
RECORD_FIELDS = (
    "fed_id",
    "surname",
    "given_name",
    "sex",
    "birth_date",
    "birth_year",
    "birth_year_public",
    "club",
    "region",
    "federation",
    "title",
    "fide_id",
    "fide_standard",
    "fide_rapid",
    "fide_blitz",
    "iccf_id",
    "iccf_rating",
    "fpx_rating",
    "affiliated",
    "created_at",
    "updated_at",
)


def personal_data_provider_register(*, section: str, provider: Provider) -> None:
    """Add (or replace, on a second ready()) the provider of a section of the download."""
    _PROVIDERS[section] = provider


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


def _record(player: Player) -> list[Row]:
    row = {f: _plain(getattr(player, f)) for f in RECORD_FIELDS}
    user = player.user
    if user is not None:
        row.update(
            account_username=user.get_username(),
            account_email=getattr(user, "email", ""),
            account_joined=_plain(getattr(user, "date_joined", None)),
        )
    return [row]


def _history(player: Player) -> list[Row]:
    """The history events about his record: when, what, each change (who made them is the
    office's internal record and is left out)."""
    return [
        {
            "at": _plain(event.at),
            "action": event.action,
            "changes": "; ".join(f"{c.field}: {c.old} → {c.new}" for c in event.changes),
        }
        for event in record_history.object_history(obj=player, limit=1000)
    ]


def _erasure_requests(player: Player) -> list[Row]:
    return [
        {
            "asked_at": _plain(r.created_at),
            "note": r.note,
            "status": r.status,
            "decided_at": _plain(r.decided_at),
            "outcome": r.outcome,
        }
        for r in player.erasure_requests.order_by("created_at")
    ]


personal_data_provider_register(section="record", provider=_record)
personal_data_provider_register(section="history", provider=_history)
personal_data_provider_register(section="erasure_requests", provider=_erasure_requests)


def personal_data_collect(*, player: Player) -> dict[str, list[Row]]:
    """Every section of his data: ``{section: [row, ...]}``, values JSON-ready."""
    return {
        section: [{k: _plain(v) for k, v in row.items()} for row in provider(player)]
        for section, provider in _PROVIDERS.items()
    }


def personal_data_zip(*, data: dict[str, list[Row]]) -> bytes:
    """The download as CSV: a zip of one CSV per section (``<section>.csv``, UTF-8 with a
    header of the section's fields), so each opens as a table in a spreadsheet."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for section, rows in data.items():
            fields: dict[str, None] = {}
            for row in rows:
                fields.update(dict.fromkeys(row))
            text = io.StringIO()
            writer = csv.DictWriter(text, fieldnames=list(fields), lineterminator="\r\n")
            writer.writeheader()
            writer.writerows(rows)
            archive.writestr(f"{section}.csv", text.getvalue())
    return buffer.getvalue()
