"""What the running code is, as a short digest: part of every cache key, so that a deploy
never serves a page or an API answer rendered by the previous code (a card is kept for a week;
its key changes only with the player's state, not with a template or a translation)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings

#: The folders whose files make what a page or an answer looks like.
_SOURCES = (
    "config",
    "core",
    "players",
    "periods",
    "ratings",
    "protests",
    "lists",
    "desk",
    "tournaments",
    "templates",
    "locale",
)
_SUFFIXES = {".py", ".html", ".txt", ".mo"}


@cache
def release() -> str:
    """A digest of the project's code, templates and compiled translations (about 5 ms, once
    per process). The same tree gives the same digest on every machine and process."""
    digest = hashlib.blake2b(digest_size=6)
    base = Path(settings.BASE_DIR)
    for folder in _SOURCES:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in _SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()
