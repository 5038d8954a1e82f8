"""The database backend used while DATABASE_URL is unset; see base.py."""
