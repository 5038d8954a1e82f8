"""A bulk load's search indexes rebuilt after its commit (issue 27 item 5; core/pg/indexes.py).

ratings/migrations/0023 made a transaction that drops a table's secondary indexes rebuild them
all before it commits. The unique ones still must be (nobody may leave a table without its
unique constraints, and a duplicate must fail the load), but an index that only speeds reads
up — the players' name and search indexes, a GIN of half a million names in particular — can
be built after the commit, while the search answers from the table. So:

- `core_deferred_index.after_commit`: the saved definition of a non-unique index whose
  rebuild may wait for the commit; the commit check skips those rows.
- `core_indexes_restore_unique(tables)`: rebuilds the saved unique indexes and constraints of
  `tables` now and marks their other saved indexes `after_commit`; the caller runs
  `core_indexes_restore(tables)` after its commit (and a later load starts with it, should
  that rebuild never have run).

Same rules as 0023's functions: SECURITY DEFINER owned by the migrating role, search path
pinned, EXECUTE revoked from PUBLIC and granted to the site's role by core.pg.roles.
"""

from django.db import migrations

SQL = r"""
ALTER TABLE core_deferred_index ADD COLUMN after_commit boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION core_deferred_index_rebuilt() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM core_deferred_index d
               WHERE d.table_name = NEW.table_name AND d.index_name = NEW.index_name
                 AND NOT d.after_commit) THEN
        RAISE EXCEPTION 'index % of % was dropped for a bulk load and not rebuilt',
            NEW.index_name, NEW.table_name
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'call core_indexes_restore() before committing';
    END IF;
    RETURN NULL;
END;
$$;

CREATE FUNCTION core_indexes_restore_unique(tables regclass[]) RETURNS SETOF name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    saved core_deferred_index[];
    d core_deferred_index;
BEGIN
    WITH gone AS (
        DELETE FROM core_deferred_index
        WHERE table_name = ANY(tables)
          AND (constraint_name IS NOT NULL
               OR index_definition LIKE 'CREATE UNIQUE INDEX %')
        RETURNING *)
    SELECT array_agg(ROW(g.*)::core_deferred_index ORDER BY g.table_name, g.index_name)
    INTO saved FROM gone g;
    UPDATE core_deferred_index SET after_commit = true WHERE table_name = ANY(tables);
    SET CONSTRAINTS ALL IMMEDIATE;
    SET CONSTRAINTS ALL DEFERRED;
    IF saved IS NOT NULL THEN
        FOREACH d IN ARRAY saved LOOP
            IF d.constraint_name IS NOT NULL THEN
                EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s',
                               d.table_name, d.constraint_name, d.constraint_definition);
            ELSE
                EXECUTE d.index_definition;
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT index_name FROM core_deferred_index WHERE table_name = ANY(tables)
                 ORDER BY table_name, index_name;
END;
$$;
REVOKE ALL ON FUNCTION core_indexes_restore_unique(regclass[]) FROM PUBLIC;
"""

REVERSE_SQL = r"""
DROP FUNCTION core_indexes_restore_unique(regclass[]);
CREATE OR REPLACE FUNCTION core_deferred_index_rebuilt() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM core_deferred_index d
               WHERE d.table_name = NEW.table_name AND d.index_name = NEW.index_name) THEN
        RAISE EXCEPTION 'index % of % was dropped for a bulk load and not rebuilt',
            NEW.index_name, NEW.table_name
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'call core_indexes_restore() before committing';
    END IF;
    RETURN NULL;
END;
$$;
ALTER TABLE core_deferred_index DROP COLUMN after_commit;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0003_outbox_headers"),
        ("ratings", "0023_immutable_ranks_and_app_role"),
    ]

    operations = [migrations.RunSQL(SQL, REVERSE_SQL)]
