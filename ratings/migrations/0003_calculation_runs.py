"""Calculation runs and their drafts.

A run that has been published is part of the published record: PostgreSQL refuses UPDATE and
DELETE on it and on its draft rows (the same `restrict_violation` as migration 0002). Draft rows
are checked per statement through transition tables, so replacing a large unpublished draft
costs one hash join, not a trigger call per row.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


RUN_FUNCTION = """
CREATE OR REPLACE FUNCTION ratings_refuse_published_run_change() RETURNS trigger AS $$
BEGIN
    IF OLD.published_list_id IS NOT NULL THEN
        RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""

ROWS_FUNCTION = """
CREATE OR REPLACE FUNCTION ratings_refuse_published_draft_change() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM old_rows o JOIN ratings_calculationrun r ON r.id = o.run_id
               WHERE r.published_list_id IS NOT NULL) THEN
        RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

DRAFT_TABLES = ("ratings_draftresult", "ratings_drafttournament", "ratings_draftexcluded")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        # Packed game lines are numbers: no compression attempt on write.
        cursor.execute("ALTER TABLE ratings_drafttournament ALTER COLUMN lines SET STORAGE EXTERNAL")
        cursor.execute(RUN_FUNCTION)
        cursor.execute(ROWS_FUNCTION)
        cursor.execute(
            "CREATE TRIGGER ratings_calculationrun_immutable BEFORE UPDATE OR DELETE "
            "ON ratings_calculationrun FOR EACH ROW "
            "EXECUTE FUNCTION ratings_refuse_published_run_change();"
        )
        for table in DRAFT_TABLES:
            for op in ("UPDATE", "DELETE"):
                cursor.execute(
                    f"CREATE TRIGGER {table}_immutable_{op.lower()} AFTER {op} ON {table} "
                    "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
                    "EXECUTE FUNCTION ratings_refuse_published_draft_change();"
                )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP TRIGGER IF EXISTS ratings_calculationrun_immutable ON ratings_calculationrun;")
    for table in DRAFT_TABLES:
        for op in ("update", "delete"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_immutable_{op} ON {table};")
    schema_editor.execute("DROP FUNCTION IF EXISTS ratings_refuse_published_run_change();")
    schema_editor.execute("DROP FUNCTION IF EXISTS ratings_refuse_published_draft_change();")


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0001_initial'),
        ('ratings', '0002_published_lists_immutable'),
        ('tournaments', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CalculationRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('succeeded', 'Succeeded'), ('failed', 'Failed'), ('lost', 'Worker lost')], default='queued', max_length=10, verbose_name='status')),
                ('progress', models.PositiveSmallIntegerField(default=0, verbose_name='progress (%)')),
                ('phase', models.CharField(blank=True, max_length=80, verbose_name='phase')),
                ('ruleset', models.CharField(max_length=20, verbose_name='regulation set')),
                ('engine_version', models.CharField(max_length=20, verbose_name='engine version')),
                ('method', models.CharField(blank=True, help_text='bulk or engine', max_length=10, verbose_name='method')),
                ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='requested at')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('error', models.TextField(blank=True, verbose_name='error')),
                ('player_count', models.PositiveIntegerField(default=0, verbose_name='players')),
                ('game_count', models.PositiveIntegerField(default=0, verbose_name='games counted')),
                ('excluded_count', models.PositiveIntegerField(default=0, verbose_name='games left out')),
                ('period', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='runs', to='ratings.ratingperiod', verbose_name='period')),
                ('published_list', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='run', to='ratings.publishedlist', verbose_name='published as')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
            ],
            options={
                'verbose_name': 'calculation run',
                'verbose_name_plural': 'calculation runs',
                'ordering': ['-requested_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='DraftExcluded',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('white_key', models.CharField(max_length=20)),
                ('black_key', models.CharField(max_length=20)),
                ('round', models.SmallIntegerField(default=0)),
                ('code', models.CharField(max_length=40)),
                ('reason', models.CharField(max_length=200)),
                ('article', models.CharField(max_length=40)),
                ('ruleset', models.CharField(max_length=20)),
                ('engine_version', models.CharField(max_length=20)),
                ('run', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='excluded', to='ratings.calculationrun')),
                ('tournament', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.tournament')),
            ],
            options={
                'verbose_name': 'game left out',
                'verbose_name_plural': 'games left out',
            },
        ),
        migrations.CreateModel(
            name='DraftResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rating_before', models.SmallIntegerField(blank=True, null=True)),
                ('rating_after', models.SmallIntegerField(blank=True, null=True)),
                ('change', models.SmallIntegerField(default=0)),
                ('k', models.SmallIntegerField(blank=True, null=True)),
                ('k_article', models.CharField(blank=True, max_length=40)),
                ('games', models.IntegerField(default=0)),
                ('score', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('status', models.CharField(choices=[('rated', 'Rated'), ('new', 'New'), ('unrated', 'Unrated'), ('out_of_list', 'Out of list'), ('inactive', 'Inactive'), ('provisional', 'Provisional'), ('passive', 'Passive')], max_length=12, verbose_name='status')),
                ('previous_status', models.CharField(blank=True, max_length=12)),
                ('inactive', models.BooleanField(default=False)),
                ('provisional', models.BooleanField(default=False)),
                ('flags', models.JSONField(blank=True, default=list, help_text='Codes of the notes applied.')),
                ('notes', models.JSONField(blank=True, default=list)),
                ('total_games', models.IntegerField(default=0)),
                ('games_before', models.IntegerField(default=0)),
                ('last_game_date', models.DateField(blank=True, null=True)),
                ('reached_2400', models.BooleanField(default=False)),
                ('reached_2200', models.BooleanField(default=False)),
                ('flagged_lists', models.SmallIntegerField(default=0)),
                ('prior_results', models.JSONField(blank=True, null=True)),
                ('ruleset', models.CharField(max_length=20)),
                ('engine_version', models.CharField(max_length=20)),
                ('player', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='players.player')),
                ('run', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='results', to='ratings.calculationrun')),
            ],
            options={
                'verbose_name': 'draft result',
                'verbose_name_plural': 'draft results',
            },
        ),
        migrations.AddConstraint(
            model_name='calculationrun',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['queued', 'running'])), fields=('period',), name='run_one_active_per_period'),
        ),
        migrations.AddIndex(
            model_name='draftexcluded',
            index=models.Index(fields=['run', 'tournament'], name='ratings_dra_run_id_3c0112_idx'),
        ),
        migrations.AddConstraint(
            model_name='draftresult',
            constraint=models.UniqueConstraint(fields=('run', 'player'), name='draft_result_unique_player'),
        ),
        migrations.CreateModel(
            name='DraftTournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('lines', models.BinaryField(verbose_name='game lines (packed)')),
                ('line_count', models.PositiveIntegerField(default=0)),
                ('player_count', models.PositiveIntegerField(default=0)),
                ('change_sum', models.FloatField(default=0)),
                ('change_max', models.FloatField(blank=True, null=True)),
                ('change_min', models.FloatField(blank=True, null=True)),
                ('ruleset', models.CharField(max_length=20)),
                ('engine_version', models.CharField(max_length=20)),
                ('run', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='tournament_lines', to='ratings.calculationrun')),
                ('tournament', models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.tournament')),
            ],
            options={
                'verbose_name': 'draft game lines of a tournament',
                'verbose_name_plural': 'draft game lines of tournaments',
                'constraints': [models.UniqueConstraint(fields=('run', 'tournament'), name='draft_tournament_unique')],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
