"""The SQL of a list import: the typed staging table, its checks and the set-based writes
(lists.imports.importer runs them in order; docs/lists.md explains each step).

The statements depend on the rating columns the file has (``ratings``: ``("rating",)`` for
an import into a rating system; ``rating_standard``, ``rating_rapid``, ``rating_blitz`` —
the ones the file carries — for an import into the players' FIDE fields) and on the target,
so they are built by the functions below; each raw column is ``<field>_raw`` in list_fields.
"""

from __future__ import annotations

from formats import lists as lf

#: The import's targets: the players' FIDE fields, or a rating system's PlayerRating rows.
TARGET_FIDE = "fide"
TARGET_SYSTEM = "system"

#: Rating field of the list -> the Player column it is written to (target "fide").
FIDE_COLUMNS = {
    "rating_standard": "fide_standard",
    "rating_rapid": "fide_rapid",
    "rating_blitz": "fide_blitz",
}


def fide_field(rate: str) -> str:
    """The list's rating field for a FIDE rating of this rate of play."""
    return f"rating_{rate}"


def field_columns(ratings: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of list_fields, in COPY order."""
    return (
        "row_no",
        "surname",
        "given_name",
        "fide_raw",
        "fed_raw",
        "sex_raw",
        "title_raw",
        *(f"{f}_raw" for f in ratings),
        "games_raw",
        "k_raw",
        "birth_raw",
        "flag_raw",
        "name_key",
    )


def _digits(col: str, most: int) -> str:
    """SQL: col is 1..most digits. ltrim(x, digits) = '' is cheaper than a regular expression;
    octet_length() does not count characters (a text with a multibyte one fails ltrim)."""
    return f"(octet_length({col}) BETWEEN 1 AND {most} AND ltrim({col}, '0123456789') = '')"


OLD_TITLES_SQL = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in lf.OLD_TITLES.items())
VALID_TITLES_SQL = ", ".join(f"'{t}'" for t in sorted(lf.VALID_TITLES))


def _rating_bad(f: str) -> str:
    return (
        f"({f}_n IS NULL AND {f}_raw <> '') "
        f"OR ({f}_n <> 0 AND {f}_n NOT BETWEEN %(rmin)s AND %(rmax)s)"
    )


def typed_sql(ratings: tuple[str, ...]) -> str:
    """Raw text -> typed values (NULL where the text is not a number), the normalised fields
    (lf.normal_sex, lf.normal_title, upper-case federation) and the row's problem flag."""
    raws = ", ".join(f"{f}_raw" for f in ratings)
    numbers = ", ".join(f"{f}_n" for f in ratings)
    values = ", ".join(f"NULLIF({f}_n, 0) AS {f}" for f in ratings)
    casts = ", ".join(
        f"CASE WHEN {_digits(f + '_raw', 9)} THEN {f}_raw::int END AS {f}_n" for f in ratings
    )
    system = ""
    if "rating" in ratings:  # an import into a rating system: its PlayerRating fields
        system = """
  CASE WHEN NULLIF(rating_n, 0) IS NULL THEN 'unrated' ELSE 'effective' END AS kind,
  CASE WHEN position('i' in flag) > 0 THEN 'inactive' ELSE 'active' END AS activity,
  COALESCE(rating_n >= 2400, false) AS r2400, COALESCE(rating_n >= 2200, false) AS r2200,"""
    return f"""SELECT row_no, fide_raw, {raws}, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  fide_id, {numbers}, games_n, k_n, birth_n, flag, surname, given_name, fed,
  NULLIF(name_key, '') AS name_key,
  CASE WHEN upper(left(sex_raw, 1)) IN ('M', 'F') THEN upper(left(sex_raw, 1))
       WHEN position('w' in flag) > 0 THEN 'F' ELSE 'M' END AS sex,
  CASE title_raw {OLD_TITLES_SQL} ELSE CASE WHEN upper(title_raw) IN ({VALID_TITLES_SQL})
       THEN upper(title_raw) ELSE '' END END AS title,
  {values}, COALESCE(games_n, 0) AS games, NULLIF(birth_n, 0) AS birth_year,{system}
  (fide_id IS NULL
   OR {" OR ".join(_rating_bad(f) for f in ratings)}
   OR (games_n IS NULL AND games_raw <> '') OR (k_n IS NULL AND k_raw <> '')
   OR (birth_n IS NULL AND birth_raw <> '')
   OR (birth_n <> 0 AND birth_n NOT BETWEEN %(bmin)s AND %(bmax)s)
   OR flag NOT IN ('', 'i', 'w', 'wi') OR length(fed) > 3) AS bad
FROM (SELECT row_no, fide_raw, {raws}, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  surname, given_name, name_key, sex_raw, title_raw, upper(fed_raw) AS fed,
  lower(flag_raw) AS flag,
  CASE WHEN {_digits("fide_raw", 18)} THEN fide_raw::bigint END AS fide_id,
  {casts},
  CASE WHEN {_digits("games_raw", 9)} THEN games_raw::int END AS games_n,
  CASE WHEN {_digits("k_raw", 9)} THEN k_raw::int END AS k_n,
  CASE WHEN {_digits("birth_raw", 9)} THEN birth_raw::int END AS birth_n
  FROM list_fields s OFFSET 0) t"""


_COMPLETE = """(p.id IS NOT NULL AND ((p.birth_year IS NULL AND t.birth_year IS NOT NULL)
                         OR (p.title = '' AND t.title <> ''))) AS complete"""


def _fide_tuple(alias: str, ratings: tuple[str, ...], *, player: bool) -> str:
    cols = [f"{alias}.{FIDE_COLUMNS[f] if player else f}" for f in ratings]
    return f"ROW({', '.join(cols)})"


def stage_sql(ratings: tuple[str, ...], target: str) -> str:
    """The typed rows with their player (and, for a rating system, the player's current
    rating in it), and what has to change."""
    common = "t.row_no, t.fide_id, t.surname, t.given_name, t.name_key, t.fed, t.sex, t.title"
    if target == TARGET_FIDE:
        # changed: an existing player whose FIDE ratings differ, or a new player with one.
        return f"""CREATE TEMP TABLE list_stage ON COMMIT DROP AS
SELECT {common}, {", ".join(f"t.{f}" for f in ratings)}, t.birth_year, t.bad,
  p.id AS player_id, {_COMPLETE},
  (CASE WHEN p.id IS NULL THEN {" OR ".join(f"t.{f} IS NOT NULL" for f in ratings)}
        ELSE {_fide_tuple("p", ratings, player=True)}
             IS DISTINCT FROM {_fide_tuple("t", ratings, player=False)} END) AS changed
FROM ({typed_sql(ratings)}) t
LEFT JOIN players_player p ON p.fide_id = t.fide_id"""
    return f"""CREATE TEMP TABLE list_stage ON COMMIT DROP AS
SELECT {common}, t.rating, t.games,
  t.birth_year, t.kind, t.activity, t.r2400, t.r2200, t.bad, p.id AS player_id, r.id AS rating_id,
  {_COMPLETE},
  (r.id IS NOT NULL AND ((r.rating, r.games, r.kind, r.activity)
                           IS DISTINCT FROM (t.rating, t.games, t.kind, t.activity)
                         OR (t.r2400 AND NOT r.reached_2400)
                         OR (t.r2200 AND NOT r.reached_2200))) AS changed
FROM ({typed_sql(ratings)}) t
LEFT JOIN players_player p ON p.fide_id = t.fide_id
LEFT JOIN ratings_playerrating r ON r.player_id = p.id AND r.system_id = %(system)s"""


def problems_sql(ratings: tuple[str, ...]) -> str:
    """Only when the summary counted a problem: every field of the rows with one, and the
    duplicate IDs with the row of their first appearance."""
    rating_checks = "".join(
        f"""
    (CASE WHEN {f}_n IS NULL AND {f}_raw <> '' THEN 'bad_number'
          WHEN {f}_n <> 0 AND {f}_n NOT BETWEEN %(rmin)s AND %(rmax)s
          THEN 'rating_out_of_range' END, '{f}', {f}_raw),"""
        for f in ratings
    )
    return f"""
SELECT row_no, code, fld, value, first, count(*) OVER () FROM (
  SELECT s.row_no, v.code, v.fld, v.value, NULL::int AS first
  FROM ({typed_sql(ratings)}) s, LATERAL (VALUES
    (CASE WHEN fide_raw = '' THEN 'missing_id' WHEN fide_id IS NULL THEN 'bad_number' END,
     'fide_id', fide_raw),{rating_checks}
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


def summary_sql(target: str) -> str:
    """rows, new players, completions, missing ratings, changes, bad rows, and the rows whose
    FIDE ID an earlier row has (0: no duplicate; problems_sql names them). One scan; the
    duplicates counted by a sort of the IDs (count DISTINCT), about five times cheaper than
    grouping 500,000 IDs in a hash table."""
    missing = "0" if target == TARGET_FIDE else "count(*) FILTER (WHERE rating_id IS NULL)"
    return f"""SELECT count(*), count(*) FILTER (WHERE player_id IS NULL),
  count(*) FILTER (WHERE complete), {missing},
  count(*) FILTER (WHERE changed), count(*) FILTER (WHERE bad),
  count(fide_id) - count(DISTINCT fide_id)
FROM list_stage"""


FED_ID_TAKEN_SQL = """SELECT s.row_no, 'fed_id_taken', 'fide_id', %(prefix)s || s.fide_id, NULL
FROM list_stage s JOIN players_player q ON q.fed_id = %(prefix)s || s.fide_id
WHERE s.player_id IS NULL ORDER BY 1 LIMIT %(limit)s"""

#: The new players whose name_key was not computed while the rows were read.
NAMES_WITHOUT_KEY_SQL = """SELECT row_no, surname || ' ' || given_name FROM list_stage
WHERE player_id IS NULL AND name_key IS NULL"""

_COMPLETE_SET = """birth_year = COALESCE(p.birth_year, s.birth_year),
    title = CASE WHEN p.title = '' THEN s.title ELSE p.title END, updated_at = now()"""
_COMPLETE_WHERE = (
    "(p.birth_year IS NULL AND s.birth_year IS NOT NULL) OR (p.title = '' AND s.title <> '')"
)

COMPLETE_SQL = f"""UPDATE players_player p
SET {_COMPLETE_SET}
FROM list_stage s WHERE s.complete AND p.id = s.player_id AND ({_COMPLETE_WHERE})"""


def update_fide_sql(ratings: tuple[str, ...]) -> str:
    """Target "fide": the existing players' FIDE ratings of the list (and the completions),
    one statement, so a player changed both ways gets one new row version."""
    sets = ", ".join(f"{FIDE_COLUMNS[f]} = s.{f}" for f in ratings)
    return f"""UPDATE players_player p
SET {_COMPLETE_SET}, {sets}
FROM list_stage s WHERE (s.complete OR s.changed) AND p.id = s.player_id
  AND (({_COMPLETE_WHERE})
       OR {_fide_tuple("p", ratings, player=True)}
          IS DISTINCT FROM {_fide_tuple("s", ratings, player=False)})"""


def insert_players_sql(ratings: tuple[str, ...], target: str) -> str:
    """New players (in file order), ids from a block reserved beforehand (first + row - first
    new row), so that players and their ratings are two plain inserts from the stage: no
    RETURNING set joined back to 500,000 stage rows. Target "fide": with their FIDE ratings.
    Positional placeholders (first, first row, prefix): pgtrigger.ignore prefixes the
    statement with its own positional one."""
    fide = ratings if target == TARGET_FIDE else ()
    columns = "".join(f", {FIDE_COLUMNS[f]}" for f in fide)
    values = "".join(f", s.{f}" for f in fide)
    return f"""INSERT INTO players_player (id, fed_id, surname, given_name, sex, birth_year,
    club, region, federation, title, fide_id, affiliated, name_key, created_at, updated_at{columns})
  SELECT %s + s.row_no - %s, %s || s.fide_id, s.surname, s.given_name, s.sex,
    s.birth_year, '', '', s.fed, s.title, s.fide_id, true, COALESCE(s.name_key, k.name_key),
    now(), now(){values}
  FROM list_stage s LEFT JOIN list_keys k ON k.row_no = s.row_no
  WHERE s.player_id IS NULL"""


def insert_words_sql(*, locked: bool) -> str:
    """The words of the new players' names (list_words, copied in sorted and distinct) that
    the vocabulary (players.models.NameWord) lacks: an anti-join, then inserts in the word
    b-tree's order (list_words is read in the order it was copied). `locked`: the import holds
    the vocabulary's lock (its indexes are deferred), so nobody else adds a word meanwhile and
    the inserts need no conflict check (which costs about half again as much)."""
    return f"""INSERT INTO players_nameword (word)
SELECT l.word FROM list_words l
WHERE NOT EXISTS (SELECT 1 FROM players_nameword n WHERE n.word = l.word)
{"" if locked else "ON CONFLICT DO NOTHING"}"""


# Every missing rating in the system, the new players' included.
INSERT_RATINGS_SQL = """INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind,
  activity, out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset,
  engine_version, updated_at)
