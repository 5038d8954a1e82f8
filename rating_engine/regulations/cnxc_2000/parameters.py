"""The parameters of a cnxc-2000 rating system: none any more.

What the system's JSON once carried belongs elsewhere: 7.3's ICCF list is the list in force the
day after each period, which the caller reads from the imported lists and gives per player
(``PlayerInput.calibration_rating``), so no period's list is ever applied to another; the
substitutions (7.2) and the norm winner (7.1) belong to each competition
(``TournamentInput.substitutions`` and ``TournamentInput.winner``). A stored JSON that still
names any of them is refused as an unknown parameter."""

from __future__ import annotations

from dataclasses import dataclass

from .. import base


@dataclass(frozen=True, slots=True)
class CNXC2000Parameters:
    """A cnxc-2000 rating system's parameters (``RatingSystem.parameters``): none."""


class ParameterChecks(base.Regulation[CNXC2000Parameters]):
    """The checks of the parameters beyond their types: none (see the module's text)."""
