"""Compute and publish a system's FIDE -> system differential (fce 9.5, the proposal's point 8:
"anualmente la FCE publicará un diferencial entre rating FIDE y rating de la FCE. Dicho
diferencial se basará en la diferencia media entre ambos sistemas de rating con los datos de
que disponga la FCE, y podrá dividirse en tramos"). docs/periods.md, "The FCE differential"."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from rating_engine.registry import get_regulation
from rating_engine.rounding import round_half_up
from ratings.models import Differential, DifferentialStatus

#: DECISION (9.5 "podrá dividirse en tramos"; the text fixes none): bands of the FIDE rating
#: being converted (the engine keys them so, docs/engine.md "fce decisions" 2), 200 points
#: wide from 1600 to 2200 — under 1600, 1600-1799, 1800-1999, 2000-2199, 2200 and over.
BAND_STARTS = (0, 1600, 1800, 2000, 2200)
#: DECISION: a band with fewer players than this takes the overall value (a mean of a handful
#: of players is not "la diferencia media entre ambos sistemas").
MIN_BAND_PLAYERS = 10
#: The FIDE rating compared with a system's, by the system's rate of play (fce 7.3.2: the FIDE
#: rating of the same rate of play).
FIDE_COLUMN = {"standard": "fide_standard", "rapid": "fide_rapid", "blitz": "fide_blitz"}

# One statement over the list in force (the system's PlayerRating rows, advanced by each
# publication) and the players' FIDE ratings: per band, the players and the sum of the
# differences; width_bucket gives the band's index (0 under the first threshold).
_SQL = """
    SELECT width_bucket(p.{fide}, %(thresholds)s::int[]) AS band,
           count(*) AS players, sum(pr.rating - p.{fide}) AS total
    FROM ratings_playerrating pr
    JOIN players_player p ON p.id = pr.player_id
    WHERE pr.system_id = %(system)s AND pr.rating IS NOT NULL AND p.{fide} IS NOT NULL
    GROUP BY band ORDER BY band
"""


def differential_article(*, system: RatingSystem, day: dt.date | None = None) -> str:
    """The article of the system's differential under the regulation set in force on ``day``
    (today when None) in the system's timeline (periods.rulesets); Refused if that regulation
    reads none."""
    in_force = system_ruleset_on(system=system, day=day or timezone.localdate())
    rule = get_regulation(in_force.ruleset).inputs.differential
    if rule is None:
        raise Refused(_("The regulation of %(system)s has no differential.") % {"system": system})
    return rule.article


def _two_decimals(mean: Fraction) -> Decimal:
    return (Decimal(mean.numerator) / Decimal(mean.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


def differential_figures(*, system: RatingSystem) -> dict[str, Any]:
    """The counts and means (no row written): ``players``, ``mean`` (Fraction), ``overall``
    (the mean rounded half up, rating_engine.rounding) and ``bands``."""
    fide = FIDE_COLUMN.get(system.rate_of_play)
    if fide is None:
        raise Refused(
            _("%(system)s has no FIDE rating of its rate of play to compare with.")
            % {"system": system}
        )
    with connection.cursor() as cursor:
        cursor.execute(
            _SQL.format(fide=fide), {"thresholds": list(BAND_STARTS[1:]), "system": system.pk}
        )
        rows = {band: (int(n), int(total)) for band, n, total in cursor.fetchall()}
    players = sum(n for n, _t in rows.values())
    if players == 0:
        raise Refused(
            _("No player has both a rating in %(system)s and a FIDE rating: nothing to compute.")
            % {"system": system}
        )
    mean = Fraction(sum(t for _n, t in rows.values()), players)
    overall = round_half_up(mean)
    bands = []
    for index, start in enumerate(BAND_STARTS):
        n, total = rows.get(index, (0, 0))
        band_mean = Fraction(total, n) if n else None
        enough = band_mean is not None and n >= MIN_BAND_PLAYERS
        bands.append(
            {
                "from": start,
                "to": BAND_STARTS[index + 1] - 1 if index + 1 < len(BAND_STARTS) else None,
                "players": n,
                "sum": total,
                "mean": str(_two_decimals(band_mean)) if band_mean is not None else None,
                "value": round_half_up(band_mean) if enough and band_mean is not None else overall,
                "own": enough,
            }
        )
    return {"players": players, "mean": mean, "overall": overall, "bands": bands}


@transaction.atomic
def differential_compute(*, system: RatingSystem, user: Any = None) -> Differential:
    """Compute the system's differential from the lists in force, as a draft for review."""
    differential_article(system=system)
    figures = differential_figures(system=system)
    return Differential.objects.create(
        system=system,
        computed_at=timezone.now(),
        computed_by=user if user is not None and user.is_authenticated else None,
        players=figures["players"],
        mean=_two_decimals(figures["mean"]),
        overall=figures["overall"],
        bands=figures["bands"],
    )


@transaction.atomic
def differential_publish(
    *, differential: Differential, effective_date: dt.date, user: Any = None
) -> Differential:
    """Publish a draft from ``effective_date``: the calculation of every period ending on or
    after it (until a later one takes effect) reads it (fce 9.5, 7.3.1 "publicat a principi
    d'any")."""
    locked = Differential.objects.select_for_update().get(pk=differential.pk)
    if locked.status != DifferentialStatus.DRAFT:
        raise Refused(_("This differential is already published."))
    if Differential.objects.filter(
        system_id=locked.system_id,
        status=DifferentialStatus.PUBLISHED,
        effective_date=effective_date,
    ).exists():
        raise Refused(
            _("A differential of this system already takes effect on %(date)s.")
            % {"date": effective_date.isoformat()}
        )
    locked.status = DifferentialStatus.PUBLISHED
    locked.effective_date = effective_date
    locked.published_at = timezone.now()
    locked.published_by = user if user is not None and user.is_authenticated else None
    locked.save(update_fields=["status", "effective_date", "published_at", "published_by"])
    return locked
