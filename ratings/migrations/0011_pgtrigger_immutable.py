"""Published lists and published runs refuse changes through django-pgtrigger.

The hand-written PL/pgSQL triggers of migrations 0002 (published lists and their entries) and
0003 (a published calculation run and its draft rows) are dropped, and the same protections are
installed from the models' Meta.triggers (ratings/models.py, IMMUTABLE): same refusals, same
message, same `restrict_violation` (SQLSTATE 23001). Also refused now: TRUNCATE of published
lists and list entries (statement-level triggers; `manage.py flush` is the exception, see
ratings/management/commands/flush.py). The statement-level reference triggers of migration
0005 are kept as they are (STATEMENT_LEVEL_REFERENCES in ratings/models.py).
"""
import importlib

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations

OLD_TRIGGERS = (
    ("ratings_publishedlist_immutable", "ratings_publishedlist"),
    ("ratings_listentry_immutable", "ratings_listentry"),
    ("ratings_calculationrun_immutable", "ratings_calculationrun"),
    *((f"{table}_immutable_{op}", table)
      for table in ("ratings_draftresult", "ratings_drafttournament", "ratings_draftexcluded")
      for op in ("update", "delete")),
)
OLD_FUNCTIONS = (
    "ratings_refuse_published_change()",
    "ratings_refuse_published_run_change()",
    "ratings_refuse_published_draft_change()",
)


def drop_raw_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for trigger, table in OLD_TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table};")
    for function in OLD_FUNCTIONS:
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function};")


def restore_raw_triggers(apps, schema_editor):
    # Backwards: the reversed AddTrigger operations (run before this) remove the pgtrigger
    # triggers; the old migrations' own code puts their triggers back.
    for name in ("0002_published_lists_immutable", "0003_calculation_runs"):
        importlib.import_module(f"ratings.migrations.{name}").forwards(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0010_move_systems_periods'),
    ]

    operations = [
        migrations.RunPython(drop_raw_triggers, restore_raw_triggers),
        pgtrigger.migrations.AddTrigger(
            model_name='calculationrun',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (OLD."published_list_id" IS NOT NULL)', func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='08a17ba313f4767850aace4ff6f5623c85c86d56', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_40b18', table='ratings_calculationrun', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftexcluded',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='d8a6d6300ee1d050c03fa997c860b730316fe49e', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_d9668', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_draftexcluded', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftexcluded',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='5394cbfd909bd1ad2c7823f9bbd6bf178c9edc16', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_f23e3', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_draftexcluded', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftresult',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='f55a833ae881a74abff3a5138c23d26650915f50', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_1835d', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_draftresult', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='draftresult',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='9877fc66b812c947d5163a3fbe093c20907aa4dd', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_614f6', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_draftresult', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='drafttournament',
            trigger=pgtrigger.compiler.Trigger(name='immutable_update', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='527849d4fb03414451240840d658407d30541b10', level='STATEMENT', operation='UPDATE', pgid='pgtrigger_immutable_update_8ea53', referencing='REFERENCING OLD TABLE AS old_values  NEW TABLE AS new_values ', table='ratings_drafttournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='drafttournament',
            trigger=pgtrigger.compiler.Trigger(name='immutable_delete', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF EXISTS (SELECT 1 FROM old_values WHERE (old_values.run_id IN (SELECT r.id FROM ratings_calculationrun r WHERE r.published_list_id IS NOT NULL))) THEN RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation'; END IF; RETURN NULL;", hash='99cfd181a5d511cb47ab1a9db1058e244888bb30', level='STATEMENT', operation='DELETE', pgid='pgtrigger_immutable_delete_2facf', referencing='REFERENCING OLD TABLE AS old_values ', table='ratings_drafttournament', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listentry',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='11ec28aea50bbc0e3899fb57d42693baaf889117', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_200ff', table='ratings_listentry', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='listentry',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='6f39e166dd506294684390b011dcbad694ac96d8', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_7e871', table='ratings_listentry', when='AFTER')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='publishedlist',
            trigger=pgtrigger.compiler.Trigger(name='immutable', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='25086d7ae2495d320f15f1ab49edc6a333be043e', operation='UPDATE OR DELETE', pgid='pgtrigger_immutable_27b16', table='ratings_publishedlist', when='BEFORE')),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='publishedlist',
            trigger=pgtrigger.compiler.Trigger(name='immutable_truncate', sql=pgtrigger.compiler.UpsertTriggerSql(func="RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';", hash='094eebdb58756bc6da95a071250253cedd39dab9', level='STATEMENT', operation='TRUNCATE', pgid='pgtrigger_immutable_truncate_95de1', table='ratings_publishedlist', when='AFTER')),
        ),
    ]
