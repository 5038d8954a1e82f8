"""Test-run defaults, set before Django reads its settings (loaded with `-p config.testing`).

The suite serves plain HTTP with DEBUG off (Django's test runner forces DEBUG=False), so it
needs a throw-away secret and cookies/redirects that work without TLS. Real deployments set
these variables themselves; tests/config/test_settings.py checks the production configuration.
"""

import os

from config import embedded_db

os.environ.setdefault("SECRET_KEY", "test-only-insecure-secret-key-not-for-production-0123456789")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
# No collectstatic before tests: serve static files without the hashed manifest.
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# The API's throttles out of the way (the suite makes many requests as one client); the
# throttling test sets its own rates (tests/api/test_api.py).
for _scope in ("ANON", "USER", "CALCULATOR"):
    os.environ.setdefault(f"API_THROTTLE_{_scope}", "100000/minute")
# Test processes share the Redis cache database (CI's, or the xdist workers of one run), and
# their test databases reuse the same ids: keys of one process must not answer another.
os.environ["CACHE_KEY_PREFIX"] = f"test-{os.getpid()}"

# PostgreSQL is the only database: with DATABASE_URL unset (a developer's `make test` or plain
# `pytest`), use the private server of config/embedded_db.py, stopped when pytest exits;
# pytest-django creates its `test_rating_office` database there. CI sets DATABASE_URL, and
# database_url() refuses to start a private server when CI=true.
os.environ["DATABASE_URL"] = embedded_db.database_url()
# The suite connects as DATABASE_URL's role (a superuser: it creates the test databases and
# flushes them) and migrates as it too; tests/core/test_db_roles.py makes its own site's role.
os.environ.pop("DATABASE_OWNER_URL", None)


def pytest_unconfigure() -> None:
    """Leave the private server (stopped if no other run uses it) while output is still open."""
    embedded_db.leave()
