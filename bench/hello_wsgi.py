"""The site's WSGI application with one more page, ``/bench-hello/``: a bare Django view
answering "hello" through the same settings and middleware, so bench/bench_cold_search.py
measures the framework's floor beside the search, under the same gunicorn and wrk.

    gunicorn -c bench/gunicorn_bench.py bench.hello_wsgi:application ...

Not for production: it only measures.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
settings.ROOT_URLCONF = "bench.hello_urls"
