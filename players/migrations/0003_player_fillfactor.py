"""Room on each page of players_player for the list import's in-place updates.

Importing next month's list fills in a missing birth year or title of existing players (in
the benchmark 142,479 of 500,000). Those columns are not indexed, so PostgreSQL can write
the new row version on the same page without touching the table's six indexes (a heap-only
tuple update) — if the page has room. With the default fillfactor (100) it never has, and
each such update wrote six index entries: 4.9–5.2 s, against 1.0 s with fillfactor 70
(bench/bench_import.py, docs/benchmarks.md). The first import does not get slower.

fillfactor applies to pages written from now on; an installation that already holds its
players can repack them once, outside a migration: VACUUM FULL players_player.
"""
from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE players_player SET (fillfactor = 70)")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE players_player RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0002_player_indexes_without_pattern_ops"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
