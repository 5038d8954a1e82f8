"""The scale's health (feda-1996 11.1-11.2, fide-2000 12.1-12.3; docs/periods.md "The scale's
health"): the figures of a published list, written by one set-based statement at its
publication (a named step of ratings.publication.services.list_publish, in its transaction),
the drift check that follows them, and the officer's settings of that check.

The figures (ratings.models.ListStatistics) are over the list's rated players: entries with a
rating that are not out of the list. ``active``: not inactive and rated, new or provisional
(ratings.lists.filters.ACTIVE_STATUSES); ``new``: a first rating in this list; ``mean_change``:
the mean change of those who played in the period (games > 0). The same figures by region and
by age band (ratings.models.AgeBand, by birth year against the list's year)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.mail import mail_enqueue
from core.pg.connections import tune_transaction
from core.rules import officer_users
from periods.models import RatingSystem
from ratings.models import EntryStatus, ListStatistics, PublishedList, ScaleMonitoring
from ratings.statistics.selectors import Drift, drift_check

log = logging.getLogger(__name__)

#: An active entry's statuses: the same as ratings.lists.filters.ACTIVE_STATUSES (a layer above
#: this one; tests/ratings/test_statistics.py checks they agree).
ACTIVE_STATUSES = [EntryStatus.RATED, EntryStatus.NEW, EntryStatus.PROVISIONAL]

#: The two "top" groups whose average is kept; the drift check watches the first
#: (feda-1996 11.1: "por ejemplo los 50 primeros del ranking").
TOP = 50
TOP_SMALL = 10

#: The deciles kept (continuous percentiles, as PostgreSQL's percentile_cont); the 5th is the
#: median.
DECILES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def _percentile_sql(p: float) -> str:
    """The continuous percentile ``p`` of a group's ratings from its histogram (one row per
    rating with its count ``n``, ``upto`` = entries rated at most that, ``total`` = the group's
    entries): position p·(total − 1) in the ratings in ascending order, interpolated between the
    ratings at its floor and the next position, as percentile_cont does."""
    pos = f"({p!r}::float8 * (total - 1))"
    low = f"min(rating) FILTER (WHERE upto > floor({pos}))"
    high = f"min(rating) FILTER (WHERE upto > LEAST(floor({pos}) + 1, total - 1))"
    frac = f"max({pos} - floor({pos}))"
    return f"({low} + {frac} * ({high} - {low}))"


def _top_sql(size: str) -> str:
    """The average of a group's ``size`` best ratings (all of them when fewer), from its
    histogram: each rating counts as many times as its entries fit below ``size`` after the
    ``above`` entries rated higher."""
    return (
        f"(sum(rating::bigint * LEAST(n, GREATEST(0, {size} - above)))::float8 "
        f"/ LEAST({size}, max(total)))"
    )


# One statement (docs/benchmarks.md, "Scale statistics"). A statement of window functions and
# ordered-set aggregates over the entries sorted the 460,000 rows five times (region by its
# collation) and took 3 to 5 s; this one hashes the entries once into a histogram (region, age
# band, rating → counts), rolls it up to the three scopes (whole list, region, age band: a few
# thousand rows), and reads every figure from the cumulative counts of that small table.
#
# The region and birth year are the player's: from the players' table, or, for a list being
# published, from the snapshot its entries took of the same rows in the same transaction (no
# join of the whole registry).
STATISTICS_SQL = f"""
    WITH entries AS (
        SELECT e.rating, e.change, e.games,
               (NOT e.inactive AND e.status = ANY(%(active)s)) AS active,
               e.status = %(new)s AS new,
               {{who}}.region,
               CASE WHEN {{who}}.birth_year IS NULL THEN 'unknown'
                    WHEN {{who}}.birth_year >= %(year)s - 20 THEN 'u20'
                    WHEN {{who}}.birth_year <= %(year)s - 65 THEN 's65'
                    WHEN {{who}}.birth_year <= %(year)s - 50 THEN 's50'
                    ELSE 'a20' END AS band
        FROM ratings_listentry e {{join}}
        WHERE e.published_list_id = %(list)s AND e.rating IS NOT NULL
          AND e.status <> %(out)s
    ), histogram AS (
        SELECT region, band, rating, count(*) AS n,
               count(*) FILTER (WHERE active) AS a, count(*) FILTER (WHERE new) AS nw,
               sum(change) FILTER (WHERE games > 0) AS sc, count(*) FILTER (WHERE games > 0) AS np
        FROM entries GROUP BY region, band, rating
    ), levels AS (
        SELECT 'all' AS scope, '' AS grp, rating, sum(n) AS n, sum(a) AS a, sum(nw) AS nw,
               sum(sc) AS sc, sum(np) AS np
        FROM histogram GROUP BY rating
        UNION ALL
        SELECT 'region', region, rating, sum(n), sum(a), sum(nw), sum(sc), sum(np)
        FROM histogram GROUP BY region, rating
        UNION ALL
        SELECT 'age', band, rating, sum(n), sum(a), sum(nw), sum(sc), sum(np)
        FROM histogram GROUP BY band, rating
    ), cumulative AS (
        SELECT *, sum(n) OVER (PARTITION BY scope, grp) AS total,
               sum(n) OVER (PARTITION BY scope, grp ORDER BY rating) AS upto,
               sum(n) OVER (PARTITION BY scope, grp ORDER BY rating DESC) - n AS above
        FROM levels
    )
    INSERT INTO ratings_liststatistics (published_list_id, system_id, list_date, scope, "group",
        players, active, new, mean, median, deciles, top50, top10, mean_change, computed_at)
    SELECT %(list)s, %(system)s, %(date)s, scope, grp,
           sum(n), sum(a), sum(nw),
           sum(rating::bigint * n)::float8 / sum(n),
           {_percentile_sql(0.5)},
           ARRAY[{", ".join(_percentile_sql(p) for p in DECILES)}]::float8[],
           {_top_sql("%(top)s")},
           {_top_sql("%(top_small)s")},
           sum(sc)::float8 / NULLIF(sum(np), 0),
           now()
    FROM cumulative
    GROUP BY scope, grp
    ON CONFLICT DO NOTHING
