"""The filter counts of a published list (issue 29): how many entries the list page's common
filters keep, written by one set-based statement in the publication's transaction (a named step
of ratings.publication.services.list_publish), so the first page of a filter after a
publication reads its count instead of counting the list (0.8-2.8 s for the women of a list of
417,000 entries, docs/benchmarks.md).

One row per section of the list and filter value (ratings.models.ListFilterCount): the whole
section, each sex, title, region, club and age group, each with its active entries (the "active
only" box, the top lists). From the entries' own filter columns (written with them, issue 27
item 1): what the page filters by. One scan of the list: GROUPING SETS, hashed in one pass; the
age groups summed from the birth years' rows."""

from __future__ import annotations

from typing import Any

from django.db import connection

from ratings.models import LIST_AGE_GROUPS, PublishedList

# GROUPING(sex, title, region, club, birth_year) of each grouping set: a bit set for each column
# the set does not group by (PostgreSQL: the leftmost argument is the most significant bit).
_WHOLE, _SEX, _TITLE = 0b11111, 0b01111, 0b10111
_REGION, _CLUB, _BIRTH_YEAR = 0b11011, 0b11101, 0b11110

COUNTS_SQL = f"""
    WITH entries AS (
        SELECT CASE WHEN e.section IN ('', 'active') THEN 'active' ELSE e.section END AS section,
               e.sex, e.title, e.region, e.club, e.birth_year, COALESCE(e.active, false) AS active
        FROM ratings_listentry e WHERE e.published_list_id = %(list)s
    ), grouped AS (
        SELECT section, sex, title, region, club, birth_year,
               GROUPING(sex, title, region, club, birth_year) AS grouping_set,
               count(*) AS n, count(*) FILTER (WHERE active) AS a
        FROM entries
        GROUP BY GROUPING SETS ((section), (section, sex), (section, title), (section, region),
                                (section, club), (section, birth_year))
    ), age_groups (code, under, age) AS (
        SELECT * FROM unnest(%(codes)s::text[], %(under)s::boolean[], %(ages)s::int[])
    )
    INSERT INTO ratings_listfiltercount (published_list_id, section, dimension, value, entries,
        active_entries)
    SELECT %(list)s, section, dimension, value, n, a FROM (
        SELECT section, '' AS dimension, '' AS value, n, a
        FROM grouped WHERE grouping_set = {_WHOLE}
        UNION ALL
        SELECT section, 'sex', sex, n, a FROM grouped WHERE grouping_set = {_SEX} AND sex <> ''
        UNION ALL
        SELECT section, 'title', title, n, a
        FROM grouped WHERE grouping_set = {_TITLE} AND title <> ''
        UNION ALL
        SELECT section, 'region', region, n, a
        FROM grouped WHERE grouping_set = {_REGION} AND region <> ''
        UNION ALL
        SELECT section, 'club', club, n, a FROM grouped WHERE grouping_set = {_CLUB} AND club <> ''
        UNION ALL
        SELECT g.section, 'age', ag.code, sum(g.n), sum(g.a)
        FROM grouped g JOIN age_groups ag
          ON g.grouping_set = {_BIRTH_YEAR}
         AND CASE WHEN ag.under THEN g.birth_year >= %(year)s - ag.age
                  ELSE g.birth_year <= %(year)s - ag.age END
        GROUP BY g.section, ag.code
    ) counts
    ON CONFLICT DO NOTHING
"""


def list_filter_counts_write(*, published: PublishedList) -> int:
    """Write the filter counts of a list whose entries carry their filter columns (published
    since issue 27); the number of rows written. The publication's step, in its transaction."""
    params: dict[str, Any] = {
        "list": published.pk,
        "year": published.list_date.year,
        "codes": [code for code, _label, _age in LIST_AGE_GROUPS],
        "under": [code.startswith("u") for code, _label, _age in LIST_AGE_GROUPS],
        "ages": [age for _code, _label, age in LIST_AGE_GROUPS],
    }
    with connection.cursor() as cursor:
        cursor.execute(COUNTS_SQL, params)
        return cursor.rowcount
