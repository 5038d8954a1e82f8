"""Published lists are immutable in the database itself.

Triggers refuse UPDATE and DELETE on published lists and their entries, so raw SQL is refused
as well as the ORM (which refuses on its own in ratings.models.ImmutableModel). The error is a
`restrict_violation` (SQLSTATE 23001), which Django surfaces as IntegrityError. TRUNCATE is left
to database administrators (test databases are flushed with it). SQLite, the embedded
development default, relies on the ORM guard only.
"""
from django.db import migrations

TABLES = ("ratings_publishedlist", "ratings_listentry")

CREATE_FUNCTION = """
CREATE OR REPLACE FUNCTION ratings_refuse_published_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'published lists are immutable: % on % refused; publish a new version instead',
        TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # A plain cursor with no parameters: the function body's '%' are PL/pgSQL's, not
    # query placeholders.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(CREATE_FUNCTION)
        for table in TABLES:
            cursor.execute(
                f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION ratings_refuse_published_change();"
            )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_immutable ON {table};")
    schema_editor.execute("DROP FUNCTION IF EXISTS ratings_refuse_published_change();")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
