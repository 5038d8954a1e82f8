"""A trigram index on the folded name, for the player search (players.selectors).

The search folds the query like name_key (players.names.fold: no accents, no case, no commas)
and requires each of its words in the name: `name_key LIKE '%garcia%' AND name_key LIKE
'%raul%'`. Without this index every search reads the whole table (about 1 s on 500,000
players); with it PostgreSQL intersects the posting lists of the words' trigrams
(BitmapAnd) and rechecks only those rows. name_key is already folded in Python, so the index
is on the column itself: no unaccent() (which is not IMMUTABLE) in an index expression.

GIN rather than GiST: exact LIKE filtering with several words is GIN's strength; ranking by
similarity is then a sort of the few matches. The list import drops and rebuilds it with the
table's other secondary indexes on big loads (core.pg.indexes).
"""
import django.contrib.postgres.indexes
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0006_history'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='player',
            index=django.contrib.postgres.indexes.GinIndex(fields=['name_key'], name='player_name_key_trgm', opclasses=['gin_trgm_ops']),
        ),
    ]
