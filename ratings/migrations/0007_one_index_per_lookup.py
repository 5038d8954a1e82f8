"""Fewer indexes on the tables a calculation and a publication fill.

- ratings_draftresult.player_id: every read is by (run, player), which the unique index serves.
- ratings_listentry.player_id: "this player's entries" is answered by the unique (list,
  player) index, one probe per published list (ratings.selectors.player_list_history). The
  third index cost a publication about a second for 465,000 entries.

The trigger that refuses to delete a player still listed (migration 0005) probes the same way.
"""
import django.db.models.deletion
from django.db import migrations, models

PLAYER_STILL_REFERENCED = r"""
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
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(PLAYER_STILL_REFERENCED)


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_player_indexes_without_pattern_ops'),
        ('ratings', '0006_player_states_hot_updates'),
    ]

    operations = [
        migrations.AlterField(
            model_name='draftresult',
            name='player',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='players.player'),
        ),
        migrations.AlterField(
            model_name='listentry',
            name='player',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='list_entries', to='players.player', verbose_name='player'),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
