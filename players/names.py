"""Name normalisation for matching players across reports and the registry.

Matching must ignore accents and case ("Muñoz" = "MUNOZ", "Pérez" = "Perez", "Çağlar"…) and
the punctuation arbiters use between surname and given name, but keep letter order.
"""
from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"[\s,.;'’`´\-]+")


def fold(text: str) -> str:
    """Accent- and case-insensitive key: 'Núñez-García, José Mª' -> 'nunez garcia jose ma'."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    stripped = stripped.replace("ß", "ss").replace("ª", "a").replace("º", "o")
    return _SPACES.sub(" ", stripped.casefold()).strip()


def full_name_key(surname: str, given_name: str) -> str:
    return fold(f"{surname} {given_name}")
