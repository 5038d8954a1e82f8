"""FIDE's XML list as the tests know it (shared/FORMATS.md), written here once and not taken
from the code under test: the children of each <player>, in their order."""

COMBINED_CHILDREN = (
    "fideid",
    "name",
    "country",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    # rating, games and K of each rate of play: standard (no prefix), rapid, blitz.
    *(f"{rate}{field}" for rate in ("", "rapid_", "blitz_") for field in ("rating", "games", "k")),
    "birthday",
    "flag",
)
#: A list of one rate of play (the standard list, say) has no rapid_* nor blitz_* children.
SINGLE_CHILDREN = tuple(c for c in COMBINED_CHILDREN if not c.startswith(("rapid_", "blitz_")))
