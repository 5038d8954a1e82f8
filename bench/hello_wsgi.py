"""WSGI application of bench/bench_public.py: the site (config.wsgi's) plus a bare Django
"hello" view at /bench/hello/ (bench/hello_urls.py), so the framework's floor — gunicorn,
every middleware of the site, a URL resolved, a response of five bytes, no query — is
measured by the same gunicorn workers and the same wrk as the pages beside it.

    gunicorn bench.hello_wsgi:application -c bench/gunicorn_bench.py ...

Not for production: the site's own entry point is config.wsgi.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings

from config.wsgi import application

settings.ROOT_URLCONF = "bench.hello_urls"
__all__ = ["application"]
