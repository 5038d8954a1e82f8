"""PlayerRating.rated_since (fide-2024 8.2.4, fide-2000 10.4, cnxc-2000 12.1) and the closing
date of open fide-2024 periods moved to 3 days before their list (7.1.3, ratings/cycles.py).

The new column is nullable without a default: PostgreSQL adds it without rewriting the table.
Existing ratings get NULL ("rated before the records"), as imported ones do.

Open fide-2024 periods created before ratings/cycles.py closed on their last day; only those
still carrying that old default are moved (a date an officer changed by hand is kept).
Published and closed periods are history and keep theirs.
"""
import datetime as dt

from django.db import migrations, models

CLOSING_DAYS = 3  # fide-2024 7.1.3; a migration keeps its own copy of the figure


def fide_2024_closing_dates(apps, schema_editor):
    RatingPeriod = apps.get_model("ratings", "RatingPeriod")
    periods = RatingPeriod.objects.filter(system__ruleset="fide-2024", status="open")
    for period in periods.only("id", "end", "closing_date", "list_date"):
        if period.closing_date == period.end and period.list_date:
            RatingPeriod.objects.filter(pk=period.pk).update(
                closing_date=period.list_date - dt.timedelta(days=CLOSING_DAYS))


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0008_list_import_jobs"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrating",
            name="rated_since",
            field=models.DateField(
                blank=True, help_text="Date of the first list that published this rating (fide-2024 8.2.4).",
                null=True, verbose_name="rated since"),
        ),
        migrations.RunPython(fide_2024_closing_dates, migrations.RunPython.noop),
    ]
