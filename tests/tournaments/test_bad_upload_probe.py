"""Generated bad uploads through the real upload view and the crosstable form (a few
hypothesis examples; FUZZ_DEPTH=N for more, bench/bench_bad_uploads.py for thousands): no
5xx, and a rejection writes nothing but its own record."""

from __future__ import annotations

import itertools
import random

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from core import roles
from tests.factories import make_system, make_tournament, make_user
from tests.fuzzing import fuzz_settings
from tests.probes.bad_uploads import ProbeStats, mutate, probe_one, seeds

pytestmark = pytest.mark.django_db

_EXAMPLES = itertools.count()


def test_mutations_are_bad() -> None:
    """The generator does break its seeds (most mutations change the bytes)."""
    rng = random.Random(7)
    changed = sum(mutate(rng, data) != data for _ in range(20) for _n, data in seeds())
    assert changed > 0.9 * 20 * len(seeds())


@fuzz_settings(6)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_bad_uploads_and_forms_never_crash_nor_write(seed: int) -> None:
    client = Client()
    arbiter = make_user(f"probe-{next(_EXAMPLES)}", role=roles.ARBITER)
    tournament = make_tournament(make_system(), arbiter)
    client.force_login(arbiter)
    rng = random.Random(seed)
    stats = ProbeStats()
    for kind in ("upload", "upload", "upload", "form"):
        probe_one(client, tournament, rng, stats, kind=kind)
    assert stats.sent == 4
    assert not stats.server_errors, stats.server_errors
    assert not stats.stray_rows, stats.stray_rows
