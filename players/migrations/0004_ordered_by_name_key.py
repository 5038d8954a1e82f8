"""Players ordered by their folded name; one text index fewer; name_key compared as bytes.

- Ordering by name_key ("garcia lopez jose") is alphabetical and accent-insensitive and is
  served by the name_key index, so the (surname, given_name) index goes: every index costs
  the 500,000-row list import and the synthetic generator (0.5 s to build, more to maintain).
- PostgreSQL: name_key gets the "C" collation. It is a folded key, matched by equality; byte
  comparison sorts it in the same order for the folded Latin letters and lets PostgreSQL
  build and search its index with memcmp and abbreviated keys instead of strcoll (the
  databases here are C.UTF-8, which PostgreSQL 15 compares through the C library).
"""
from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE players_player ALTER COLUMN name_key TYPE varchar(250) COLLATE "C"')


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('ALTER TABLE players_player ALTER COLUMN name_key TYPE varchar(250) COLLATE "default"')


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0003_player_fillfactor'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='player',
            options={'ordering': ['name_key', 'id'], 'verbose_name': 'player', 'verbose_name_plural': 'players'},
        ),
        migrations.RemoveIndex(
            model_name='player',
            name='players_pla_surname_dbc770_idx',
        ),
        migrations.RunPython(forwards, backwards),
    ]