SELECT COALESCE(s.player_id, %(first)s + s.row_no - %(first_row)s), %(system)s, s.rating, s.games,
  s.kind,
  s.activity, false, s.r2400, s.r2200, 0, '[]'::jsonb, %(ruleset)s, %(engine)s, now()
FROM list_stage s
WHERE s.rating_id IS NULL"""

#: The players the missing ratings refer to that are not new (ratings.refs_checked): the
#: smallest id the registry does not hold, or NULL. The new players' ids are those the
#: players' insert has just written (same rows of the stage, same formula).
RATINGS_PLAYERS_MISSING_SQL = """SELECT min(s.player_id) FROM list_stage s
WHERE s.rating_id IS NULL AND s.player_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM players_player p WHERE p.id = s.player_id)"""

UPDATE_RATINGS_SQL = """UPDATE ratings_playerrating r SET rating = s.rating, games = s.games,
  kind = s.kind, activity = s.activity, reached_2400 = r.reached_2400 OR s.r2400,
  reached_2200 = r.reached_2200 OR s.r2200, ruleset = %(ruleset)s, engine_version = %(engine)s,
  regulation_version = '', updated_at = now()
FROM list_stage s WHERE s.changed AND r.id = s.rating_id
  AND ((r.rating, r.games, r.kind, r.activity)
       IS DISTINCT FROM (s.rating, s.games, s.kind, s.activity)
       OR (s.r2400 AND NOT r.reached_2400) OR (s.r2200 AND NOT r.reached_2200))"""


#: The rows of players not in the registry that may not create one (issue 24 item 7): all of
#: them (choice "update"), or those of another federation (choice "federation": the row's
#: federation is not %(federation)s). Run after the checks, so a bad row is reported whatever
#: the choice; the rows left in list_stage are those the writes below act on.
SKIP_ALL_NEW_SQL = "DELETE FROM list_stage WHERE player_id IS NULL"
SKIP_FOREIGN_SQL = (
    "DELETE FROM list_stage WHERE player_id IS NULL AND fed IS DISTINCT FROM %(federation)s"
)
