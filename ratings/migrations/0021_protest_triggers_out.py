# Protests move to the protests app (protests/migrations/0001_move_protests.py) with their tables.
# django-pgtrigger names a trigger after its model's app label ("ratings.Protest:insert_insert"
# hashed into pgtrigger_insert_insert_0c25a), so the history triggers of the protests are dropped
# here and installed again under the protests app's names by protests 0001: the move's only DDL.

import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0020_regulation_version'),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name='protest',
            name='insert_insert',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='protest',
            name='update_update',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='protest',
            name='delete_delete',
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name='protestevent',
            name='append_only',
        ),
        # RemoveTrigger drops the trigger, not its function: the four functions go too, so the
        # database holds what a fresh one migrated from zero holds (reversed: AddTrigger makes them).
        migrations.RunSQL(
            sql=[
                'DROP FUNCTION IF EXISTS pgtrigger_insert_insert_0c25a();',
                'DROP FUNCTION IF EXISTS pgtrigger_update_update_cf984();',
                'DROP FUNCTION IF EXISTS pgtrigger_delete_delete_c53bd();',
                'DROP FUNCTION IF EXISTS pgtrigger_append_only_72ac5();',
            ],
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
