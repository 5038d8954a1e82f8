"""The parameters of an fce rating system, each citing its article, and the differential's
bands (9.5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from ...common import _
from ...errors import EngineInputError
from .. import base


@dataclass(frozen=True, slots=True)
class _Band:
    start: int
    value: int


def _read_differential(raw: object) -> dict[int, tuple[_Band, ...]]:
    """``parameters.differential`` -> {year: bands ascending}; EngineInputError if malformed."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise EngineInputError(
            "parameters", "differential", _('must be an object {"YYYY": value or bands}')
        )
    out: dict[int, tuple[_Band, ...]] = {}
    for key, value in raw.items():
        if not (isinstance(key, str) and key.isdigit() and len(key) == 4):
            raise EngineInputError(
                "parameters", "differential", _('bad year %(year)r (use "YYYY")'), {"year": key}
            )
        if isinstance(value, int) and not isinstance(value, bool):
            out[int(key)] = (_Band(0, value),)
            continue
        if not isinstance(value, list) or not value:
            raise EngineInputError(
                "parameters",
                "differential",
                _("%(year)s: must be an integer or a non-empty list of bands"),
                {"year": key},
            )
        bands: list[_Band] = []
        for band in value:
            ok = (
                isinstance(band, Mapping)
                and set(band) == {"from", "value"}
                and all(
                    isinstance(band[k], int) and not isinstance(band[k], bool)
                    for k in ("from", "value")
                )
            )
            if not ok:
                raise EngineInputError(
                    "parameters",
                    "differential",
                    _('%(year)s: each band is {"from": rating, "value": points}'),
                    {"year": key},
                )
            assert isinstance(band, Mapping)
            bands.append(_Band(int(band["from"]), int(band["value"])))
        starts = [b.start for b in bands]
        if starts[0] != 0 or any(b <= a for a, b in pairwise(starts)):
            raise EngineInputError(
                "parameters",
                "differential",
                _("%(year)s: bands must start at 0 and ascend strictly"),
                {"year": key},
            )
        out[int(key)] = tuple(bands)
    return out


@dataclass(frozen=True, slots=True)
class FCEParameters:
    """An fce rating system's parameters (``RatingSystem.parameters``)."""

    #: 9.1: the list a period rates, ``"standard"`` or ``"rapid"`` (twelve of each a year).
    list: str = "standard"
    #: 9.5: the FIDE -> FCE differential published yearly, ``{"YYYY": value}`` or
    #: ``{"YYYY": [{"from": rating, "value": v}, ...]}`` by bands of the FIDE rating.
    differential: Mapping[str, object] | None = None
    #: 16.2.1: the youth K applies under this rating (2200 in article 16; the summary 2300).
    youth_k_max_rating: int = base.parameter(2200, non_negative=True)
    #: 11.1: the players' standard FCE ratings, for first rapid ratings
    #: (``{player id: rating}``).
    standard_ratings: Mapping[str, int] | None = None
    #: Not an article: replaces K for studies such as the proposal's annex B (0: off).
    k_override: int = base.parameter(0, non_negative=True)
