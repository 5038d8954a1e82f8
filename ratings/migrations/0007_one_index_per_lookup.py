"""Fewer indexes on the tables a calculation and a publication fill.

- ratings_draftresult.player_id: every read is by (run, player), which the unique index serves.
- ratings_listentry.player_id: "this player's entries" is answered by the unique (list,
  player) index, one probe per published list (ratings.selectors.player_list_history). The
  third index cost a publication about a second for 465,000 entries.

The trigger that refuses to delete a player still listed (migration 0005) probes the same way.
"""
import django.db.models.deletion
from django.db import migrations, models

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
    ]
