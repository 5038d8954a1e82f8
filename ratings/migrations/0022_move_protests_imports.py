# Protests now belong to the protests app and list import jobs to the lists app: only Django's idea
# of which app owns them moves; their tables (and the history table of the protests) keep their
# ratings_ names. Their content types follow them, so permissions granted on them and the admin's
# log keep pointing at them.

from django.db import migrations

#: model -> the app it moved to
MOVED = {
    'protest': 'protests',
    'protestattachment': 'protests',
    'protestevent': 'protests',
    'listimportjob': 'lists',
    'listimportchunk': 'lists',
}


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    for model, app in MOVED.items():
        if not ContentType.objects.filter(app_label=app, model=model).exists():
            ContentType.objects.filter(app_label='ratings', model=model).update(app_label=app)


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    for model, app in MOVED.items():
        if not ContentType.objects.filter(app_label='ratings', model=model).exists():
            ContentType.objects.filter(app_label=app, model=model).update(app_label='ratings')


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('lists', '0001_move_imports'),
        ('protests', '0001_move_protests'),
        ('ratings', '0021_protest_triggers_out'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            # The tables stay where they are.
            state_operations=[
                migrations.RemoveField(
                    model_name='listimportjob',
                    name='requested_by',
                ),
                migrations.RemoveField(
                    model_name='listimportjob',
                    name='system',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='appeal_decided_by',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='corrected_list',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='decided_by',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='published_list',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='submitted_by',
                ),
                migrations.RemoveField(
                    model_name='protest',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='protestattachment',
                    name='protest',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='pgh_obj',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='appeal_decided_by',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='corrected_list',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='decided_by',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='pgh_context',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='published_list',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='submitted_by',
                ),
                migrations.RemoveField(
                    model_name='protestevent',
                    name='tournament',
                ),
                migrations.DeleteModel(
                    name='ListImportChunk',
                ),
                migrations.DeleteModel(
                    name='ListImportJob',
                ),
                migrations.DeleteModel(
                    name='ProtestAttachment',
                ),
                migrations.DeleteModel(
                    name='Protest',
                ),
                migrations.DeleteModel(
                    name='ProtestEvent',
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back, elidable=True),
    ]
