"""Immutability for every published table, and a bulk load's index rebuild for a role that owns
nothing (docs/security.md, "Immutability and database roles").

1. The refusals of ratings/models (IMMUTABLE) are installed again from core.pg.triggers.Refuse,
   whose functions no longer read `pgtrigger.ignore` (any role could SET it and step around
   them); a published list's ranks and filter rows (ListRank, ListFilterRow) refuse UPDATE,
   DELETE and TRUNCATE as the entries do; calculation runs and draft rows refuse TRUNCATE.
2. core.pg.indexes drops and rebuilds a table's secondary indexes around a bulk load (the list
   import). That takes the table's owner, and the site connects as a role that owns nothing
   (core/pg/roles.py), so two SECURITY DEFINER functions owned by the role running this
   migration do it: `core_indexes_drop(tables)` saves the definitions (read from the catalogue,
   never from the caller) in `core_deferred_index` and drops the indexes;
   `core_indexes_restore(tables)` rebuilds them. A deferred constraint trigger on
   `core_deferred_index` refuses to commit a transaction that dropped indexes and did not
   rebuild them, so nobody can leave a table without its unique constraints. Only ordinary
   tables of the schema `public` owned by the functions' owner, on which the calling session
   user may INSERT, are accepted; the search path is pinned. EXECUTE is revoked from PUBLIC and
   granted to the site's role by core.pg.roles.
"""

import core.pg.triggers
import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations


# The functions and table are core's (core/pg/indexes.py calls them); this migration number is
# where they were added. Written out here, not imported: a migration keeps the SQL it ran.
INDEX_DEFERRAL_SQL = r"""
CREATE TABLE core_deferred_index (
    table_name regclass NOT NULL,
    index_name name NOT NULL,
    index_definition text NOT NULL,
    constraint_name name,
    constraint_definition text,
    PRIMARY KEY (table_name, index_name)
);
REVOKE ALL ON core_deferred_index FROM PUBLIC;

CREATE FUNCTION core_deferred_index_rebuilt() RETURNS trigger
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
REVOKE ALL ON FUNCTION core_deferred_index_rebuilt() FROM PUBLIC;

CREATE CONSTRAINT TRIGGER core_deferred_index_rebuilt
    AFTER INSERT ON core_deferred_index DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION core_deferred_index_rebuilt();

CREATE FUNCTION core_indexes_drop(tables regclass[]) RETURNS SETOF name
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    t regclass;
    r record;
BEGIN
    FOREACH t IN ARRAY tables LOOP
        IF NOT EXISTS (
            SELECT 1 FROM pg_class c
            WHERE c.oid = t AND c.relkind = 'r' AND c.relpersistence = 'p'
              AND c.relnamespace = 'public'::regnamespace
              AND c.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)
        ) OR NOT has_table_privilege(session_user, t, 'INSERT') THEN
            RAISE EXCEPTION 'core_indexes_drop: % is not a table of this schema that % may load',
                t, session_user USING ERRCODE = 'insufficient_privilege';
        END IF;
        EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', t);
    END LOOP;
    -- ALTER TABLE refuses a table with pending deferred checks (Django's foreign keys are
    -- DEFERRABLE INITIALLY DEFERRED): run them now, then defer again, as Django declares them.
    SET CONSTRAINTS ALL IMMEDIATE;
    SET CONSTRAINTS ALL DEFERRED;
    -- Kept: the primary key, and any index a foreign key of another table depends on.
    FOR r IN
        SELECT i.indrelid::regclass AS tbl, i.indexrelid::regclass AS idx, ic.relname,
               pg_get_indexdef(i.indexrelid) AS indexdef, c.conname,
               pg_get_constraintdef(c.oid) AS condef
        FROM pg_index i
        JOIN pg_class ic ON ic.oid = i.indexrelid
        LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
                                 AND c.contype IN ('u', 'x')
        WHERE i.indrelid = ANY(tables) AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint f
                          WHERE f.contype = 'f' AND f.conindid = i.indexrelid)
        ORDER BY i.indrelid, ic.relname
    LOOP
        INSERT INTO core_deferred_index
        VALUES (r.tbl, r.relname, r.indexdef, r.conname, r.condef);
        IF r.conname IS NOT NULL THEN
            EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
        ELSE
            EXECUTE format('DROP INDEX %s', r.idx);
        END IF;
        RETURN NEXT r.relname;
    END LOOP;
END;
$$;
REVOKE ALL ON FUNCTION core_indexes_drop(regclass[]) FROM PUBLIC;

CREATE FUNCTION core_indexes_restore(tables regclass[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    saved core_deferred_index[];
    d core_deferred_index;
BEGIN
    -- Taken out first, so the commit check finds them gone.
    WITH gone AS (DELETE FROM core_deferred_index WHERE table_name = ANY(tables) RETURNING *)
    SELECT array_agg(ROW(g.*)::core_deferred_index ORDER BY g.table_name, g.index_name)
    INTO saved FROM gone g;
    -- CREATE INDEX refuses a table with pending deferred checks, as above.
    SET CONSTRAINTS ALL IMMEDIATE;
    SET CONSTRAINTS ALL DEFERRED;
    IF saved IS NULL THEN
        RETURN;
    END IF;
    FOREACH d IN ARRAY saved LOOP
        IF d.constraint_name IS NOT NULL THEN
            EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s',
                           d.table_name, d.constraint_name, d.constraint_definition);
        ELSE
            EXECUTE d.index_definition;
        END IF;
    END LOOP;
END;
$$;
REVOKE ALL ON FUNCTION core_indexes_restore(regclass[]) FROM PUBLIC;
"""

