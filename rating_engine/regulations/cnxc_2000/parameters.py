"""The parameters of a cnxc-2000 rating system (7.1, 7.2) and their checks.

7.3's ICCF list is not a parameter: it is the list in force the day after each period, which
the caller reads from the imported lists and gives per player
(``PlayerInput.calibration_rating``), so no period's list is ever applied to another."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...common import _
from ...errors import EngineInputError
from .. import base


@dataclass(frozen=True, slots=True)
class CNXC2000Parameters:
    """A cnxc-2000 rating system's parameters (``RatingSystem.parameters``)."""

    #: 7.2: team substitutions, each ``{"tournament", "white", "black", "round"?, "side",
    #: "players": [{"id", "moved"}, ...]}``.
    substitutions: Sequence[Mapping[str, object]] | None = None
    #: 7.1: ``{tournament id: player id}``, the winner of each tournament that has one.
    winners: Mapping[str, str] | None = None


class ParameterChecks(base.Regulation[CNXC2000Parameters]):
    """The checks of the parameters beyond their types (7.2 substitutions, 7.1)."""

    # ------------------------------------------------------------------ parameters

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = dict(super().validate_parameters(parameters))
        for key in ("winners",):
            value = out[key]
            if value is None:
                continue
            ok = isinstance(value, Mapping) and all(isinstance(k, str) for k in value)
            if ok:
                assert isinstance(value, Mapping)
                ok = all(isinstance(v, str) for v in value.values())
            if not ok:
                what = "{tournament id: player id}"
                raise EngineInputError(
                    "parameters", key, _("must be an object %(what)s"), {"what": what}
                )
        subs = out["substitutions"]
        if subs is not None:
            if not isinstance(subs, list):
                raise EngineInputError("parameters", "substitutions", _("must be an array"))
            for i, sub in enumerate(subs):
                self._check_substitution(i, sub)
        return out

    @staticmethod
    def _check_substitution(i: int, sub: object) -> None:
        item = f"parameters.substitutions[{i}]"
        if not isinstance(sub, Mapping):
            raise EngineInputError(item, "", _("must be an object"))
        for key in ("tournament", "white", "black", "side", "players"):
            if key not in sub:
                raise EngineInputError(item, key, _("is required"))
        for key in sub:
            if key not in ("tournament", "white", "black", "round", "side", "players"):
                raise EngineInputError(item, str(key), _("unknown field"))
        for key in ("tournament", "white", "black"):
            if not isinstance(sub[key], str):
                raise EngineInputError(item, key, _("must be a string"))
        if sub["side"] not in ("white", "black"):
            raise EngineInputError(item, "side", _('must be "white" or "black"'))
        if "round" in sub and not (isinstance(sub["round"], int) and sub["round"] >= 0):
            raise EngineInputError(item, "round", _("must be a non-negative integer"))
        chain = sub["players"]
        if not isinstance(chain, list) or len(chain) < 2:
            raise EngineInputError(item, "players", _("must list at least two players"))
        for j, link in enumerate(chain):
            ok = (
                isinstance(link, Mapping)
                and set(link) == {"id", "moved"}
                and isinstance(link["id"], str)
                and isinstance(link["moved"], bool)
            )
            if not ok:
                raise EngineInputError(
                    item, f"players[{j}]", _('must be {"id": player, "moved": true/false}')
                )
        first = chain[0]
        assert isinstance(first, Mapping)
        if first["id"] != sub[sub["side"]]:
            raise EngineInputError(
                item, "players[0]", _("must be the game's %(side)s player"), {"side": sub["side"]}
            )
