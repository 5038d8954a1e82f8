"""The statement-level reference check of migration 0005 skips a statement whose writer checked
its rows' references itself and says so for that table (issue 27 item 5).

The list import inserts up to 500,000 ratings whose players are the ones it has just inserted
(ids from the block it reserved, same rows of its stage) or checked itself; the trigger's
anti-join of every new row against the whole player registry cost about a second of a
first import under load. The writer sets ``ratings.refs_checked`` to the table's name for
that one statement (``SET LOCAL``, reset right after; a rollback to a savepoint undoes it
too); any other value, or none, and the check runs as before.
"""

from django.db import migrations

CHECK = r"""
CREATE OR REPLACE FUNCTION ratings_check_new_refs() RETURNS trigger AS $$
DECLARE
    missing bigint;
    i int := 0;
BEGIN
    IF current_setting('ratings.refs_checked', true) = TG_TABLE_NAME THEN
        RETURN NULL;  -- the writer checked these rows (lists.imports.importer)
    END IF;
    WHILE i < TG_NARGS LOOP
        EXECUTE format('SELECT min(n.%1$I) FROM new_rows n '
                       'WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.id = n.%1$I)',
                       TG_ARGV[i], TG_ARGV[i + 1]) INTO missing;
        IF missing IS NOT NULL THEN
            PERFORM ratings_refs_refuse('insert on ' || TG_TABLE_NAME, missing, TG_ARGV[i + 2]);
        END IF;
        i := i + 3;
    END LOOP;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

PREVIOUS = r"""
CREATE OR REPLACE FUNCTION ratings_check_new_refs() RETURNS trigger AS $$
DECLARE
    missing bigint;
    i int := 0;
BEGIN
    WHILE i < TG_NARGS LOOP
        EXECUTE format('SELECT min(n.%1$I) FROM new_rows n '
                       'WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.id = n.%1$I)',
                       TG_ARGV[i], TG_ARGV[i + 1]) INTO missing;
        IF missing IS NOT NULL THEN
            PERFORM ratings_refs_refuse('insert on ' || TG_TABLE_NAME, missing, TG_ARGV[i + 2]);
        END IF;
        i := i + 3;
    END LOOP;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


def _run(body: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        # A plain cursor with no parameters: the body's '%' are PL/pgSQL's.
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(body)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0031_rerate_chain"),
    ]

    operations = [
        migrations.RunPython(_run(CHECK), _run(PREVIOUS)),
    ]
