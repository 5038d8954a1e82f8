"""Cache keys carry the release: a deploy never serves what the previous code rendered."""

from __future__ import annotations

import pytest
from django.test import override_settings

from core import release as release_module
from core.api import caching


@pytest.fixture
def fresh_release():
    release_module.release.cache_clear()
    yield release_module.release
    release_module.release.cache_clear()


def test_the_digest_follows_templates_code_and_translations(tmp_path, fresh_release) -> None:
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "card.html"
    page.write_text("<p>{{ rating }}</p>")
    (tmp_path / "README.md").write_text("not part of a page")
    with override_settings(BASE_DIR=tmp_path):
        first = fresh_release()
        fresh_release.cache_clear()
        (tmp_path / "README.md").write_text("changed, still not part of a page")
        assert fresh_release() == first
        fresh_release.cache_clear()
        page.write_text("<p>{{ rating }} ({{ change }})</p>")
        assert fresh_release() != first


def test_an_entry_kept_by_another_release_is_not_read(monkeypatch) -> None:
    monkeypatch.setattr(caching, "release", lambda: "old")
    caching.cached_set("page:card:x", b"rendered by the old code", 60)
    assert caching.cached_get("page:card:x") == b"rendered by the old code"
    monkeypatch.setattr(caching, "release", lambda: "new")
    assert caching.cached_get("page:card:x") is None
