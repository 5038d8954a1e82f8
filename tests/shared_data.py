"""The real files of ../shared/data beside the checkout, which some tests read there (never
copied into the project); those tests are skipped when it is absent."""

from __future__ import annotations

from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
