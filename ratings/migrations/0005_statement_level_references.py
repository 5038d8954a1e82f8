"""Foreign keys of the bulk tables checked once per statement instead of once per row.

PostgreSQL checks a REFERENCES constraint with one look-up of the parent per inserted row and
reference; for a 500,000-row list or import that is seconds at commit (6.7 s measured for the
player states of a 500,000-row import, more than the insert itself). The four references of
ratings_playerrating and ratings_listentry lose their constraint (the AlterField operations)
and get, instead, the same guarantees from triggers (ratings/models.py,
STATEMENT_LEVEL_REFERENCES):

- child side: an AFTER INSERT … FOR EACH STATEMENT trigger checks all new rows at once (their
  transition table anti-joined to the parent's primary key, as dynamic SQL so that each
  statement is planned for its own size: index probes for a few rows, a hash anti-join for
  half a million); a row trigger refuses an UPDATE
  that changes a reference to a missing parent (its WHEN clause keeps it from running
  otherwise). List entries are never updated (migration 0002).
- parent side: deleting a player or a rating system that is still referenced, or changing its
  id, is refused. A player's list entries are probed through the (list, player) index, one
  probe per published list (migration 0007 drops the index on the player alone). Published lists cannot be deleted at all (migration 0002).

Violations raise SQLSTATE 23503 (foreign_key_violation), which Django surfaces as
IntegrityError, as a constraint would. SQLite, the embedded default, relies on the ORM.
"""
import django.db.models.deletion
from django.db import migrations, models

FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION ratings_refs_refuse(what text, id bigint, parent text) RETURNS void AS $$
BEGIN
    RAISE EXCEPTION '% refused: % % does not exist', what, parent, id
        USING ERRCODE = 'foreign_key_violation';
END;
$$ LANGUAGE plpgsql;

-- One function for both tables; its trigger arguments are (column, parent table, parent's
-- name in the message) for each reference.
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

CREATE OR REPLACE FUNCTION ratings_playerrating_check_row_refs() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM players_player p WHERE p.id = NEW.player_id) THEN
        PERFORM ratings_refs_refuse('update on ratings_playerrating', NEW.player_id, 'player');
    END IF;
    IF NOT EXISTS (SELECT 1 FROM ratings_ratingsystem s WHERE s.id = NEW.system_id) THEN
        PERFORM ratings_refs_refuse('update on ratings_playerrating', NEW.system_id, 'rating system');
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION ratings_player_still_referenced() RETURNS trigger AS $$
DECLARE
    used bigint;
BEGIN
    SELECT o.id INTO used FROM old_rows o
    WHERE EXISTS (SELECT 1 FROM ratings_playerrating r WHERE r.player_id = o.id)
       OR EXISTS (SELECT 1 FROM ratings_publishedlist l JOIN ratings_listentry e
                  ON e.published_list_id = l.id AND e.player_id = o.id) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% on players_player refused: player % still has ratings or list entries', TG_OP, used
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Nothing renumbers players or systems; refusing it outright is simpler than following it.
CREATE OR REPLACE FUNCTION ratings_refuse_id_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'changing the id of a row of % is refused (ratings refer to it)', TG_TABLE_NAME
        USING ERRCODE = 'foreign_key_violation';
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION ratings_system_still_referenced() RETURNS trigger AS $$
DECLARE
    used bigint;
BEGIN
    SELECT o.id INTO used FROM old_rows o
    WHERE EXISTS (SELECT 1 FROM ratings_playerrating r WHERE r.system_id = o.id) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% on ratings_ratingsystem refused: system % still has player ratings', TG_OP, used
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

TRIGGERS = r"""
CREATE TRIGGER ratings_listentry_refs AFTER INSERT ON ratings_listentry
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ratings_check_new_refs(
        'player_id', 'players_player', 'player', 'published_list_id', 'ratings_publishedlist', 'published list');
CREATE TRIGGER ratings_playerrating_refs AFTER INSERT ON ratings_playerrating
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ratings_check_new_refs(
        'player_id', 'players_player', 'player', 'system_id', 'ratings_ratingsystem', 'rating system');
CREATE TRIGGER ratings_playerrating_row_refs BEFORE UPDATE ON ratings_playerrating FOR EACH ROW
    WHEN (OLD.player_id IS DISTINCT FROM NEW.player_id OR OLD.system_id IS DISTINCT FROM NEW.system_id)
    EXECUTE FUNCTION ratings_playerrating_check_row_refs();
CREATE TRIGGER ratings_player_refs_delete AFTER DELETE ON players_player
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ratings_player_still_referenced();
CREATE TRIGGER ratings_player_refs_update BEFORE UPDATE ON players_player FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ratings_refuse_id_change();
CREATE TRIGGER ratings_system_refs_update BEFORE UPDATE ON ratings_ratingsystem FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ratings_refuse_id_change();
CREATE TRIGGER ratings_system_refs_delete AFTER DELETE ON ratings_ratingsystem
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ratings_system_still_referenced();
"""

TRIGGER_NAMES = (
    ("ratings_listentry_refs", "ratings_listentry"),
    ("ratings_playerrating_refs", "ratings_playerrating"),
    ("ratings_playerrating_row_refs", "ratings_playerrating"),
    ("ratings_player_refs_delete", "players_player"),
    ("ratings_player_refs_update", "players_player"),
    ("ratings_system_refs_update", "ratings_ratingsystem"),
    ("ratings_system_refs_delete", "ratings_ratingsystem"),
)
FUNCTION_NAMES = (
    "ratings_check_new_refs()",
    "ratings_playerrating_check_row_refs()", "ratings_player_still_referenced()",
    "ratings_refuse_id_change()", "ratings_system_still_referenced()",
    "ratings_refs_refuse(text, bigint, text)",
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # A plain cursor with no parameters: the bodies' '%' are PL/pgSQL's, not placeholders.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(FUNCTIONS)
        cursor.execute(TRIGGERS)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for trigger, table in TRIGGER_NAMES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};")
    for function in FUNCTION_NAMES:
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function};")


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_player_indexes_without_pattern_ops'),
        ('ratings', '0004_drop_redundant_indexes'),
    ]

    operations = [
        migrations.AlterField(
            model_name='listentry',
            name='player',
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT, related_name='list_entries', to='players.player', verbose_name='player'),
        ),
        migrations.AlterField(
            model_name='listentry',
            name='published_list',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='ratings.publishedlist', verbose_name='list'),
        ),
        migrations.AlterField(
            model_name='playerrating',
            name='player',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='players.player', verbose_name='player'),
        ),
        migrations.AlterField(
            model_name='playerrating',
            name='system',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='player_ratings', to='ratings.ratingsystem', verbose_name='rating system'),
        ),
        migrations.RunPython(forwards, backwards),
    ]
