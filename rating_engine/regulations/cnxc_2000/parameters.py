"""The parameters of a cnxc-2000 rating system (7.3) and their checks. Substitutions (7.2) and
the norm winner (7.1) belong to each competition: ``TournamentInput.substitutions`` and
``TournamentInput.winner``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...common import _
from ...errors import EngineInputError
from .. import base


@dataclass(frozen=True, slots=True)
class CNXC2000Parameters:
    """A cnxc-2000 rating system's parameters (``RatingSystem.parameters``)."""

    #: 7.3: the ICCF list in force the day after the period, ``{player id: rating}``.
    iccf_list: Mapping[str, int] | None = None


class ParameterChecks(base.Regulation[CNXC2000Parameters]):
    """The checks of the parameters beyond their types (7.3)."""

    # ------------------------------------------------------------------ parameters

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = dict(super().validate_parameters(parameters))
        for key in ("iccf_list",):
            value = out[key]
            if value is None:
                continue
            ok = isinstance(value, Mapping) and all(isinstance(k, str) for k in value)
            if ok and key == "iccf_list":
                assert isinstance(value, Mapping)
                ok = all(
                    isinstance(v, int) and not isinstance(v, bool) and v >= 0
                    for v in value.values()
                )
            if not ok:
                what = "{player id: ICCF rating}"
                raise EngineInputError(
                    "parameters", key, _("must be an object %(what)s"), {"what": what}
                )
        return out
