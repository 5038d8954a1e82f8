"""The SQL of a list import: the typed staging table, its checks and the set-based writes
(ratings.lists.imports runs them in order; docs/lists.md explains each step)."""

from __future__ import annotations

from ratings.lists import formats as lf


def _digits(col: str, most: int) -> str:
    """SQL: col is 1..most digits. ltrim(x, digits) = '' is cheaper than a regular expression;
    octet_length() does not count characters (a text with a multibyte one fails ltrim)."""
    return f"(octet_length({col}) BETWEEN 1 AND {most} AND ltrim({col}, '0123456789') = '')"


OLD_TITLES_SQL = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in lf.OLD_TITLES.items())
VALID_TITLES_SQL = ", ".join(f"'{t}'" for t in sorted(lf.VALID_TITLES))

# Raw text -> typed values (NULL where the text is not a number), the normalised fields
# (lf.normal_sex, lf.normal_title, upper-case federation) and the row's problem flag.
TYPED = """SELECT row_no, fide_raw, rating_raw, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  fide_id, rating_n, games_n, k_n, birth_n, flag, surname, given_name, fed,
  CASE WHEN upper(left(sex_raw, 1)) IN ('M', 'F') THEN upper(left(sex_raw, 1))
       WHEN position('w' in flag) > 0 THEN 'F' ELSE 'M' END AS sex,
  CASE title_raw {old_titles} ELSE CASE WHEN upper(title_raw) IN ({valid_titles})
       THEN upper(title_raw) ELSE '' END END AS title,
  NULLIF(rating_n, 0) AS rating, COALESCE(games_n, 0) AS games,
  NULLIF(birth_n, 0) AS birth_year,
  CASE WHEN NULLIF(rating_n, 0) IS NULL THEN 'unrated' ELSE 'effective' END AS kind,
  CASE WHEN position('i' in flag) > 0 THEN 'inactive' ELSE 'active' END AS activity,
  COALESCE(rating_n >= 2400, false) AS r2400, COALESCE(rating_n >= 2200, false) AS r2200,
  (fide_id IS NULL
   OR (rating_n IS NULL AND rating_raw <> '')
   OR (rating_n <> 0 AND rating_n NOT BETWEEN %(rmin)s AND %(rmax)s)
   OR (games_n IS NULL AND games_raw <> '') OR (k_n IS NULL AND k_raw <> '')
   OR (birth_n IS NULL AND birth_raw <> '')
   OR (birth_n <> 0 AND birth_n NOT BETWEEN %(bmin)s AND %(bmax)s)
   OR flag NOT IN ('', 'i', 'w', 'wi') OR length(fed) > 3) AS bad
FROM (SELECT row_no, fide_raw, rating_raw, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  surname, given_name, sex_raw, title_raw, upper(fed_raw) AS fed, lower(flag_raw) AS flag,
  CASE WHEN {fide_ok} THEN fide_raw::bigint END AS fide_id,
  CASE WHEN {rating_ok} THEN rating_raw::int END AS rating_n,
  CASE WHEN {games_ok} THEN games_raw::int END AS games_n,
  CASE WHEN {k_ok} THEN k_raw::int END AS k_n,
  CASE WHEN {birth_ok} THEN birth_raw::int END AS birth_n
  FROM list_fields s OFFSET 0) t""".format(
    old_titles=OLD_TITLES_SQL,
    valid_titles=VALID_TITLES_SQL,
    fide_ok=_digits("fide_raw", 18),
    rating_ok=_digits("rating_raw", 9),
    games_ok=_digits("games_raw", 9),
    k_ok=_digits("k_raw", 9),
    birth_ok=_digits("birth_raw", 9),
)

# The typed rows with their player and current rating in the system, and what has to change.
STAGE_SQL = (
    """CREATE TEMP TABLE list_stage ON COMMIT DROP AS
SELECT t.row_no, t.fide_id, t.surname, t.given_name, t.fed, t.sex, t.title, t.rating, t.games,
  t.birth_year, t.kind, t.activity, t.r2400, t.r2200, t.bad, p.id AS player_id, r.id AS rating_id,
  (p.id IS NOT NULL AND ((p.birth_year IS NULL AND t.birth_year IS NOT NULL)
                         OR (p.title = '' AND t.title <> ''))) AS complete,
  (r.id IS NOT NULL AND ((r.rating, r.games, r.kind, r.activity)
                           IS DISTINCT FROM (t.rating, t.games, t.kind, t.activity)
                         OR (t.r2400 AND NOT r.reached_2400)
                         OR (t.r2200 AND NOT r.reached_2200))) AS changed
FROM ("""
    + TYPED
    + """) t
LEFT JOIN players_player p ON p.fide_id = t.fide_id
LEFT JOIN ratings_playerrating r ON r.player_id = p.id AND r.system_id = %(system)s"""
)

