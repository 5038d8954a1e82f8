"""cnxc-2000 7.3: the ICCF list of the calibration is no longer a parameter of the rating system
(it is read from the imported ICCF lists for each period: ratings/calculation/calibration.py).
A stored ``iccf_list`` would be refused as an unknown parameter, and applied to every later
period if it were kept: it is removed."""

from django.db import migrations


def forwards(apps, schema_editor):
    RatingSystem = apps.get_model("periods", "RatingSystem")
    for system in RatingSystem.objects.filter(parameters__has_key="iccf_list"):
        parameters = dict(system.parameters)
        parameters.pop("iccf_list", None)
        RatingSystem.objects.filter(pk=system.pk).update(parameters=parameters)


class Migration(migrations.Migration):
    dependencies = [
        ("periods", "0002_history"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
