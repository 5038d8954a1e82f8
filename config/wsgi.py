"""The site's WSGI entry point (gunicorn config.wsgi:application)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Why: the objects made at start-up (every module, model, URL pattern, template engine: about
# 200,000) live as long as the process, yet each full collection of the garbage collector walked
# them all again, a pause of 120-140 ms in the middle of a request every few hundred pages (a
# first render of a list page allocates many objects): the slowest 1 % of those pages. Importing
# the views (the URL patterns) and then freezing what exists moves them out of the collector's
# sight (gc.freeze, meant for servers like this one); what requests make is collected as before.
# docs/benchmarks.md, "First renders after a publication" (garbage collection pauses).
get_resolver().url_patterns  # noqa: B018 - imports every view now, so that it is frozen too
gc.collect()
gc.freeze()