# Only when the summary counted a problem: every field of the rows with one, and the
# duplicate IDs with the row of their first appearance.
PROBLEMS_SQL = (
    """
SELECT row_no, code, fld, value, first, count(*) OVER () FROM (
  SELECT s.row_no, v.code, v.fld, v.value, NULL::int AS first
  FROM ("""
    + TYPED
    + """) s, LATERAL (VALUES
    (CASE WHEN fide_raw = '' THEN 'missing_id' WHEN fide_id IS NULL THEN 'bad_number' END,
     'fide_id', fide_raw),
    (CASE WHEN rating_n IS NULL AND rating_raw <> '' THEN 'bad_number'
          WHEN rating_n <> 0 AND rating_n NOT BETWEEN %(rmin)s AND %(rmax)s
          THEN 'rating_out_of_range' END, 'rating', rating_raw),
    (CASE WHEN games_n IS NULL AND games_raw <> '' THEN 'bad_number' END, 'games', games_raw),
    (CASE WHEN k_n IS NULL AND k_raw <> '' THEN 'bad_number' END, 'k', k_raw),
    (CASE WHEN birth_n IS NULL AND birth_raw <> '' THEN 'bad_number'
          WHEN birth_n <> 0 AND birth_n NOT BETWEEN %(bmin)s AND %(bmax)s
          THEN 'birth_out_of_range' END, 'birth_year', birth_raw),
    (CASE WHEN flag NOT IN ('', 'i', 'w', 'wi') THEN 'bad_flag' END, 'flag', flag_raw),
    (CASE WHEN length(fed) > 3 THEN 'bad_federation' END, 'fed', fed_raw)
  ) v(code, fld, value) WHERE s.bad AND v.code IS NOT NULL
  UNION ALL
  SELECT row_no, 'duplicate_id', 'fide_id', fide_id::text, first FROM (
    SELECT row_no, fide_id, min(row_no) OVER (PARTITION BY fide_id) AS first FROM list_stage
    WHERE fide_id IN (SELECT fide_id FROM list_stage GROUP BY fide_id HAVING count(*) > 1)) d
  WHERE row_no > first
) e ORDER BY row_no, code COLLATE "C" LIMIT %(limit)s
"""
)

SUMMARY_SQL = """SELECT count(*), count(*) FILTER (WHERE player_id IS NULL),
  count(*) FILTER (WHERE complete), count(*) FILTER (WHERE rating_id IS NULL),
  count(*) FILTER (WHERE changed), count(*) FILTER (WHERE bad),
  (SELECT count(*) FROM (SELECT FROM list_stage WHERE fide_id IS NOT NULL
                         GROUP BY fide_id HAVING count(*) > 1) d)
FROM list_stage"""

FED_ID_TAKEN_SQL = """SELECT s.row_no, 'fed_id_taken', 'fide_id', %(prefix)s || s.fide_id, NULL
FROM list_stage s JOIN players_player q ON q.fed_id = %(prefix)s || s.fide_id
WHERE s.player_id IS NULL ORDER BY 1 LIMIT %(limit)s"""

COMPLETE_SQL = """UPDATE players_player p
SET birth_year = COALESCE(p.birth_year, s.birth_year),
    title = CASE WHEN p.title = '' THEN s.title ELSE p.title END, updated_at = now()
FROM list_stage s WHERE s.complete AND p.id = s.player_id
  AND ((p.birth_year IS NULL AND s.birth_year IS NOT NULL) OR (p.title = '' AND s.title <> ''))"""

# New players (in file order) and every missing rating, the new players' included.
# New players take ids from a block reserved beforehand (first + row - first new row), so the
# players and their ratings are two plain inserts from the stage: no RETURNING set joined
# back to 500,000 stage rows.
INSERT_PLAYERS_SQL = """INSERT INTO players_player (id, fed_id, surname, given_name, sex,
    birth_year,
    club, region, federation, title, fide_id, affiliated, name_key, created_at, updated_at)
  SELECT %s + s.row_no - %s, %s || s.fide_id, s.surname, s.given_name, s.sex,
    s.birth_year, '', '', s.fed, s.title, s.fide_id, true, k.name_key, now(), now()
  FROM list_stage s JOIN list_keys k ON k.row_no = s.row_no
  WHERE s.player_id IS NULL"""
# Positional placeholders: pgtrigger.ignore prefixes the statement with its own positional one.

INSERT_RATINGS_SQL = """INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind,
  activity, out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset,
  engine_version, updated_at)
SELECT COALESCE(s.player_id, %(first)s + s.row_no - %(first_row)s), %(system)s, s.rating, s.games,
  s.kind,
  s.activity, false, s.r2400, s.r2200, 0, '[]'::jsonb, %(ruleset)s, %(engine)s, now()
FROM list_stage s
WHERE s.rating_id IS NULL"""

UPDATE_RATINGS_SQL = """UPDATE ratings_playerrating r SET rating = s.rating, games = s.games,
  kind = s.kind, activity = s.activity, reached_2400 = r.reached_2400 OR s.r2400,
  reached_2200 = r.reached_2200 OR s.r2200, ruleset = %(ruleset)s, engine_version = %(engine)s,
  updated_at = now()
FROM list_stage s WHERE s.changed AND r.id = s.rating_id
  AND ((r.rating, r.games, r.kind, r.activity)
       IS DISTINCT FROM (s.rating, s.games, s.kind, s.activity)
       OR (s.r2400 AND NOT r.reached_2400) OR (s.r2200 AND NOT r.reached_2200))"""