INDEX_DEFERRAL_DROP_SQL = """
DROP FUNCTION core_indexes_restore(regclass[]);
DROP FUNCTION core_indexes_drop(regclass[]);
DROP TABLE core_deferred_index;
DROP FUNCTION core_deferred_index_rebuilt();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0022_move_protests_imports'),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name='calculationrun',
            name='immutable',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='draftexcluded',
            name='immutable_update',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='draftexcluded',
            name='immutable_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='draftresult',
            name='immutable_update',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='draftresult',
            name='immutable_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='drafttournament',
            name='immutable_update',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='drafttournament',
            name='immutable_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='listentry',
            name='immutable',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='listentry',
            name='immutable_truncate',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='publishedlist',
            name='immutable',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='publishedlist',
            name='immutable_truncate',
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='calculationrun',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=core.pg.triggers.UnignorableTriggerSql(condition='WHEN (OLD."published_list_id" IS NOT NULL)', func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='ecd0eec086aed4aad7b840557bfdd52b64bbebe0', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_40b18', table='ratings_calculationrun', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='calculationrun',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='e81bce0a794bd24b3f981b844479d6902713c931', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_fb21e', table='ratings_calculationrun', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftexcluded',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='bc0f2d4db70295300cd3a0a65f260d04550167cc', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_d9668', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_draftexcluded', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftexcluded',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='3c042981936d8a39424c484616985f689fdbe99a', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_f23e3', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_draftexcluded', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftexcluded',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='b692a22ccb330ec0424a031d5c31a87596ef668d', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_04585', table='ratings_draftexcluded', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftresult',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='1a659f87cfa371928bc4bfcf9b5e322095d6c570', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_1835d', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_draftresult', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftresult',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='7cd47fa9476aaa3459b37ded6318074943daf1af', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_614f6', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_draftresult', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftresult',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='fe31776afdcff9a106c6c7e8b639ff5992056255', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_8df74', table='ratings_draftresult', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='drafttournament',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='e1169ab16a8506e0938fa86f1273f99e1fd78f1c', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_8ea53', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_drafttournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='drafttournament',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=core.pg.triggers.UnignorableTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='1f188903e167106aec1a6fb2c25fda8b92735675', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_2facf', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_drafttournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='drafttournament',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='6fb8b87b2cf710fed92748a7dce6c25bde24de58', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_e9a86', table='ratings_drafttournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listentry',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='728a5f5dd6950967cb3f7f4234798005139107f2', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_200ff', table='ratings_listentry', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listentry',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='b5e4d2845ae43a0be4717a92ab87bff00fb8464d', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_7e871', table='ratings_listentry', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listfilterrow',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='0e50a76f54a3239fce91eec4df763ff8241947c2', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_8ed31', table='ratings_listfilterrow', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listfilterrow',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='aaa13ce65825a1c3af8e9a087f2c0f69f4c17f95', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_3840a', table='ratings_listfilterrow', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listrank',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='100e36d3c8eba534fd7bdccfbadcefd330b17986', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_da05e', table='ratings_listrank', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listrank',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='af53cccf38c75512bc477d0cf891e86a85e53961', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_eff32', table='ratings_listrank', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='publishedlist',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='be74e3243ff2f3b96c73d21b78fbbc67d66ce203', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_27b16', table='ratings_publishedlist', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='publishedlist',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=core.pg.triggers.UnignorableTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='9cb08df7684649108bade8c1d76dc79f99016c43', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_95de1', table='ratings_publishedlist', when='AFTER')),
        ),
        migrations.RunSQL(INDEX_DEFERRAL_SQL, INDEX_DEFERRAL_DROP_SQL),
    ]
