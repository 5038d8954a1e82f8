"""Test-run defaults, set before Django reads its settings (loaded with `-p config.testing`).

The suite serves plain HTTP with DEBUG off (Django's test runner forces DEBUG=False), so it
needs a throw-away secret and cookies/redirects that work without TLS. Real deployments set
these variables themselves; tests/test_settings.py checks the production configuration.
"""
import os

os.environ.setdefault("SECRET_KEY", "test-only-insecure-secret-key-not-for-production-0123456789")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
# No collectstatic before tests: serve static files without the hashed manifest.
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
