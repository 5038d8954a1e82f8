"""config/wsgi.py: the site's start-up objects are frozen out of the garbage collector's full
collections (a 120-140 ms pause every few hundred first renders without it)."""

from __future__ import annotations

import gc
import importlib

import config.wsgi


def test_the_entry_point_freezes_what_start_up_made() -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        importlib.reload(config.wsgi)
        # Every module, model and URL pattern of the site: tens of thousands of objects.
        assert gc.get_freeze_count() > 20_000
        assert callable(config.wsgi.application)
    finally:
        gc.unfreeze()
