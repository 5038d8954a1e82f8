"""List import jobs (ratings/import_jobs.py): the job a Celery worker runs, and the uploaded
file in pieces until the worker has read it (no separate index on the pieces' job: the unique
(job, seq) index serves every read)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0007_one_index_per_lookup'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ListImportJob',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('format', models.CharField(max_length=10, verbose_name='format')),
                ('filename', models.CharField(blank=True, max_length=255, verbose_name='file name')),
                ('size', models.PositiveBigIntegerField(default=0, verbose_name='size (bytes)')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('succeeded', 'Succeeded'), ('failed', 'Failed')], default='queued', max_length=10, verbose_name='status')),
                ('progress', models.PositiveSmallIntegerField(default=0, verbose_name='progress (%)')),
                ('phase', models.CharField(blank=True, max_length=80, verbose_name='phase')),
                ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='requested at')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('rows', models.PositiveIntegerField(blank=True, null=True, verbose_name='rows')),
                ('players_created', models.PositiveIntegerField(blank=True, null=True, verbose_name='players created')),
                ('players_updated', models.PositiveIntegerField(blank=True, null=True, verbose_name='players completed')),
                ('ratings_written', models.PositiveIntegerField(blank=True, null=True, verbose_name='ratings written')),
                ('method', models.CharField(blank=True, max_length=10, verbose_name='method')),
                ('problems', models.JSONField(blank=True, default=list, verbose_name='problems')),
                ('problem_total', models.PositiveIntegerField(default=0, verbose_name='problems in all')),
                ('error', models.TextField(blank=True, verbose_name='error')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                ('system', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='import_jobs', to='ratings.ratingsystem', verbose_name='rating system')),
            ],
            options={
                'verbose_name': 'list import',
                'verbose_name_plural': 'list imports',
                'ordering': ['-requested_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='ListImportChunk',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField()),
                ('data', models.BinaryField()),
                ('job', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='ratings.listimportjob')),
            ],
            options={
                'verbose_name': 'list import file piece',
                'verbose_name_plural': 'list import file pieces',
                'constraints': [models.UniqueConstraint(fields=('job', 'seq'), name='list_import_chunk_job_seq')],
            },
        ),
    ]