"""


def list_statistics_compute(*, published: PublishedList, snapshot: bool = False) -> int:
    """Write the figures of one published list (whole list, each region, each age band) unless
    they are there: one INSERT … SELECT. The number of rows written (0 for a list without rated
    players: no figures). `snapshot`: the regions and birth years from the entries' own copy
    (only in the transaction that wrote them: the same values as the players' rows then)."""
    if snapshot:
        sql = STATISTICS_SQL.format(who="e", join="")
    else:
        sql = STATISTICS_SQL.format(who="p", join="JOIN players_player p ON p.id = e.player_id")
    with connection.cursor() as cursor:
        cursor.execute(
            sql,
            {
                "list": published.pk,
                "system": published.system_id,
                "date": published.list_date,
                "year": published.list_date.year,
                "top": TOP,
                "top_small": TOP_SMALL,
                "active": [str(s) for s in ACTIVE_STATUSES],
                "new": str(EntryStatus.NEW),
                "out": str(EntryStatus.OUT_OF_LIST),
            },
        )
        written = cursor.rowcount
    return written


def list_statistics_publish_step(
    *, published: PublishedList, snapshot: bool = False
) -> Drift | None:
    """The publication's step (ratings.publication.services.list_publish, same transaction):
    the list's figures, then the drift check of its rating system; the officers are e-mailed
    through the outbox when the top-50 average moved more than the threshold. The drift found,
    if any. `snapshot`: the entries were just written with the players' region and birth year
    (list_statistics_compute)."""
    list_statistics_compute(published=published, snapshot=snapshot)
    drift = drift_check(system=published.system)
    if drift is not None and drift.exceeded and drift.newest_list_id == published.pk:
        drift_mail_officers(drift=drift)
    return drift


def statistics_backfill(*, system: RatingSystem | None = None) -> int:
    """The figures of every published list that has none (lists published before the
    statistics existed), each by the same one statement; the number of lists computed."""
    missing = PublishedList.objects.select_related("system").exclude(
        Exists(ListStatistics.objects.filter(published_list=OuterRef("pk")))
    )
    if system is not None:
        missing = missing.filter(system=system)
    done = 0
    for published in missing.order_by("list_date", "version"):
        with transaction.atomic():
            tune_transaction()  # as list_publish's transaction is
            list_statistics_compute(published=published)
        done += 1
    return done


def drift_mail_officers(*, drift: Drift) -> None:
    """E-mail every officer with an address that the top-50 average moved more than the
    threshold (in the outbox, in the caller's transaction; sent by a worker)."""
    link = reverse("ratings:statistics", args=[drift.system.code])
    recipients = [u.email for u in officer_users() if u.email]
    if not recipients:
        return
    with translation.override(None):
        subject = _("Drift of the rating scale: %(system)s") % {"system": drift.system.name}
        body = _(
            "The average rating of the top %(size)s of %(system)s moved %(moved)+.1f points over "
            "the last %(lists)s lists (from %(before).1f on %(before_date)s to %(after).1f on "
            "%(after_date)s), more than the threshold of %(threshold).1f set by the office "
            "(%(article)s).\n\nThe statistics: %(link)s"
        ) % _drift_params(drift=drift, link=link)
    mail_enqueue(
        kind="ratings.scale_drift",
        subject=subject,
        body=body,
        to=recipients,
    )


def _drift_params(*, drift: Drift, link: str) -> dict[str, Any]:
    return {
        "size": drift.group_size,
        "system": drift.system.name,
        "moved": drift.moved,
        "lists": drift.lists,
        "before": drift.before,
        "before_date": drift.before_date.isoformat(),
        "after": drift.after,
        "after_date": drift.after_date.isoformat(),
        "threshold": drift.threshold,
        "article": drift.article,
        "link": link,
    }


def scale_monitoring_update(
    *, system: RatingSystem, threshold: float, lists: int, user: Any
) -> ScaleMonitoring:
    """The officer's settings of a system's drift check (created on first use)."""
    monitoring, _created = ScaleMonitoring.objects.update_or_create(
        system=system,
        defaults={
            "threshold": threshold,
            "lists": lists,
            "updated_by": user if getattr(user, "is_authenticated", False) else None,
        },
    )
    return monitoring
