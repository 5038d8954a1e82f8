"""Backups of the site's database: `manage.py db_backup` and `manage.py db_restore`.

Everything the office keeps (uploaded reports, protests' attachments, every published list)
lives in PostgreSQL, so one `pg_dump` of the database is a whole backup (docs/backups.md).

- `tools`: the PostgreSQL client programs (pg_dump, pg_restore) of a version the server
  accepts, found on this machine, and the connection handed to them through PG* environment
  variables (the password never appears on a command line);
- `services`: a backup written atomically, checked and rotated (`backup_create`), a restore
  into an empty database (`backup_restore`) and what it brought back.
"""
