"""The extensions players/migrations/0005 creates are there and work on the test database."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_pg_trgm_and_unaccent_are_created_by_the_migrations() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'unaccent')")
        assert {name for (name,) in cursor.fetchall()} == {"pg_trgm", "unaccent"}
        cursor.execute("SELECT unaccent('Álvarez Núñez'), similarity('Galicia', 'Galizia') > 0.3")
        assert cursor.fetchone() == ("Alvarez Nunez", True)
