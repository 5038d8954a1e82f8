"""Prints, as JSON, the md5 of what a database serves and keeps: every download of every
published list in every format (as the download page serves it), every uploaded report's
stored bytes, every protest's attachment.

    DATABASE_URL=postgres://…/name python -m tests.core.backup_digest

Run in a process of its own by tests/core/test_backups.py, once on the database backed up and
once on the database restored: each process has its own settings (DATABASE_URL) and a cache of
its own (CACHE_URL unset: local memory), so no download is answered from what the other
rendered.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

# After django.setup(): the apps' models need the registry.
from django.core.cache import caches  # noqa: E402
from django.core.cache.backends.locmem import LocMemCache  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from lists import exports  # noqa: E402
from protests.models import ProtestAttachment  # noqa: E402
from ratings.models import PublishedList  # noqa: E402
from tournaments.models import Report  # noqa: E402


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def main() -> int:
    backend = caches["default"]
    if not isinstance(backend, LocMemCache):
        print(f"backup_digest: the cache must be this process's own (got {type(backend)})")
        return 2
    client = Client()
    lists: dict[str, str] = {}
    for published in PublishedList.objects.order_by("pk"):
        for fmt in exports.FORMATS:
            url = reverse("ratings:list_download", kwargs={"pk": published.pk, "fmt": fmt})
            response = client.get(url)
            if response.status_code != 200:
                print(f"backup_digest: {url} answered {response.status_code}")
                return 1
            lists[f"{published.pk}.{fmt}"] = md5(response.getvalue())
    reports = {str(r.pk): md5(bytes(r.data)) for r in Report.objects.order_by("pk")}
    attachments = {str(a.pk): md5(bytes(a.data)) for a in ProtestAttachment.objects.order_by("pk")}
    print(json.dumps({"lists": lists, "reports": reports, "attachments": attachments}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
